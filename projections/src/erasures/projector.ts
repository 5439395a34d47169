import { ERASURE_EVENT_TYPES } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { defineProjection } from '../runner/define';

/**
 * Pending account erasures (issue 32), one row per account in its cooling-off period. Events in
 * log order; the version guard makes a redelivered event a no-op (a cancelled request's row is
 * gone, and a request after it has a higher version).
 */
export const erasuresProjection = defineProjection({
  name: 'erasures',
  handles: ERASURE_EVENT_TYPES,
  tables: ['account_erasures'],
  migrations: new URL('./migrations', import.meta.url),
  async apply(tx, events) {
    for (const event of events) {
      if (event.type === 'AccountErasureRequested') {
        const d = event.data;
        await tx.query(
          `INSERT INTO account_erasures (user_id, requested_at, erase_after, version) VALUES ($1, $2, $3, $4)
           ON CONFLICT (user_id) DO UPDATE SET requested_at = EXCLUDED.requested_at,
             erase_after = EXCLUDED.erase_after, version = EXCLUDED.version
           WHERE account_erasures.version < EXCLUDED.version`,
          [d.userId, d.requestedAt, d.eraseAfter, event.streamVersion],
        );
      } else {
        await tx.query('DELETE FROM account_erasures WHERE user_id = $1 AND version < $2', [
          event.data.userId,
          event.streamVersion,
        ]);
      }
    }
  },
});

export type PendingErasure = { requestedAt: string; eraseAfter: string };

/** The caller's pending erasure, or null. */
export async function getPendingErasure(db: Queryable, userId: string): Promise<PendingErasure | null> {
  const { rows } = await db.query<{ requested_at: string | Date; erase_after: string | Date }>(
    'SELECT requested_at, erase_after FROM account_erasures WHERE user_id = $1',
    [userId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    requestedAt: new Date(row.requested_at).toISOString(),
    eraseAfter: new Date(row.erase_after).toISOString(),
  };
}

/** Accounts whose cooling-off period ended at or before `now`, oldest first. */
export async function dueErasures(db: Queryable, now: Date, limit = 100): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>(
    'SELECT user_id FROM account_erasures WHERE erase_after <= $1 ORDER BY erase_after, user_id LIMIT $2',
    [now.toISOString(), limit],
  );
  return rows.map((r) => r.user_id);
}
