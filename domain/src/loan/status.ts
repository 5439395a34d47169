import type { ActualSchedule, ActualScheduleRow } from './actual-schedule';
import type { PaidEmi } from './state';

/** The spec's Active/Completed, plus Overdue for a loan with unpaid past EMIs. */
export type LoanStatus = 'Active' | 'Completed' | 'Overdue';

/**
 * EMIs due before `today` (YYYY-MM-DD, in India) and not marked paid. A loan whose EMIs were
 * never marked has none: its owner does not track payments there, and calling every past EMI
 * overdue would be wrong for every loan created before paid EMIs existed.
 */
export function overdueEmis(
  rows: readonly ActualScheduleRow[],
  paidEmis: readonly PaidEmi[],
  today: string,
): ActualScheduleRow[] {
  if (paidEmis.length === 0) return [];
  const paid = new Set(paidEmis.map((emi) => emi.paymentNumber));
  return rows.filter((row) => row.kind === 'emi' && row.date < today && !paid.has(row.paymentNumber));
}

/** Overdue wins over the dates; else Completed once the last payment (EMI or foreclosure) is past. */
export function loanStatus(
  schedule: Pick<ActualSchedule, 'rows' | 'closedOn'>,
  paidEmis: readonly PaidEmi[],
  today: string,
): LoanStatus {
  if (overdueEmis(schedule.rows, paidEmis, today).length > 0) return 'Overdue';
  return schedule.closedOn < today ? 'Completed' : 'Active';
}
