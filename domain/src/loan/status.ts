import type { ActualSchedule, ActualScheduleRow } from './actual-schedule';
import { type EmiMark, emiStandings } from './payments';

/** The spec's Active/Completed, plus Overdue for a loan with EMIs (or parts of them) past due. */
export type LoanStatus = 'Active' | 'Completed' | 'Overdue';

/** What the status rules read of a schedule row. */
type DueRow = Pick<ActualScheduleRow, 'kind' | 'date' | 'paymentNumber' | 'amount'>;

/** What the loan says about its payments. */
export type PaymentFacts = Readonly<{ marks: readonly EmiMark[]; emisAutoDebited: boolean }>;

/**
 * EMIs past due on `today` (YYYY-MM-DD, in India): marked missed, partly paid, or (when the
 * loan's EMIs are not auto-debited) not marked paid at all. An auto-debited EMI counts as paid.
 */
export function overdueEmiCount(rows: readonly DueRow[], payments: PaymentFacts, today: string): number {
  return emiStandings(rows, payments.marks, payments.emisAutoDebited, today).filter((emi) => emi.overdue)
    .length;
}

/** Overdue wins over the dates; else Completed once the last payment (EMI or foreclosure) is past. */
export function loanStatus(
  schedule: Readonly<{ rows: readonly DueRow[]; closedOn: ActualSchedule['closedOn'] }>,
  payments: PaymentFacts,
  today: string,
): LoanStatus {
  if (overdueEmiCount(schedule.rows, payments, today) > 0) return 'Overdue';
  return schedule.closedOn < today ? 'Completed' : 'Active';
}
