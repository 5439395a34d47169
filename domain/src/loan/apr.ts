import { divideRounded, type Paise } from '../money/paise';
import { actualSchedule, type LoanChange } from './actual-schedule';
import { addMonths, daysBetween } from './dates';
import type { LoanDetails } from './events';
import { percentRatio } from './rate';
import { generateSchedule } from './schedule';
import { scheduleTermsOf } from './state';

/**
 * GST on a lender's processing fee: financial services are taxed at 18%, and the RBI's Key Facts
 * Statement shows fees net of GST, so the borrower pays the fee plus this.
 */
export const PROCESSING_FEE_GST_PERCENT = 18;

export type AprInput = Readonly<{
  principal: Paise;
  /** Net of GST, as the Key Facts Statement shows it. */
  processingFee: Paise;
  feeGstPercent: number;
  /** What the borrower pays each month from one month after disbursal, GST on interest included. */
  instalments: readonly Paise[];
}>;

/** A payment `months` after disbursal (fractional between two EMI dates). */
type TimedPayment = Readonly<{ months: number; amount: Paise }>;

/** Present value, at a monthly rate, of the payments. */
function presentValue(payments: readonly TimedPayment[], monthlyRate: number): number {
  let value = 0;
  for (const { months, amount } of payments) value += amount / (1 + monthlyRate) ** months;
  return value;
}

/**
 * The annual percentage rate of the RBI's Key Facts Statement (circular of 15 April 2024): the
 * internal rate of return of what the borrower actually receives (the principal less the fee and
 * its GST) against what they pay back. The monthly IRR is found by bisection (the present value
 * falls as the rate rises, so it always converges) and annualised ×12, not compounded: the KFS's
 * own interest rate is the nominal monthly rate ×12, and published KFS figures are computed so
 * (RBL Bank's KFS below shows 24.16% where compounding would give 27.02%), so with no fee the
 * APR equals the loan's rate. Percent, two decimals. A rate is not a money amount, so a
 * float is fine here; the amounts themselves are paise.
 */
export function annualPercentageRate(input: AprInput): number {
  return irrApr(
    input,
    input.instalments.map((amount, i) => ({ months: i + 1, amount })),
  );
}

function irrApr(input: Omit<AprInput, 'instalments'>, payments: readonly TimedPayment[]): number {
  const feeGst = percentRatio(input.feeGstPercent);
  const gst = divideRounded(BigInt(input.processingFee) * feeGst.numerator, feeGst.denominator * 100n);
  const received = input.principal - input.processingFee - Number(gst);
  if (received <= 0) throw new RangeError('The fee and its GST take the whole principal');
  let low = -0.99;
  let high = 1;
  if (presentValue(payments, high) > received) throw new RangeError('APR above 1200%');
  for (let step = 0; step < 200 && high - low > 1e-15; step++) {
    const middle = (low + high) / 2;
    if (presentValue(payments, middle) > received) low = middle;
    else high = middle;
  }
  return Math.round(((low + high) / 2) * 1200 * 100) / 100;
}

/** GST on the loan's processing fee: 18% when the lender charges it on top, else none. */
export const feeGstPercentOf = (details: Pick<LoanDetails, 'processingFeeGst'>): number =>
  details.processingFeeGst ? PROCESSING_FEE_GST_PERCENT : 0;

/** The APR of a loan as contracted: its schedule's EMIs (with GST on interest) and its fee (with its GST when charged). */
export function loanApr(details: LoanDetails, feeGstPercent = feeGstPercentOf(details)): number {
  const { rows } = generateSchedule(scheduleTermsOf(details));
  return annualPercentageRate({
    principal: details.principalAmount,
    processingFee: details.processingFee,
    feeGstPercent,
    instalments: rows.map((row) => row.emi),
  });
}

/**
 * Months from `start` to `date` on the EMI calendar: whole months to the last monthiversary on or
 * before it, plus the share of days into the next. EMIs fall on whole months, so a loan without
 * changes gets exactly the contract's APR.
 */
function monthsAfter(start: string, date: string): number {
  let whole = Math.max(0, Math.floor(daysBetween(start, date) / 31));
  while (addMonths(start, whole + 1) <= date) whole++;
  const from = addMonths(start, whole);
  return whole + daysBetween(from, date) / daysBetween(from, addMonths(start, whole + 1));
}

/**
 * The APR of what the borrower actually pays: the same IRR over the loan's actual schedule, every
 * EMI, part-payment (with its charge), pre-EMI interest and foreclosure at its own date, against
 * what they received. After a part-payment or a reset it differs from the contract's APR: charges
 * and the fee weigh more on a loan repaid sooner.
 */
export function actualLoanApr(
  details: LoanDetails,
  changes: readonly LoanChange[],
  feeGstPercent = feeGstPercentOf(details),
): number {
  const { rows } = actualSchedule(scheduleTermsOf(details), changes);
  return paymentsApr(
    { principal: details.principalAmount, processingFee: details.processingFee, feeGstPercent },
    details.startDate,
    rows,
  );
}

/** The APR of dated payments (a schedule's rows) made on a loan disbursed on `startDate`. */
export function paymentsApr(
  loan: Omit<AprInput, 'instalments'>,
  startDate: string,
  payments: readonly Readonly<{ date: string; amount: Paise }>[],
): number {
  return irrApr(
    loan,
    payments.map((payment) => ({ months: monthsAfter(startDate, payment.date), amount: payment.amount })),
  );
}
