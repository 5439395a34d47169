import type { Paise } from '../money/paise';
import {
  type ActualSchedule,
  actualSchedule,
  type LoanChange,
  type PrepaymentChoice,
} from './actual-schedule';
import { daysBetween } from './dates';
import type { ScheduleTerms } from './events';
import { withChange } from './state';

export type PrepaymentOutcome = Readonly<{
  /** The level EMI (before GST) in force after every change. */
  emi: Paise;
  numberOfEmis: number;
  /** Date of the last payment. */
  closedOn: string;
  interest: Paise;
  gst: Paise;
}>;

/** The principal still owed after a row of the schedule: one step of the balance chart. */
export type BalanceStep = Readonly<{ date: string; remainingPrincipal: Paise }>;

/**
 * The interest a part-payment is collected with: the amount prepaid × the rate × the days since
 * the last EMI (or the start) ÷ 365, and GST on it when the loan has GST.
 */
export type AccruedInterest = Readonly<{
  from: string;
  days: number;
  annualRatePercent: number;
  interest: Paise;
  gst: Paise;
}>;

export type PrepaymentComparison = Readonly<{
  withoutPrepayment: PrepaymentOutcome;
  accrued: AccruedInterest;
  choices: Readonly<
    Record<
      PrepaymentChoice,
      PrepaymentOutcome &
        Readonly<{
          interestSaved: Paise;
          gstSaved: Paise;
          monthsSaved: number;
          /** From the prepayment on (before it the loan runs as it does now), for the chart's what-if line. */
          balances: readonly BalanceStep[];
        }>
    >
  >;
}>;

function outcome(schedule: ActualSchedule): PrepaymentOutcome {
  const { emi, closedOn, totals } = schedule;
  return { emi, numberOfEmis: totals.numberOfEmis, closedOn, interest: totals.interest, gst: totals.gst };
}

/**
 * What a prepayment would do under each choice, against the loan as it stands: the same form as
 * recording one, nothing saved. Interest saved counts the interest the prepayment itself settles
 * (accrued since the last EMI) as paid, so it is exactly the difference in total interest.
 * Throws what recording the prepayment would throw.
 */
export function comparePrepayment(
  terms: ScheduleTerms,
  changes: readonly LoanChange[],
  prepayment: Readonly<{ date: string; amount: Paise; charge: Paise }>,
): PrepaymentComparison {
  const base = outcome(actualSchedule(terms, changes));
  const withChoice = (choice: PrepaymentChoice) => {
    const change: LoanChange = { kind: 'prepayment', ...prepayment, choice };
    const schedule = actualSchedule(terms, withChange(changes, change));
    const result = outcome(schedule);
    return {
      ...result,
      interestSaved: base.interest - result.interest,
      gstSaved: base.gst - result.gst,
      monthsSaved: base.numberOfEmis - result.numberOfEmis,
      balances: schedule.rows
        .filter((row) => row.date >= prepayment.date)
        .map((row) => ({ date: row.date, remainingPrincipal: row.remainingPrincipal })),
    };
  };
  const { rows } = actualSchedule(
    terms,
    withChange(changes, { kind: 'prepayment', ...prepayment, choice: 'reduce-emi' }),
  );
  const at = rows.findIndex((row) => row.kind === 'prepayment' && row.date === prepayment.date);
  const paid = rows[at];
  const from = rows.slice(0, at).findLast((row) => row.kind === 'emi')?.date ?? terms.startDate;
  return {
    withoutPrepayment: base,
    accrued: {
      from,
      days: daysBetween(from, prepayment.date),
      annualRatePercent: paid?.annualRatePercent ?? 0,
      interest: paid?.interest ?? 0,
      gst: paid?.gst ?? 0,
    },
    choices: { 'reduce-emi': withChoice('reduce-emi'), 'reduce-tenure': withChoice('reduce-tenure') },
  };
}
