import type { Queryable } from '@kosh/event-store';

export type SessionRow = Readonly<{
  sessionId: string;
  userId: string;
  browser: string;
  os: string;
  address: string;
  startedAt: string;
  expiresAt: string;
  /** The last request seen (at most a minute behind); the start when none yet. */
  lastSeenAt: string;
}>;

type DbRow = {
  session_id: string;
  user_id: string;
  browser: string;
  os: string;
  address: string;
  started_at: string | Date;
  expires_at: string | Date;
  last_seen_at: string | Date | null;
};

const iso = (value: string | Date) => new Date(value).toISOString();

const fromDb = (r: DbRow): SessionRow => ({
  sessionId: r.session_id,
  userId: r.user_id,
  browser: r.browser,
  os: r.os,
  address: r.address,
  startedAt: iso(r.started_at),
  expiresAt: iso(r.expires_at),
  lastSeenAt: iso(r.last_seen_at ?? r.started_at),
});

const SELECT = `SELECT s.session_id, s.user_id, s.browser, s.os, s.address, s.started_at, s.expires_at,
    a.last_seen_at
  FROM sessions s LEFT JOIN session_activity a ON a.session_id = s.session_id`;

/** The user's sessions not ended and not expired at `now`, most recently seen first. */
export async function liveSessionsOf(db: Queryable, userId: string, now: Date): Promise<SessionRow[]> {
  const { rows } = await db.query<DbRow>(
    `${SELECT} WHERE s.user_id = $1 AND s.ended_at IS NULL AND s.expires_at > $2
     ORDER BY COALESCE(a.last_seen_at, s.started_at) DESC, s.session_id`,
    [userId, now.toISOString()],
  );
  return rows.map(fromDb);
}

/** What a token check needs of its session: whose it is and whether it has ended (null: unknown). */
export async function getSessionSubject(
  db: Queryable,
  sessionId: string,
): Promise<{ userId: string; ended: boolean; expiresAt: Date } | null> {
  const { rows } = await db.query<{ user_id: string; ended_at: unknown; expires_at: string | Date }>(
    'SELECT user_id, ended_at, expires_at FROM sessions WHERE session_id = $1',
    [sessionId],
  );
  const row = rows[0];
  if (!row) return null;
  return { userId: row.user_id, ended: row.ended_at !== null, expiresAt: new Date(row.expires_at) };
}

/** Records a request of `sessionId` at `now` unless one within the last minute is recorded already. */
export async function touchSession(db: Queryable, sessionId: string, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO session_activity AS a (session_id, last_seen_at) VALUES ($1, $2)
     ON CONFLICT (session_id) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at
       WHERE a.last_seen_at < EXCLUDED.last_seen_at - interval '1 minute'`,
    [sessionId, now.toISOString()],
  );
}
