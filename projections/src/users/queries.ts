import type { Queryable } from '@kosh/event-store/db';
import { selectUserRow, type UserRow } from './projector';

export type { UserRow } from './projector';

/** The caller's own profile row. */
export function getUser(db: Queryable, userId: string): Promise<UserRow | null> {
  return selectUserRow(db, userId);
}

/**
 * The user an outstanding link belongs to. These two lookups cannot filter by user: the token is
 * how an anonymous caller proves who they are; the decider then checks it against the stream.
 */
export async function findUserIdByVerificationTokenHash(
  db: Queryable,
  tokenHash: string,
): Promise<string | null> {
  const { rows } = await db.query<{ user_id: string }>(
    'SELECT user_id FROM users WHERE verification_token_hash = $1',
    [tokenHash],
  );
  return rows[0]?.user_id ?? null;
}

export async function findUserIdByResetTokenHash(db: Queryable, tokenHash: string): Promise<string | null> {
  const { rows } = await db.query<{ user_id: string }>(
    'SELECT user_id FROM users WHERE reset_token_hash = $1',
    [tokenHash],
  );
  return rows[0]?.user_id ?? null;
}

/** Instant before which the user's access tokens are void, or null (also for an unknown user). */
export async function getTokensValidAfter(db: Queryable, userId: string): Promise<Date | null> {
  const { rows } = await db.query<{ tokens_valid_after: string | Date | null }>(
    'SELECT tokens_valid_after FROM users WHERE user_id = $1',
    [userId],
  );
  const value = rows[0]?.tokens_valid_after;
  return value ? new Date(value) : null;
}
