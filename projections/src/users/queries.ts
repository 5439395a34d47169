import type { Queryable } from '@kosh/event-store';
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

/**
 * What a bearer token's check needs, in one lookup: whether the user exists (null when not) and
 * the instant before which their access tokens are void (null when never).
 */
export async function getTokenSubject(
  db: Queryable,
  userId: string,
): Promise<{ tokensValidAfter: Date | null } | null> {
  const { rows } = await db.query<{ tokens_valid_after: string | Date | null }>(
    'SELECT tokens_valid_after FROM users WHERE user_id = $1',
    [userId],
  );
  const row = rows[0];
  if (!row) return null;
  return { tokensValidAfter: row.tokens_valid_after ? new Date(row.tokens_valid_after) : null };
}
