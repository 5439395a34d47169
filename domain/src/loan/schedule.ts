import type { Paise } from '../money/paise';
import { actualSchedule } from './actual-schedule';
import type { ScheduleRow, ScheduleTerms, ScheduleTotals } from './events';
import { annualRateRatio, ratioToNumber } from './rate';

/** The annual rate of the terms as a number to show (a monthly rate × 12, exact for every rate as entered). */
export function annualRatePercent(
  terms: Pick<ScheduleTerms, 'interestRate' | 'isInterestRateYearly'>,
): number {
  return ratioToNumber(annualRateRatio(terms.interestRate, terms.isInterestRateYearly));
}

export type Schedule = Readonly<{ rows: ScheduleRow[]; totals: ScheduleTotals }>;

/**
 * The contract's monthly reducing-balance schedule: the actual schedule without changes, so the
 * schedule shown and the one every change is checked against are one and the same (an EMI rounded
 * down to the first month's interest carries a paisa more in both, and a loan its rounded-up EMI
 * repays early ends on its last real instalment). Payment n falls n months after the start date.
 */
export function generateSchedule(terms: ScheduleTerms): Schedule {
  const { rows, totals } = actualSchedule(terms, []);
  return {
    rows: rows.map((row) => ({
      paymentNumber: row.paymentNumber,
      emiDate: row.date,
      principal: row.principal,
      interest: row.interest,
      gst: row.gst,
      emi: row.amount,
      remainingPrincipal: row.remainingPrincipal,
    })),
    totals: {
      principal: totals.principal,
      interest: totals.interest,
      gst: totals.gst,
      emi: totals.amount,
      numberOfPayments: totals.numberOfEmis,
    },
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
