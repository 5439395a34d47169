import type { Paise } from '../money/paise';
import {
  type ActualSchedule,
  actualSchedule,
  type LoanChange,
  type PrepaymentChoice,
} from './actual-schedule';
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

export type PrepaymentComparison = Readonly<{
  withoutPrepayment: PrepaymentOutcome;
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
  return {
    withoutPrepayment: base,
    choices: { 'reduce-emi': withChoice('reduce-emi'), 'reduce-tenure': withChoice('reduce-tenure') },
  };
}
