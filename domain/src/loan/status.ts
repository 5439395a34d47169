import type { ActualSchedule, ActualScheduleRow } from './actual-schedule';
import type { PaidEmi } from './state';

/** The spec's Active/Completed, plus Overdue for a loan with unpaid past EMIs. */
export type LoanStatus = 'Active' | 'Completed' | 'Overdue';

/**
 * EMIs due before `today` (YYYY-MM-DD, in India) and not marked paid. A loan whose EMIs were
 * never marked has none: its owner does not track payments there, and calling every past EMI
 * overdue would be wrong for every loan created before paid EMIs existed.
 */
/** What the status rules read of a schedule row. */
type DueRow = Pick<ActualScheduleRow, 'kind' | 'date' | 'paymentNumber'>;

export function overdueEmis<Row extends DueRow>(
  rows: readonly Row[],
  paidEmis: readonly PaidEmi[],
  today: string,
): Row[] {
  if (paidEmis.length === 0) return [];
  const paid = new Set(paidEmis.map((emi) => emi.paymentNumber));
  return rows.filter((row) => row.kind === 'emi' && row.date < today && !paid.has(row.paymentNumber));
}

/** Overdue wins over the dates; else Completed once the last payment (EMI or foreclosure) is past. */
export function loanStatus(
  schedule: Readonly<{ rows: readonly DueRow[]; closedOn: ActualSchedule['closedOn'] }>,
  paidEmis: readonly PaidEmi[],
  today: string,
): LoanStatus {
  if (overdueEmis(schedule.rows, paidEmis, today).length > 0) return 'Overdue';
  return schedule.closedOn < today ? 'Completed' : 'Active';
}
