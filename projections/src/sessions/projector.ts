import type { Queryable } from '@kosh/event-store';
import { defineProjection } from '../runner/define';

/**
 * Issue 32: the sessions of every user. A sign-in adds a row; a logout, an end from another
 * session, a password change (all but the session that changed it) or a reset (all) ends rows.
 * Each statement is idempotent: an ending names the sessions started up to its instant, so a
 * redelivered event changes nothing.
 */
export const sessionsProjection = defineProjection({
  name: 'sessions',
  handles: ['SessionStarted', 'SessionEnded', 'PasswordChanged', 'PasswordResetCompleted', 'SignedOut'],
  tables: ['sessions'],
  migrations: new URL('./migrations', import.meta.url),
  // Token checks read it: a crash must never bring back a moment in which an ended session works.
  asyncCommit: false,
  async apply(tx, events) {
    for (const event of events) {
      switch (event.type) {
        case 'SessionStarted': {
          const d = event.data;
          await tx.query(
            `INSERT INTO sessions (session_id, user_id, browser, os, address, started_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (session_id) DO NOTHING`,
            [d.sessionId, d.userId, d.browser, d.os, d.address, d.startedAt, d.expiresAt],
          );
          break;
        }
        case 'SessionEnded':
          await tx.query(
            `UPDATE sessions SET ended_at = $3, end_reason = $4
              WHERE session_id = $1 AND user_id = $2 AND ended_at IS NULL`,
            [event.data.sessionId, event.data.userId, event.data.endedAt, event.data.reason],
          );
          break;
        case 'PasswordChanged':
          await endAll(
            tx,
            event.data.userId,
            event.data.changedAt,
            'password',
            event.data.keptSessionId ?? null,
          );
          break;
        case 'PasswordResetCompleted':
          await endAll(tx, event.data.userId, event.data.completedAt, 'password', null);
          break;
        case 'SignedOut':
          await endAll(tx, event.data.userId, event.data.signedOutAt, 'signed-out', null);
          break;
      }
    }
  },
});

async function endAll(tx: Queryable, userId: string, at: string, reason: string, keep: string | null) {
  await tx.query(
    `UPDATE sessions SET ended_at = $2, end_reason = $3
      WHERE user_id = $1 AND ended_at IS NULL AND started_at <= $2 AND session_id IS DISTINCT FROM $4`,
    [userId, at, reason, keep],
  );
}
