import { toCamelKey } from '@kosh/contract';
import {
  durationInMonths,
  type FieldKind,
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

/** The fields the form holds: every declared one but the end date (worked out from the start and the duration). */
type FormKey = Exclude<keyof LoanDetails, 'endDate'>;
type Spec<K extends keyof LoanDetails> = (typeof LOAN_FIELDS)[K];

/** The flags the form asks as a choice of two (radio buttons, '1' or '0'); the other flags are switches. */
const CHOICE_FLAGS = ['isInterestRateYearly', 'isDurationYearly'] as const;
type ChoiceFlag = (typeof CHOICE_FLAGS)[number];
const isChoice = (key: string): boolean => (CHOICE_FLAGS as readonly string[]).includes(key);

/**
 * The loan form as typed, one value per declared field (`LOAN_FIELDS`), by kind: numbers stay
 * text so partial input survives, a flag is a switch (boolean) or a choice ('1' | '0').
 */
export type LoanFormValues = {
  [K in FormKey]: K extends ChoiceFlag ? '1' | '0' : Spec<K>['kind'] extends 'flag' ? boolean : string;
};

const FORM_KEYS = fieldKeys(LOAN_FIELDS).filter((key): key is FormKey => key !== 'endDate');

/** The kinds typed as numbers: the validators and the API read them through `amountText`. */
const NUMBER_KINDS: readonly FieldKind[] = ['int', 'number', 'money'];

/** The names a 422 may name, one per declared field (`LOAN_FIELDS`). */
export const LOAN_FIELD_NAMES: readonly string[] = fieldKeys(LOAN_FIELDS);

/** A field's blank value: empty text, a switch off, a choice of '1'. */
function blank(key: FormKey): LoanFormValues[FormKey] {
  if (isChoice(key)) return '1';
  return LOAN_FIELDS[key].kind === 'flag' ? false : '';
}

/**
 * Spec section 9 defaults: rate and duration yearly, no processing fee, GST off (18% when on);
 * EMIs auto-debited and the fee charged with GST, as most lenders do. Any other field starts blank.
 */
export const NEW_LOAN: LoanFormValues = {
  ...(Object.fromEntries(FORM_KEYS.map((key) => [key, blank(key)])) as LoanFormValues),
  processingFee: '0',
  gstPercentage: String(LOAN_LIMITS.defaultGstPercentage),
  emisAutoDebited: true,
  processingFeeGst: true,
};

/** A field of the loan as the screens read it (camelCase of its wire name). */
const loanValue = (loan: Loan, key: FormKey): unknown =>
  (loan as unknown as Readonly<Record<string, unknown>>)[toCamelKey(LOAN_FIELDS[key].wire)];

/** A stored value as the form types it, by the field's kind. */
function typedValue(key: FormKey, value: unknown): LoanFormValues[FormKey] {
  const kind = LOAN_FIELDS[key].kind;
  if (kind === 'flag') return isChoice(key) ? (Number(value) ? '1' : '0') : Boolean(Number(value));
  if (value === null || value === undefined) return '';
  if (kind === 'date') return String(value).slice(0, 10);
  return kind === 'id' || NUMBER_KINDS.includes(kind) ? String(Number(value)) : String(value);
}

export function valuesOf(loan: Loan): LoanFormValues {
  const values = Object.fromEntries(
    FORM_KEYS.map((key) => [key, typedValue(key, loanValue(loan, key))]),
  ) as LoanFormValues;
  // GST's percentage, when GST is off, shows the default the switch would turn on with.
  if (!values.hasGst) values.gstPercentage = String(LOAN_LIMITS.defaultGstPercentage);
  return values;
}

/**
 * The number fields as the validators and the API read them: "₹ 1,00,000" is 100000, a cleared
 * field is "" (see amountText).
 */
export function readNumbers(values: LoanFormValues): LoanFormValues {
  const read = { ...values } as Record<FormKey, unknown>;
  for (const key of FORM_KEYS) {
    if (NUMBER_KINDS.includes(LOAN_FIELDS[key].kind)) read[key] = amountText(values[key] as string);
  }
  return read as LoanFormValues;
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

/** A typed value as the API takes it, by the field's kind: numbers as numbers, flags as 1/0, text trimmed. */
function bodyValue(key: FormKey, value: LoanFormValues[FormKey]): unknown {
  const kind = LOAN_FIELDS[key].kind;
  if (kind === 'flag') return value === true || value === '1' ? 1 : 0;
  if (kind === 'id' || NUMBER_KINDS.includes(kind)) return Number(value);
  return kind === 'text' ? String(value).trim() : value;
}

/** The loan request payload; call only with values that passed validation. */
export function toLoanBody(typed: LoanFormValues): LoanBody {
  const values = readNumbers(typed);
  const body = Object.fromEntries(
    FORM_KEYS.map((key) => [toCamelKey(LOAN_FIELDS[key].wire), bodyValue(key, values[key])]),
  ) as LoanBody;
  return {
    ...body,
    endDate: endDateOf(values) ?? values.startDate,
    gstPercentage: values.hasGst ? Number(values.gstPercentage) : 0,
  };
}
