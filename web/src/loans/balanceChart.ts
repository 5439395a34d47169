import { generateSchedule, toPaise } from '@kosh/domain';
import type { BalanceStep, Loan, ScheduleRow } from './loansApi';

/**
 * One date of the chart: the principal still owed under the contract, as the loan went, and, while
 * a part-payment's what-if is shown, under each of its choices.
 */
export type BalancePoint = {
  date: string;
  contract: number | null;
  actual: number | null;
  reduceEmi?: number | null;
  reduceTenure?: number | null;
};

/** (date, balance after it) steps, from the disbursal. */
type Steps = readonly (readonly [string, number])[];

/** The contract's balances: the loan as created, without prepayments or resets (domain maths). */
export function contractSteps(loan: Loan): Steps {
  try {
    const start = loan.startDate.slice(0, 10);
    const { rows } = generateSchedule({
      principalAmount: toPaise(loan.principalAmount),
      interestRate: Number(loan.interestRate),
      isInterestRateYearly: Boolean(Number(loan.isInterestRateYearly)),
      duration: Number(loan.duration),
      isDurationYearly: Boolean(Number(loan.isDurationYearly)),
      startDate: start,
      hasGst: Boolean(Number(loan.hasGst)),
      gstPercentage: Number(loan.gstPercentage ?? 0),
    });
    return [
      [start, toPaise(loan.principalAmount)],
      ...rows.map((r) => [r.emiDate, r.remainingPrincipal] as const),
    ];
  } catch {
    return [];
  }
}

/** The current schedule's balances (after part-payments, resets, the lender's EMI, a foreclosure). */
export function actualSteps(loan: Loan, rows: readonly ScheduleRow[]): Steps {
  if (rows.length === 0) return [];
  return [
    [loan.startDate.slice(0, 10), toPaise(loan.principalAmount)],
    ...rows.map((r) => [r.emiDate, toPaise(r.remainingPrincipal)] as const),
  ];
}

/**
 * A what-if choice's balances: the loan as it runs now up to the part-payment's date, then the
 * balances the what-if answered (rupees) from that date on.
 */
export function whatIfSteps(actual: Steps, balances: readonly BalanceStep[]): Steps {
  const from = balances[0]?.date;
  if (from === undefined) return [];
  return [
    ...actual.filter(([date]) => date < from),
    ...balances.map((b) => [b.date, toPaise(b.remainingPrincipal)] as const),
  ];
}

/** The balance after the last step on or before `date`; null outside the series. */
function balanceAt(steps: Steps, date: string): number | null {
  const first = steps[0];
  if (!first || date < first[0]) return null;
  let balance = first[1];
  for (const [day, value] of steps) {
    if (day > date) break;
    balance = value;
  }
  return balance;
}

/**
 * Both series on every date either has (two rows on one date, a part-payment on an EMI's day,
 * keep the later balance), in rupees for the chart. A series that has ended stays at 0.
 */
export function balancePoints(
  contract: Steps,
  actual: Steps,
  whatIf?: Readonly<{ reduceEmi: Steps; reduceTenure: Steps }>,
): BalancePoint[] {
  const all = [...contract, ...actual, ...(whatIf?.reduceEmi ?? []), ...(whatIf?.reduceTenure ?? [])];
  const dates = [...new Set(all.map(([date]) => date))].sort();
  const rupees = (steps: Steps, date: string) => {
    const paise = balanceAt(steps, date);
    return paise === null ? null : paise / 100;
  };
  return dates.map((date) => ({
    date,
    contract: rupees(contract, date),
    actual: rupees(actual, date),
    ...(whatIf
      ? { reduceEmi: rupees(whatIf.reduceEmi, date), reduceTenure: rupees(whatIf.reduceTenure, date) }
      : {}),
  }));
}
