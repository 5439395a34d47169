/**
 * The spec's loan rules (section 5) with their exact messages, shared by the API (422 per field)
 * and the loan forms. Fields are the form's camelCase names; the API maps them to its snake_case
 * wire names. Messages the spec does not give are written in its voice.
 */

import { durationInMonths, isIsoDate, loanEndDate } from '../loan/dates';
import type { LoanDetails } from '../loan/fields';
import { MAX_RATE_SIGNIFICANT_DIGITS, significantDigits } from '../loan/rate';
import { type Paise, toPaise } from '../money/paise';
import type { FieldError } from '../shared/errors';
import { decimalText } from './decimal';
import { LOAN_LIMITS } from './loan-limits';

export { LOAN_LIMITS };

export const LOAN_MESSAGES = {
  bankRequired: 'Bank selection is required',
  bankInvalid: 'Please select a valid bank',
  loanTypeRequired: 'Loan type selection is required',
  loanTypeInvalid: 'Please select a valid loan type',
  accountNumberRequired: 'Account number is required',
  accountNumberTooShort: 'Account number must be at least 5 characters',
  accountNumberTooLong: 'Account number cannot exceed 30 characters',
  accountNumberCharacters: 'Account number can only contain letters and numbers',
  shortDetailTooLong: 'Description cannot exceed 200 characters',
  principalRequired: 'Principal amount is required',
  principalNotNumber: 'Principal amount must be a number',
  principalTooSmall: 'Principal amount must be at least ₹100',
  principalTooLarge: 'Principal amount cannot exceed ₹10,00,00,000',
  principalDecimals: 'Principal amount can have maximum 2 decimal places',
  interestRateRequired: 'Interest rate is required',
  interestRateNotNumber: 'Interest rate must be a number',
  interestRateTooSmall: 'Interest rate must be at least 0.1%',
  interestRateTooLarge: 'Interest rate cannot exceed 50%',
  interestRateDecimals: 'Interest rate can have maximum 3 decimal places',
  interestRateTooPrecise: 'Interest rate can have at most 15 significant digits',
  interestRatePeriodInvalid: 'Interest rate period must be yearly (1) or monthly (0)',
  durationRequired: 'Duration is required',
  durationNotNumber: 'Duration must be a number',
  durationTooSmall: 'Duration must be at least 1 month',
  durationTooLarge: 'Duration cannot exceed 600 months (50 years)',
  durationWhole: 'Duration must be a whole number',
  durationWholeMonths: 'Duration must be a whole number of months',
  durationPeriodInvalid: 'Duration period must be years (1) or months (0)',
  startDateRequired: 'Start date is required',
  startDateInvalid: 'Please enter a valid start date',
  startDateTooEarly: 'Start date cannot be before 2000-01-01',
  startDateTooLate: 'Start date cannot be after 2099-12-31',
  startDateInFuture: 'Start date cannot be in the future',
  endDateMismatch: 'End date must be the start date plus the duration',
  processingFeeNotNumber: 'Processing fee must be a number',
  processingFeeNegative: 'Processing fee cannot be negative',
  processingFeeTooLarge: 'Processing fee cannot exceed ₹10,00,000',
  processingFeeDecimals: 'Processing fee can have maximum 2 decimal places',
  hasGstInvalid: 'GST must be enabled (1) or disabled (0)',
  emisAutoDebitedInvalid: 'Auto-debit must be on (1) or off (0)',
  processingFeeGstInvalid: 'GST on the processing fee must be charged (1) or not (0)',
  gstRequired: 'GST percentage is required when GST is enabled',
  gstNotNumber: 'GST percentage must be a number',
  gstNegative: 'GST percentage cannot be negative',
  gstTooLarge: 'GST percentage cannot exceed 100',
  gstDecimals: 'GST percentage can have maximum 2 decimal places',
  gstTooPrecise: 'GST percentage can have at most 15 significant digits',
} as const;

/** Loan form values (or the API body under the domain's names) before validation: one per field. */
export type LoanInput = { [K in keyof LoanDetails]?: unknown };

/** `create` applies every rule; `edit` drops the decimals rules and the future-date rule (spec). */
export type LoanValidationMode = 'create' | 'edit';

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const decimalPlaces = (text: string): number => (text.split('.')[1] ?? '').replace(/0+$/, '').length;

/**
 * Edits have no decimals rule for the rate or GST, and the schedule uses the percentage exactly as
 * typed; past 15 significant digits a JSON number can no longer hold what was typed.
 */
const tooPrecise = (value: unknown): boolean =>
  (significantDigits(typeof value === 'string' ? value.trim() : (value as number)) ?? 0) >
  MAX_RATE_SIGNIFICANT_DIGITS;

/** 1/0, true/false (or their strings); `fallback` when absent; null when something else. */
function flag(value: unknown, fallback: boolean): boolean | null {
  if (isBlank(value)) return fallback;
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  return null;
}

function idError(value: unknown, required: string, invalid: string): string | null {
  if (isBlank(value)) return required;
  const text = decimalText(value);
  return text !== null && /^\d+$/.test(text) && Number(text) > 0 && Number(text) <= LOAN_LIMITS.idMax
    ? null
    : invalid;
}

function accountNumberError(value: unknown): string | null {
  if (isBlank(value) || typeof value !== 'string') return LOAN_MESSAGES.accountNumberRequired;
  const text = value.trim();
  if (text.length < LOAN_LIMITS.accountNumberMin) return LOAN_MESSAGES.accountNumberTooShort;
  if (text.length > LOAN_LIMITS.accountNumberMax) return LOAN_MESSAGES.accountNumberTooLong;
  return /^[A-Za-z0-9]+$/.test(text) ? null : LOAN_MESSAGES.accountNumberCharacters;
}

function shortDetailError(value: unknown): string | null {
  if (isBlank(value)) return null;
  if (typeof value !== 'string') return LOAN_MESSAGES.shortDetailTooLong;
  return [...value.trim()].length > LOAN_LIMITS.shortDetailMax ? LOAN_MESSAGES.shortDetailTooLong : null;
}

function principalError(value: unknown): string | null {
  if (isBlank(value)) return LOAN_MESSAGES.principalRequired;
  const text = decimalText(value);
  if (text === null) return LOAN_MESSAGES.principalNotNumber;
  if (Number(text) < 100) return LOAN_MESSAGES.principalTooSmall;
  if (Number(text) > 100_000_000) return LOAN_MESSAGES.principalTooLarge;
  return decimalPlaces(text) > 2 ? LOAN_MESSAGES.principalDecimals : null;
}

function interestRateError(value: unknown, mode: LoanValidationMode): string | null {
  if (isBlank(value)) return LOAN_MESSAGES.interestRateRequired;
  const text = decimalText(value);
  if (text === null) return LOAN_MESSAGES.interestRateNotNumber;
  if (Number(text) < LOAN_LIMITS.interestRateMin) return LOAN_MESSAGES.interestRateTooSmall;
  if (Number(text) > LOAN_LIMITS.interestRateMax) return LOAN_MESSAGES.interestRateTooLarge;
  if (mode === 'create' && decimalPlaces(text) > 3) return LOAN_MESSAGES.interestRateDecimals;
  return tooPrecise(value) ? LOAN_MESSAGES.interestRateTooPrecise : null;
}

function durationError(value: unknown, yearly: boolean, mode: LoanValidationMode): string | null {
  if (isBlank(value)) return LOAN_MESSAGES.durationRequired;
  const text = decimalText(value);
  if (text === null) return LOAN_MESSAGES.durationNotNumber;
  const duration = Number(text);
  if (mode === 'edit' && !Number.isInteger(duration)) return LOAN_MESSAGES.durationWhole;
  const months = durationInMonths(duration, yearly);
  if (months < 1) return LOAN_MESSAGES.durationTooSmall;
  if (months > LOAN_LIMITS.durationMonthsMax) return LOAN_MESSAGES.durationTooLarge;
  // Months must be whole for a monthly schedule (1.5 years is 18 months; 2.5 months is not a term).
  return Number.isInteger(Math.round(months * 1e9) / 1e9) ? null : LOAN_MESSAGES.durationWholeMonths;
}

function startDateError(value: unknown, today: string, mode: LoanValidationMode): string | null {
  if (isBlank(value)) return LOAN_MESSAGES.startDateRequired;
  if (typeof value !== 'string' || !isIsoDate(value)) return LOAN_MESSAGES.startDateInvalid;
  if (value < LOAN_LIMITS.startDateFloor) return LOAN_MESSAGES.startDateTooEarly;
  if (value > LOAN_LIMITS.startDateCeiling) return LOAN_MESSAGES.startDateTooLate;
  return mode === 'create' && value > today ? LOAN_MESSAGES.startDateInFuture : null;
}

function processingFeeError(value: unknown): string | null {
  if (isBlank(value)) return null;
  const text = decimalText(value);
  if (text === null) return LOAN_MESSAGES.processingFeeNotNumber;
  if (Number(text) < 0) return LOAN_MESSAGES.processingFeeNegative;
  if (Number(text) > 1_000_000) return LOAN_MESSAGES.processingFeeTooLarge;
  return decimalPlaces(text) > 2 ? LOAN_MESSAGES.processingFeeDecimals : null;
}

function gstError(value: unknown, hasGst: boolean, mode: LoanValidationMode): string | null {
  if (!hasGst) return null;
  if (isBlank(value)) return LOAN_MESSAGES.gstRequired;
  const text = decimalText(value);
  if (text === null) return LOAN_MESSAGES.gstNotNumber;
  if (Number(text) < 0) return LOAN_MESSAGES.gstNegative;
  if (Number(text) > LOAN_LIMITS.gstMax) return LOAN_MESSAGES.gstTooLarge;
  if (mode === 'create' && decimalPlaces(text) > 2) return LOAN_MESSAGES.gstDecimals;
  return tooPrecise(value) ? LOAN_MESSAGES.gstTooPrecise : null;
}

/** Whole months of a valid duration (1.5 years -> 18). */
function monthsOf(duration: unknown, yearly: boolean): number {
  return Math.round(durationInMonths(Number(decimalText(duration)), yearly));
}

/**
 * Every failing field with its first message, in form order; empty when valid. `today` is the
 * caller's business date (YYYY-MM-DD): the domain has no clock. A sent `endDate` must equal the
 * start date plus the duration.
 */
export function validateLoan(input: LoanInput, mode: LoanValidationMode, today: string): FieldError[] {
  const rateYearly = flag(input.isInterestRateYearly, true);
  const durationYearly = flag(input.isDurationYearly, true);
  const hasGst = flag(input.hasGst, false);
  const durationMessage =
    durationYearly === null
      ? LOAN_MESSAGES.durationPeriodInvalid
      : durationError(input.duration, durationYearly, mode);
  const startMessage = startDateError(input.startDate, today, mode);
  let endMessage: string | null = null;
  if (
    !isBlank(input.endDate) &&
    durationMessage === null &&
    startMessage === null &&
    durationYearly !== null
  ) {
    const expected = loanEndDate(input.startDate as string, monthsOf(input.duration, durationYearly), false);
    if (input.endDate !== expected) endMessage = LOAN_MESSAGES.endDateMismatch;
  }
  // One check per declared field (the compiler points here when a field is added), in form order.
  const checks: Record<keyof LoanInput, string | null> = {
    bankId: idError(input.bankId, LOAN_MESSAGES.bankRequired, LOAN_MESSAGES.bankInvalid),
    loanTypeId: idError(input.loanTypeId, LOAN_MESSAGES.loanTypeRequired, LOAN_MESSAGES.loanTypeInvalid),
    accountNumber: accountNumberError(input.accountNumber),
    shortDetail: shortDetailError(input.shortDetail),
    principalAmount: principalError(input.principalAmount),
    interestRate: interestRateError(input.interestRate, mode),
    isInterestRateYearly: rateYearly === null ? LOAN_MESSAGES.interestRatePeriodInvalid : null,
    duration: durationMessage,
    // A bad period is reported on the duration.
    isDurationYearly: null,
    startDate: startMessage,
    endDate: endMessage,
    processingFee: processingFeeError(input.processingFee),
    hasGst: hasGst === null ? LOAN_MESSAGES.hasGstInvalid : null,
    gstPercentage: gstError(input.gstPercentage, hasGst === true, mode),
    emisAutoDebited: flag(input.emisAutoDebited, true) === null ? LOAN_MESSAGES.emisAutoDebitedInvalid : null,
    processingFeeGst:
      flag(input.processingFeeGst, true) === null ? LOAN_MESSAGES.processingFeeGstInvalid : null,
  };
  return Object.entries(checks).flatMap(([field, message]) => (message ? [{ field, message }] : []));
}

/** Loan details without the dates the domain derives (end date). */
export type LoanFields = Omit<LoanDetails, 'endDate'>;

/**
 * The validated values: trimmed text, money in paise, flags as booleans, a duration entered in
 * years kept in years when whole, else converted to months; GST 0 when it is off.
 */
export function parseLoan(
  input: LoanInput,
  mode: LoanValidationMode,
  today: string,
): { ok: true; value: LoanFields } | { ok: false; errors: FieldError[] } {
  const errors = validateLoan(input, mode, today);
  if (errors.length > 0) return { ok: false, errors };
  const hasGst = flag(input.hasGst, false) === true;
  let isDurationYearly = flag(input.isDurationYearly, true) === true;
  let duration = Number(decimalText(input.duration));
  if (isDurationYearly && !Number.isInteger(duration)) {
    duration = monthsOf(duration, true);
    isDurationYearly = false;
  }
  const detail = isBlank(input.shortDetail) ? null : (input.shortDetail as string).trim();
  const fee: Paise = isBlank(input.processingFee) ? 0 : toPaise(decimalText(input.processingFee) as string);
  return {
    ok: true,
    value: {
      bankId: Number(decimalText(input.bankId)),
      loanTypeId: Number(decimalText(input.loanTypeId)),
      accountNumber: (input.accountNumber as string).trim(),
      shortDetail: detail,
      principalAmount: toPaise(decimalText(input.principalAmount) as string),
      interestRate: Number(decimalText(input.interestRate)),
      isInterestRateYearly: flag(input.isInterestRateYearly, true) === true,
      duration,
      isDurationYearly,
      startDate: input.startDate as string,
      processingFee: fee,
      hasGst,
      gstPercentage: hasGst ? Number(decimalText(input.gstPercentage)) : 0,
      emisAutoDebited: flag(input.emisAutoDebited, true) === true,
      processingFeeGst: flag(input.processingFeeGst, true) === true,
    },
  };
}
