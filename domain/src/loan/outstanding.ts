import type { Paise } from '../money/paise';
import type { ActualScheduleRow } from './actual-schedule';
import { emiStandings } from './payments';
import type { PaymentFacts } from './status';

/** What the outstanding principal reads of a schedule row. */
type PrincipalRow = Pick<ActualScheduleRow, 'kind' | 'date' | 'paymentNumber' | 'amount' | 'principal'>;

/**
 * The principal still owed on `date` (YYYY-MM-DD) under the paid-EMI model: the loan's principal
 * less the principal part of each EMI covered by then (marked or matched paid on or before the
 * date, or auto-debited on its due date) and of each part-payment or foreclosure dated by then.
 * Nothing is owed before the loan starts. An EMI not paid keeps its principal owed, whatever its
 * schedule says the balance would be.
 */
export function outstandingPrincipalOn(
  loan: Readonly<{ principal: Paise; startDate: string }>,
  rows: readonly PrincipalRow[],
  payments: PaymentFacts,
  date: string,
): Paise {
  if (date < loan.startDate) return 0;
  const principalOf = new Map(
    rows.filter((r) => r.kind === 'emi').map((r) => [r.paymentNumber, r.principal]),
  );
  let repaid = 0;
  for (const emi of emiStandings(rows, payments.marks, payments.emisAutoDebited, date)) {
    const covered = emi.state === 'paid' || emi.state === 'auto-debited';
    if (covered && emi.paidOn !== null && emi.paidOn <= date)
      repaid += principalOf.get(emi.paymentNumber) ?? 0;
  }
  for (const row of rows) {
    if ((row.kind === 'prepayment' || row.kind === 'foreclosure') && row.date <= date)
      repaid += row.principal;
  }
  return Math.max(0, loan.principal - repaid);
}
