import { fileURLToPath } from 'node:url';
import type { MigrationSource, Queryable } from '@kosh/event-store';

export const idempotencyMigrations: MigrationSource = {
  scope: 'idempotency',
  dir: fileURLToPath(new URL('./migrations', import.meta.url)),
};

/** How long a key holds its answer. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The answer stored for a key, replayed to every retry. */
export type StoredAnswer = { status: number; headers: Record<string, string>; body: string };

/** What a key already holds: the request it was first used for and, once finished, its answer. */
export type KeyRecord = { requestHash: string; answer: StoredAnswer | null };

/** A claim this request owns; `createdAt` tells it apart from a later claim of the same key. */
export type Claim = { userId: string; key: string; createdAt: Date };

/**
 * Claims (user, key) for a request: inserts the row, or takes over one older than 24 h. One
 * statement, so of two requests racing for the same key exactly one gets the claim (the primary
 * key decides), on PostgreSQL and PGlite alike. Returns null when a live row holds the key.
 */
export async function claimKey(db: Queryable, claim: Claim, requestHash: string): Promise<Claim | null> {
  const expiredBefore = new Date(claim.createdAt.getTime() - KEY_LIFETIME_MS);
  const { rows } = await db.query(
    `INSERT INTO idempotency_keys (user_id, key, request_hash, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, status = NULL, headers = NULL, body = NULL,
           created_at = EXCLUDED.created_at
       WHERE idempotency_keys.created_at <= $5
     RETURNING 1`,
    [claim.userId, claim.key, requestHash, claim.createdAt, expiredBefore],
  );
  return rows.length > 0 ? claim : null;
}

/** The live record of a key, or null (never used, expired, or released meanwhile). */
export async function readKey(
  db: Queryable,
  userId: string,
  key: string,
  now: Date,
): Promise<KeyRecord | null> {
  const { rows } = await db.query<{
    request_hash: string;
    status: number | null;
    headers: Record<string, string> | null;
    body: string | null;
  }>(
    `SELECT request_hash, status, headers, body FROM idempotency_keys
     WHERE user_id = $1 AND key = $2 AND created_at > $3`,
    [userId, key, new Date(now.getTime() - KEY_LIFETIME_MS)],
  );
  const row = rows[0];
  if (!row) return null;
  const answer =
    row.status === null ? null : { status: row.status, headers: row.headers ?? {}, body: row.body ?? '' };
  return { requestHash: row.request_hash, answer };
}

export async function storeAnswer(db: Queryable, claim: Claim, answer: StoredAnswer): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET status = $4, headers = $5::jsonb, body = $6
     WHERE user_id = $1 AND key = $2 AND created_at = $3`,
    [claim.userId, claim.key, claim.createdAt, answer.status, JSON.stringify(answer.headers), answer.body],
  );
}

/** Gives a key back after a failed request, so that a retry runs the command afresh. */
export async function releaseKey(db: Queryable, claim: Claim): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND created_at = $3', [
    claim.userId,
    claim.key,
    claim.createdAt,
  ]);
}

/** Deletes every key past its lifetime. */
export async function sweepKeys(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE created_at <= $1', [
    new Date(now.getTime() - KEY_LIFETIME_MS),
  ]);
}
