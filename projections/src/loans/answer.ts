import type { Queryable } from '@kosh/event-store';
import { getBank, getLoanType } from '../catalog/queries';
import { evolveLoanRow, type VersionedLoanEvent } from './projector';
import type { LoanView } from './queries';

/**
 * A loan as the list shows it, from its stream's events by the read model's own fold, with the
 * names of its bank and loan type as the catalog holds them; null before it is created and once
 * deleted. A command's answer: the events it read and those it decided, with no read of `loans`.
 */
export async function foldLoanView(
  db: Queryable,
  userId: string,
  events: readonly VersionedLoanEvent[],
): Promise<LoanView | null> {
  const row = events.reduce(evolveLoanRow, null);
  if (!row) return null;
  const [bank, loanType] = await Promise.all([
    getBank(db, userId, row.bankId),
    getLoanType(db, userId, row.loanTypeId),
  ]);
  return {
    ...row,
    bank: { bankName: bank?.bankName ?? '', branchName: bank?.branchName ?? null },
    loanType: { typeName: loanType?.typeName ?? '' },
  };
}
