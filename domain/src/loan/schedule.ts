import { divideRounded, type Paise } from '../money/paise';
import { addMonths, durationInMonths } from './dates';
import type { ScheduleRow, ScheduleTerms, ScheduleTotals } from './events';

/** Percentages are carried as integers of millionths of a percent so rounding is exact. */
const MICRO = 1_000_000;

function toMicroPercent(percent: number): bigint {
  return BigInt(Math.round(percent * MICRO));
}

/** Annual percentage rate of the terms (a monthly rate times 12). */
export function annualRatePercent(
  terms: Pick<ScheduleTerms, 'interestRate' | 'isInterestRateYearly'>,
): number {
  return terms.isInterestRateYearly ? terms.interestRate : terms.interestRate * 12;
}

/**
 * The level instalment (principal + interest, before GST) by the standard formula
 * P·r·(1+r)^n / ((1+r)^n − 1) with r = annual ÷ 1200, rounded to the paisa; P ÷ n at rate 0.
 */
export function levelEmi(principal: Paise, annualPercent: number, months: number): Paise {
  if (months <= 0) return 0;
  const r = annualPercent / 1200;
  if (r === 0) return Math.round(principal / months);
  const growth = (1 + r) ** months;
  return Math.round((principal * r * growth) / (growth - 1));
}

export type Schedule = Readonly<{ rows: ScheduleRow[]; totals: ScheduleTotals }>;

/**
 * Monthly reducing-balance schedule. Each month's interest is the outstanding balance times the
 * monthly rate, rounded to the paisa; the principal part is the EMI less that interest; the last
 * instalment takes whatever balance remains, so the balance ends at exactly 0 and the principal
 * parts add up to the principal. GST (when on) is each row's interest × GST% ÷ 100, rounded.
 * Payment n falls n months after the start date.
 */
export function generateSchedule(terms: ScheduleTerms): Schedule {
  const months = durationInMonths(terms.duration, terms.isDurationYearly);
  if (!Number.isInteger(months) || months < 1)
    throw new RangeError(`Not a whole number of months: ${months}`);
  const annualMicro = toMicroPercent(annualRatePercent(terms));
  const gstMicro = terms.hasGst ? toMicroPercent(terms.gstPercentage) : 0n;
  const emi = BigInt(levelEmi(terms.principalAmount, Number(annualMicro) / MICRO, months));
  const interestDivisor = BigInt(1200 * MICRO);
  const gstDivisor = BigInt(100 * MICRO);

  const rows: ScheduleRow[] = [];
  let balance = BigInt(terms.principalAmount);
  const totals = { principal: 0n, interest: 0n, gst: 0n };
  for (let paymentNumber = 1; paymentNumber <= months; paymentNumber++) {
    const interest = divideRounded(balance * annualMicro, interestDivisor);
    let principal = paymentNumber === months ? balance : emi - interest;
    if (principal > balance) principal = balance;
    if (principal < 0n) principal = 0n;
    const gst = divideRounded(interest * gstMicro, gstDivisor);
    balance -= principal;
    totals.principal += principal;
    totals.interest += interest;
    totals.gst += gst;
    rows.push({
      paymentNumber,
      emiDate: addMonths(terms.startDate, paymentNumber),
      principal: Number(principal),
      interest: Number(interest),
      gst: Number(gst),
      emi: Number(principal + interest + gst),
      remainingPrincipal: Number(balance),
    });
  }
  const principal = Number(totals.principal);
  const interest = Number(totals.interest);
  const gst = Number(totals.gst);
  return {
    rows,
    totals: { principal, interest, gst, emi: principal + interest + gst, numberOfPayments: months },
  };
}

/**
 * Balance still owed on `date`: the remaining principal after the last instalment due on or
 * before it, or the full principal before the first.
 */
export function balanceOn(principal: Paise, rows: readonly ScheduleRow[], date: string): Paise {
  let balance = principal;
  for (const row of rows) {
    if (row.emiDate > date) break;
    balance = row.remainingPrincipal;
  }
  return balance;
}
