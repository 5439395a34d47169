import {
  decimalText,
  type FieldError,
  isIsoDate,
  LOAN_CHANGE_MESSAGES as M,
  MAX_RATE_SIGNIFICANT_DIGITS,
  type Paise,
  type PrepaymentChoice,
  type RateChangeOption,
  significantDigits,
  toPaise,
  ValidationError,
} from '@kosh/domain';

/** Messages of the wire's own rules (the domain's are in LOAN_CHANGE_MESSAGES). */
export const CHANGE_INPUT_MESSAGES = {
  choiceInvalid: 'Choose reduce-emi or reduce-tenure',
  optionInvalid: 'Choose increase-emi, extend-tenure, combination or switch-to-fixed',
  rateRequired: 'Enter the new annual interest rate',
  transactionInvalid: 'Choose a debit from your transaction book',
  transactionMatched: 'This debit is already matched to an EMI',
  paymentNumberInvalid: 'EMI number must be a whole number from 1',
  confirmInvalid: 'Confirm must be true or false',
} as const;

/** Field errors collected over a whole body, so a 422 names every bad field at once. */
class Fields {
  readonly errors: FieldError[] = [];
  constructor(private readonly body: Record<string, unknown>) {}

  fail(field: string, message: string): undefined {
    this.errors.push({ field, message });
    return undefined;
  }

  date(field: string): string | undefined {
    const value = this.body[field];
    return typeof value === 'string' && isIsoDate(value) ? value : this.fail(field, M.dateInvalid);
  }

  /** Rupees with at most 2 decimals to paise, at least `min` paise; absent → `fallback`. */
  rupees(field: string, min: number, message: string, fallback?: Paise): Paise | undefined {
    const value = this.body[field];
    if ((value === undefined || value === null || value === '') && fallback !== undefined) return fallback;
    const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
    if (!/^\d+(\.\d{1,2})?$/.test(text)) return this.fail(field, message);
    const paise = toPaise(text);
    return Number.isSafeInteger(paise) && paise >= min ? paise : this.fail(field, message);
  }

  oneOf<T extends string>(field: string, allowed: readonly T[], message: string): T | undefined {
    const value = this.body[field];
    return allowed.includes(value as T) ? (value as T) : this.fail(field, message);
  }

  present(field: string): boolean {
    const value = this.body[field];
    return value !== undefined && value !== null && value !== '';
  }

  /** Throws the 422 when any field failed; else the parsed values, all defined. */
  done<T extends Record<string, unknown>>(values: T): { [K in keyof T]: Exclude<T[K], undefined> } {
    if (this.errors.length > 0) throw new ValidationError(this.errors);
    return values as { [K in keyof T]: Exclude<T[K], undefined> };
  }
}

const CHOICES: readonly PrepaymentChoice[] = ['reduce-emi', 'reduce-tenure'];
const OPTIONS: readonly RateChangeOption[] = [
  'increase-emi',
  'extend-tenure',
  'combination',
  'switch-to-fixed',
];

/** `{ date, amount, charge? }` of a prepayment (and of its what-if). */
export function parsePrepaymentAmounts(body: Record<string, unknown>, f = new Fields(body)) {
  return f.done({
    date: f.date('date'),
    amount: f.rupees('amount', 1, M.amountInvalid),
    charge: f.rupees('charge', 0, M.chargeInvalid, 0),
  });
}

export function parsePrepayment(body: Record<string, unknown>) {
  const f = new Fields(body);
  const choice = f.oneOf('choice', CHOICES, CHANGE_INPUT_MESSAGES.choiceInvalid);
  return { ...parsePrepaymentAmounts(body, f), choice: choice as PrepaymentChoice };
}

export function parseForeclosure(body: Record<string, unknown>) {
  const f = new Fields(body);
  return f.done({ date: f.date('date'), charge: f.rupees('charge', 0, M.chargeInvalid, 0) });
}

export function parseRateChange(body: Record<string, unknown>) {
  const f = new Fields(body);
  const date = f.date('date');
  const rate = body.annual_rate_percent;
  const rateText = decimalText(rate);
  const blank = !f.present('annual_rate_percent') || (typeof rate === 'string' && rate.trim() === '');
  const annualRatePercent = blank
    ? f.fail('annual_rate_percent', CHANGE_INPUT_MESSAGES.rateRequired)
    : rateText === null
      ? f.fail('annual_rate_percent', M.rateInvalid)
      : Number(rateText);
  // The schedule uses the rate exactly as typed: only digits a JSON number can hold.
  if (rateText !== null && (significantDigits(rateText) ?? 0) > MAX_RATE_SIGNIFICANT_DIGITS)
    f.fail('annual_rate_percent', M.rateTooPrecise);
  const option = f.oneOf('option', OPTIONS, CHANGE_INPUT_MESSAGES.optionInvalid);
  const newEmi =
    option !== 'combination'
      ? null
      : f.present('new_emi')
        ? f.rupees('new_emi', 1, M.emiInvalid)
        : f.fail('new_emi', M.newEmiRequired);
  return f.done({ date, annualRatePercent, option, newEmi });
}

export function parseEmiOverride(body: Record<string, unknown>) {
  const f = new Fields(body);
  return f.done({ date: f.date('date'), emi: f.rupees('emi', 1, M.emiInvalid) });
}

/**
 * `{ paid_on?, amount?, transaction_id? }`: the date and amount default to the matched debit's,
 * else the amount to the EMI's.
 */
export function parseEmiPayment(
  body: Record<string, unknown>,
  defaults: Readonly<{ paidOn?: string; amount?: Paise }>,
) {
  const f = new Fields(body);
  const paidOn = f.present('paid_on') || defaults.paidOn === undefined ? f.date('paid_on') : defaults.paidOn;
  const confirm = [undefined, null, false, 'false', 0, '0'].includes(body.confirm as never)
    ? false
    : [true, 'true', 1, '1'].includes(body.confirm as never)
      ? true
      : f.fail('confirm', CHANGE_INPUT_MESSAGES.confirmInvalid);
  // Absent and no debit to take it from: null, the EMI's own amount (the decider knows it).
  const amount =
    f.present('amount') || defaults.amount !== undefined
      ? f.rupees('amount', 1, M.amountInvalid, defaults.amount)
      : null;
  return f.done({ paidOn, amount, confirm });
}

/** `{ up_to }` of marking every EMI up to a date paid. */
export function parsePaidUpTo(body: Record<string, unknown>) {
  const f = new Fields(body);
  return f.done({ upTo: f.date('up_to') });
}

/** `{ date, amount }` of a pre-EMI interest payment. */
export function parsePreEmiInterest(body: Record<string, unknown>) {
  const f = new Fields(body);
  return f.done({ date: f.date('date'), amount: f.rupees('amount', 1, M.amountInvalid) });
}

/** `{ date }` of construction's completion. */
export function parseConstructionCompleted(body: Record<string, unknown>) {
  const f = new Fields(body);
  return f.done({ date: f.date('date') });
}

/** `?date=&charge=` of a foreclosure quote: the date defaults to `today`, the charge to 0. */
export function parseForeclosureQuote(query: Record<string, unknown>, today: string) {
  return parseForeclosure({ date: query.date ?? today, charge: query.charge });
}

/** The EMI number of the path: a whole number from 1. */
export function parsePaymentNumber(text: string): number {
  const n = /^\d{1,4}$/.test(text) ? Number(text) : 0;
  if (n < 1)
    throw new ValidationError([
      { field: 'payment_number', message: CHANGE_INPUT_MESSAGES.paymentNumberInvalid },
    ]);
  return n;
}
