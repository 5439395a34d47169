import { divideRounded, fromPaise } from '../money/paise';
import { LOAN_LIMITS } from '../validation/loan-limits';
import { decimalRatio, type Ratio, ratio } from './rate';

/** Form values as typed: numbers, numeric strings, or anything else (counted as 0). */
export type LoanCalculatorInput = Readonly<{
  principalAmount: unknown;
  interestRate: unknown;
  duration: unknown;
  isDurationYearly: boolean;
  isInterestRateYearly: boolean;
  hasGst: boolean;
  gstPercentage: unknown;
}>;

/** Rupee amounts rounded to two decimals. */
export type LoanCalculatorResult = Readonly<{
  months: number;
  emi: number;
  totalInterest: number;
  gst: number;
  totalAmount: number;
  /** GST on the first EMI: the first month's interest (principal × monthly rate) × GST%. */
  firstGst: number;
  /** What leaves the account in the first month: the EMI plus the GST on it. */
  firstOutflow: number;
}>;

const ZERO_RESULT: LoanCalculatorResult = {
  months: 0,
  emi: 0,
  totalInterest: 0,
  gst: 0,
  totalAmount: 0,
  firstGst: 0,
  firstOutflow: 0,
};
const ZERO: Ratio = { numerator: 0n, denominator: 1n };

/** The exact value of what was typed (a number, or text such as "12.5"); 0 for anything else. */
function numeric(value: unknown): Ratio {
  return (typeof value === 'number' || typeof value === 'string' ? decimalRatio(value) : null) ?? ZERO;
}

// Fractions are left unreduced: with a rate of 15 digits over 600 months their terms run to
// thousands of digits, where a gcd per step costs seconds; the value, and every rounding, is the same.
const fraction = (numerator: bigint, denominator: bigint): Ratio => ({ numerator, denominator });
const times = (a: Ratio, b: Ratio): Ratio =>
  fraction(a.numerator * b.numerator, a.denominator * b.denominator);
const plus = (a: Ratio, b: Ratio): Ratio =>
  fraction(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator);
const whole = (n: bigint): Ratio => fraction(n, 1n);
/** Rupees to paise, rounded half away from zero (the spec's two decimals). */
const paise = (rupees: Ratio): bigint => divideRounded(rupees.numerator * 100n, rupees.denominator);
const rounded = (rupees: Ratio): number => fromPaise(Number(paise(rupees)));

/**
 * The loan calculator of spec section 5, used for previews: months = duration × 12 when
 * yearly; annual rate = rate × 12 when monthly; EMI by the standard formula at annual ÷ 1200
 * (principal ÷ months at rate 0); total interest = EMI × months − principal; GST = total
 * interest × GST% ÷ 100 when GST is on; total = principal + interest + GST. Every figure is
 * computed exactly, as fractions of what was typed, and rounded to two decimals (half away from
 * zero) only at the end, as the spec writes it. A tenure that is not a whole number of months
 * from 1 to 600, or a negative figure, is not a loan the form accepts: everything is 0.
 */
export function calculateLoan(input: LoanCalculatorInput): LoanCalculatorResult {
  const principal = numeric(input.principalAmount);
  const duration = numeric(input.duration);
  const monthsRatio = input.isDurationYearly
    ? ratio(duration.numerator * 12n, duration.denominator)
    : duration;
  const rate = numeric(input.interestRate);
  const gstPercent = input.hasGst ? numeric(input.gstPercentage) : ZERO;
  if (
    principal.numerator <= 0n ||
    monthsRatio.denominator !== 1n ||
    monthsRatio.numerator < 1n ||
    monthsRatio.numerator > BigInt(LOAN_LIMITS.durationMonthsMax) ||
    rate.numerator < 0n ||
    gstPercent.numerator < 0n
  )
    return ZERO_RESULT;
  const months = monthsRatio.numerator;
  const annual = input.isInterestRateYearly ? rate : times(rate, whole(12n));
  // In lowest terms once, so the powers below are of the smallest integers.
  const monthly = ratio(annual.numerator, annual.denominator * 1200n);
  const n = monthly.numerator;
  const d = monthly.denominator;
  const growth = (d + n) ** months;
  const emi =
    n === 0n
      ? times(principal, fraction(1n, months))
      : times(principal, fraction(n * growth, d * (growth - d ** months)));
  const totalInterest = plus(times(emi, whole(months)), times(principal, whole(-1n)));
  const gstShare = times(gstPercent, fraction(1n, 100n));
  const gst = times(totalInterest, gstShare);
  // The schedule rounds the first month's interest to the paisa before taking GST of it.
  const firstInterest = fraction(paise(times(principal, monthly)), 100n);
  const firstGst = fraction(paise(times(firstInterest, gstShare)), 100n);
  return {
    months: Number(months),
    emi: rounded(emi),
    totalInterest: rounded(totalInterest),
    gst: rounded(gst),
    totalAmount: rounded(plus(plus(principal, totalInterest), gst)),
    firstGst: rounded(firstGst),
    firstOutflow: rounded(plus(fraction(paise(emi), 100n), firstGst)),
  };
}
