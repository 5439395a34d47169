import {
  durationInMonths,
  fieldKeys,
  LOAN_FIELDS,
  LOAN_LIMITS,
  type LoanDetails,
  type LoanValidationMode,
  loanEndDate,
  validateLoan,
} from '@kosh/domain';
import { amountText, toFormErrors } from '../forms';
import type { Loan, LoanBody } from './loansApi';

/** The loan form as typed: numbers stay text so partial input survives (spec section 3 names). */
export type LoanFormValues = {
  bankId: string;
  loanTypeId: string;
  accountNumber: string;
  shortDetail: string;
  principalAmount: string;
  interestRate: string;
  isInterestRateYearly: '1' | '0';
  duration: string;
  isDurationYearly: '1' | '0';
  startDate: string;
  processingFee: string;
  hasGst: boolean;
  gstPercentage: string;
  /** Past EMIs count as paid on their due dates unless marked otherwise. */
  emisAutoDebited: boolean;
  /** The APR counts 18% GST on the fee. */
  processingFeeGst: boolean;
};

/** The names a 422 may name, one per declared field (`LOAN_FIELDS`). */
export const LOAN_FIELD_NAMES: readonly string[] = fieldKeys(LOAN_FIELDS);

/**
 * Spec section 9 defaults: rate and duration yearly, no processing fee, GST off (18% when on);
 * EMIs auto-debited and the fee charged with GST, as most lenders do.
 */
export const NEW_LOAN: LoanFormValues = {
  bankId: '',
  loanTypeId: '',
  accountNumber: '',
  shortDetail: '',
  principalAmount: '',
  interestRate: '',
  isInterestRateYearly: '1',
  duration: '',
  isDurationYearly: '1',
  startDate: '',
  processingFee: '0',
  hasGst: false,
  gstPercentage: String(LOAN_LIMITS.defaultGstPercentage),
  emisAutoDebited: true,
  processingFeeGst: true,
};
// Every declared loan field but the end date (worked out from the start and the duration) is on
// the form: a field added to LOAN_FIELDS does not compile until it has a value here.
NEW_LOAN satisfies Record<Exclude<keyof LoanDetails, 'endDate'>, unknown>;

export function valuesOf(loan: Loan): LoanFormValues {
  const hasGst = Boolean(Number(loan.hasGst));
  return {
    bankId: String(loan.bankId),
    loanTypeId: String(loan.loanTypeId),
    accountNumber: loan.accountNumber,
    shortDetail: loan.shortDetail ?? '',
    principalAmount: String(Number(loan.principalAmount)),
    interestRate: String(Number(loan.interestRate)),
    isInterestRateYearly: Number(loan.isInterestRateYearly) ? '1' : '0',
    duration: String(Number(loan.duration)),
    isDurationYearly: Number(loan.isDurationYearly) ? '1' : '0',
    startDate: loan.startDate.slice(0, 10),
    processingFee: String(Number(loan.processingFee ?? 0)),
    hasGst,
    gstPercentage: hasGst ? String(Number(loan.gstPercentage)) : String(LOAN_LIMITS.defaultGstPercentage),
    emisAutoDebited: loan.emisAutoDebited,
    processingFeeGst: loan.processingFeeHasGst,
  };
}

/**
 * The number fields as the validators and the API read them: "₹ 1,00,000" is 100000, a cleared
 * field is "" (see amountText).
 */
export function readNumbers(values: LoanFormValues): LoanFormValues {
  return {
    ...values,
    principalAmount: amountText(values.principalAmount),
    interestRate: amountText(values.interestRate),
    duration: amountText(values.duration),
    processingFee: amountText(values.processingFee),
    gstPercentage: amountText(values.gstPercentage),
  };
}

export function loanFormValidator(mode: LoanValidationMode, today: () => string) {
  return (values: LoanFormValues) => toFormErrors(validateLoan(readNumbers(values), mode, today()));
}

/** Whole months of the duration as typed, or null while it is not a usable number. */
export function monthsOf(values: Pick<LoanFormValues, 'duration' | 'isDurationYearly'>): number | null {
  const text = amountText(values.duration);
  const duration = Number(text);
  if (text === '' || !Number.isFinite(duration) || duration <= 0) return null;
  const months = Math.round(durationInMonths(duration, values.isDurationYearly === '1'));
  return months >= 1 && months <= LOAN_LIMITS.durationMonthsMax ? months : null;
}

/** The end date is computed on the client from the start date plus the duration (spec section 3). */
export function endDateOf(
  values: Pick<LoanFormValues, 'duration' | 'isDurationYearly' | 'startDate'>,
): string | null {
  const months = monthsOf(values);
  if (months === null || !/^\d{4}-\d{2}-\d{2}$/.test(values.startDate)) return null;
  return loanEndDate(values.startDate, months, false);
}

/** The loan request payload; call only with values that passed validation. */
export function toLoanBody(typed: LoanFormValues): LoanBody {
  const values = readNumbers(typed);
  return {
    bankId: Number(values.bankId),
    loanTypeId: Number(values.loanTypeId),
    accountNumber: values.accountNumber.trim(),
    shortDetail: values.shortDetail.trim(),
    principalAmount: Number(values.principalAmount),
    interestRate: Number(values.interestRate),
    isInterestRateYearly: values.isInterestRateYearly === '1' ? 1 : 0,
    duration: Number(values.duration),
    isDurationYearly: values.isDurationYearly === '1' ? 1 : 0,
    startDate: values.startDate,
    endDate: endDateOf(values) ?? values.startDate,
    processingFee: values.processingFee.trim() === '' ? 0 : Number(values.processingFee),
    hasGst: values.hasGst ? 1 : 0,
    gstPercentage: values.hasGst ? Number(values.gstPercentage) : 0,
    emisAutoDebited: values.emisAutoDebited ? 1 : 0,
    processingFeeHasGst: values.processingFeeGst ? 1 : 0,
  };
}
