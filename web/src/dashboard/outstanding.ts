import { addMonths, balanceOn, generateSchedule, type ScheduleRow, toPaise } from '@kosh/domain';
import type { Loan } from '../loans/loansApi';

export type OutstandingPoint = { date: string; outstanding: number };

const MAX_POINTS = 120;

type Planned = { start: string; end: string; principal: number; rows: readonly ScheduleRow[] };

function plan(loan: Loan): Planned | null {
  try {
    const principal = toPaise(loan.principalAmount);
    const { rows } = generateSchedule({
      principalAmount: principal,
      interestRate: Number(loan.interestRate),
      isInterestRateYearly: Boolean(Number(loan.isInterestRateYearly)),
      duration: Number(loan.duration),
      isDurationYearly: Boolean(Number(loan.isDurationYearly)),
      startDate: loan.startDate.slice(0, 10),
      hasGst: Boolean(Number(loan.hasGst)),
      gstPercentage: Number(loan.gstPercentage ?? 0),
    });
    return { start: loan.startDate.slice(0, 10), end: loan.endDate.slice(0, 10), principal, rows };
  } catch {
    return null;
  }
}

/**
 * Total principal still owed across the loans, month by month from the first start date to the
 * last end date (at most 120 points). Each loan's balance follows the domain's schedule: nothing
 * before it starts, the full principal until its first EMI, then the balance after each EMI.
 */
export function outstandingOverTime(loans: readonly Loan[]): OutstandingPoint[] {
  const planned = loans.map(plan).filter((p): p is Planned => p !== null);
  if (planned.length === 0) return [];
  const first = planned.map((p) => p.start).sort()[0]!;
  const last = planned
    .map((p) => p.end)
    .sort()
    .at(-1)!;
  const firstMonth = `${first.slice(0, 7)}-01`;
  const months =
    (Number(last.slice(0, 4)) - Number(first.slice(0, 4))) * 12 +
    Number(last.slice(5, 7)) -
    Number(first.slice(5, 7)) +
    1;
  const step = Math.max(1, Math.ceil(months / MAX_POINTS));
  const points: OutstandingPoint[] = [];
  for (let m = 0; m < months + step; m += step) {
    const date = addMonths(firstMonth, Math.min(m, months));
    let owed = 0;
    for (const p of planned) if (date >= p.start) owed += balanceOn(p.principal, p.rows, date);
    points.push({ date, outstanding: owed / 100 });
    if (m >= months) break;
  }
  return points;
}
