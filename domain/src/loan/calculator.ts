import { roundRupees } from '../money/paise';

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

function numeric(value: unknown): number {
  if (typeof value === 'string' && value.trim() === '') return 0;
  const n = typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : 0;
}

/**
 * The loan calculator of spec section 5, used for previews: months = duration × 12 when
 * yearly; annual rate = rate × 12 when monthly; EMI by the standard formula at annual ÷ 1200
 * (principal ÷ months at rate 0); total interest = EMI × months − principal; GST = total
 * interest × GST% ÷ 100 when GST is on; total = principal + interest + GST. Results are rounded
 * to two decimals only at the end, as the spec writes it.
 */
export function calculateLoan(input: LoanCalculatorInput): LoanCalculatorResult {
  const principal = numeric(input.principalAmount);
  const duration = numeric(input.duration);
  const months = input.isDurationYearly ? duration * 12 : duration;
  if (principal === 0 || months === 0)
    return { months: 0, emi: 0, totalInterest: 0, gst: 0, totalAmount: 0, firstGst: 0, firstOutflow: 0 };
  const rate = numeric(input.interestRate);
  const annualRate = input.isInterestRateYearly ? rate : rate * 12;
  const monthlyRate = annualRate / 1200;
  const emi =
    monthlyRate === 0
      ? principal / months
      : (principal * monthlyRate * (1 + monthlyRate) ** months) / ((1 + monthlyRate) ** months - 1);
  const totalInterest = emi * months - principal;
  const gstRate = input.hasGst ? numeric(input.gstPercentage) / 100 : 0;
  const gst = totalInterest * gstRate;
  // The schedule rounds the first month's interest to the paisa before taking GST of it.
  const firstGst = roundRupees(roundRupees(principal * monthlyRate) * gstRate);
  return {
    months,
    emi: roundRupees(emi),
    totalInterest: roundRupees(totalInterest),
    gst: roundRupees(gst),
    totalAmount: roundRupees(principal + totalInterest + gst),
    firstGst,
    firstOutflow: roundRupees(roundRupees(emi) + firstGst),
  };
}
