import { loanDecider, loanStreamId, NotFoundError } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import type { FastifyRequest } from 'fastify';
import { handleCommand } from '../../commands/handle';
import { commandContext } from '../../commands/route';

/** The EMI a debit of the user's book is matched to, with its loan's names; null when none. */
export async function matchOfDebit(db: Queryable, userId: string, transactionId: string) {
  const { rows } = await db.query<{
    loan_id: string;
    payment_number: number;
    account_number: string;
    bank_name: string | null;
    type_name: string | null;
  }>(
    `SELECT m.loan_id::text AS loan_id, (m.mark->>'paymentNumber')::int AS payment_number, l.account_number,
            b.bank_name, t.type_name
       FROM loan_emi_marks m
       JOIN loans l ON l.id = m.loan_id
       LEFT JOIN catalog_banks b ON b.id = l.bank_id
       LEFT JOIN catalog_loan_types t ON t.id = l.loan_type_id
      WHERE m.user_id = $1 AND m.transaction_id = $2
      LIMIT 1`,
    [userId, transactionId],
  );
  return rows[0] ?? null;
}

/**
 * A debit is being deleted from the book: each loan it is matched to releases the match first (an
 * `EmiMatchReleased` event, reason 'transaction-deleted'), so no EMI and no ledger row is ever
 * built from a transaction that no longer exists. A loan deleted since has nothing to release.
 */
export async function releaseMatchesOfDeletedDebit(
  request: FastifyRequest,
  transactionId: string,
): Promise<void> {
  const { platform } = request.server;
  const userId = request.userId;
  const { rows } = await platform.db.query<{ loan_id: string }>(
    'SELECT DISTINCT loan_id::text AS loan_id FROM loan_emi_marks WHERE user_id = $1 AND transaction_id = $2',
    [userId, transactionId],
  );
  for (const { loan_id: loanId } of rows) {
    const now = platform.clock().toISOString();
    await handleCommand(commandContext(request), {
      streamId: loanStreamId(loanId),
      decider: loanDecider,
      command: { type: 'ReleaseDeletedDebit', data: { loanId, userId, now, transactionId } },
      waitFor: ['loans', 'schedules', 'ledger', 'history'],
    }).catch((error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error;
    });
  }
}
