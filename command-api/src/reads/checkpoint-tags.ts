import type { Queryable } from '@kosh/event-store';
import type { FastifyRequest } from 'fastify';

/**
 * The read models' change counts as tags, for one user: per projection name, the count of
 * changes that may touch any user's rows (`projection_checkpoints.changes@changed_position`: the
 * catalog, audit grants, a rebuild's swap, …) and the user's own count
 * (`projection_user_changes`, runner migration 004). A read model's tables change only in a
 * transaction that moves one of them (a batch that applied an event the projection handles:
 * the owners' counts, or the shared one; projections/src/runner/owners.ts), so an unchanged tag
 * means the user's rows are unchanged: what was read under a tag may be served again while the
 * tag holds (answer-cache.ts, the token check in plugins/auth.ts). Another user's write does not
 * move it; events a read model does not handle move nothing.
 */
export type UserTags = { shared: ReadonlyMap<string, string>; user: ReadonlyMap<string, string> };
/** The tags of `userId` ('' for none: the shared counts alone). */
export type CheckpointTags = (userId: string) => Promise<UserTags>;

const NO_TAGS: ReadonlyMap<string, string> = new Map();

/** The tags as `readAheadWithTags` reads them: name → `changes@changed_position`. */
type TagsJson = { shared: Record<string, string> | null; user: Record<string, string> | null };

async function readTags(db: Queryable, users: readonly string[]): Promise<Map<string, UserTags>> {
  const { rows } = await db.query<{ name: string; user_id: string | null; tag: string }>(
    `SELECT name, NULL AS user_id, changes || '@' || changed_position AS tag FROM projection_checkpoints
     UNION ALL
     SELECT name, user_id, changes || '@' || changed_position FROM projection_user_changes
      WHERE user_id = ANY($1::text[])`,
    [users],
    { prepared: true },
  );
  const shared = new Map<string, string>();
  const byUser = new Map<string, Map<string, string>>();
  for (const row of rows) {
    if (row.user_id === null) shared.set(row.name, row.tag);
    else {
      const own = byUser.get(row.user_id) ?? new Map<string, string>();
      byUser.set(row.user_id, own);
      own.set(row.name, row.tag);
    }
  }
  return new Map(users.map((u) => [u, { shared, user: byUser.get(u) ?? NO_TAGS }]));
}

/**
 * One read of the tags shared by concurrent callers, never started before the caller came: a
 * caller joins a run that starts after it arrived (the next one, queued behind the run in
 * flight), and the run reads the counts of every user who joined it. So a request sees every
 * write that finished before it came (read-your-writes), from any process, and under load one
 * small statement serves every request that arrived while the previous one ran.
 */
function coalescedTags(db: Queryable): CheckpointTags {
  let next: { users: Set<string>; result: Promise<Map<string, UserTags>> } | null = null;
  let inFlight: Promise<unknown> = Promise.resolve();
  return async (userId) => {
    if (!next) {
      const users = new Set<string>();
      const run = () => {
        next = null;
        return readTags(db, [...users]);
      };
      const result = inFlight.then(run, run);
      next = { users, result };
      inFlight = result.catch(() => {});
    }
    next.users.add(userId);
    const tags = (await next.result).get(userId);
    if (!tags) throw new Error('checkpoint tags: a caller missed its run');
    return tags;
  };
}

const perDatabase = new WeakMap<Queryable, CheckpointTags>();

/** The tags of a user's read models, one coalesced reader per database. */
export function checkpointTags(db: Queryable): CheckpointTags {
  let tags = perDatabase.get(db);
  if (!tags) {
    tags = coalescedTags(db);
    perDatabase.set(db, tags);
  }
  return tags;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The tags this request read, per user (`requestTags`); forgotten after a read-your-writes wait. */
    checkpointTagsRead: Map<string, Promise<UserTags>> | null;
  }
}

/**
 * The tags of `userId` as this request sees them: read once per request (the token check, the
 * session check and the answer cache share it), in a run started after the request arrived.
 * A wait for the request's own writes (plugins/own-writes.ts) forgets them (`forgetRequestTags`),
 * so what is read after the wait is tagged as of after it.
 */
export function requestTags(db: Queryable, request: FastifyRequest, userId: string): Promise<UserTags> {
  let read = request.checkpointTagsRead;
  if (!read) request.checkpointTagsRead = read = new Map();
  let tags = read.get(userId);
  if (!tags) {
    tags = checkpointTags(db)(userId);
    read.set(userId, tags);
    // A failed read is not kept: the next caller asks again.
    tags.catch(() => read.delete(userId));
  }
  return tags;
}

/**
 * Runs a read route's own statement (`text`, `values`; one snapshot, its rows as they are)
 * and the tags of `userId` in one statement: one round trip where the token check and the body
 * would take two. Started by a route's read-ahead in the token check, once the token's signature
 * and claims hold and before anything else is checked; the tags become this request's
 * (`requestTags`), so the user, session and cache checks read them as ever, and the rows are
 * only used by the route's body, which runs only once those checks passed (a revoked session
 * moves the sessions count in the same snapshot: the check reads the row again and refuses).
 * The rows are as of the tags, never older (the same snapshot), as the answer cache requires.
 * Null when the request already read the user's tags (nothing is read ahead then).
 */
export function readAheadWithTags(
  db: Queryable,
  request: FastifyRequest,
  userId: string,
  text: string,
  values: readonly unknown[],
): { tags: Promise<UserTags>; rows: Promise<Record<string, unknown>[]> } | null {
  let read = request.checkpointTagsRead;
  if (!read) request.checkpointTagsRead = read = new Map();
  if (read.has(userId)) return null;
  const user = `$${values.length + 1}::text`;
  // The statement's rows as they are (one more column, `__n`), and the tags once, as two JSON
  // objects on the first row (or on the one row of nulls when the statement has none).
  const both = db.query<Record<string, unknown> & { __n: string | null; __tags: TagsJson | null }>(
    `SELECT b.*, CASE WHEN b.__n IS NULL OR b.__n = 1 THEN t.tags END AS __tags
       FROM (SELECT json_build_object(
               'shared', (SELECT json_object_agg(name, changes || '@' || changed_position) FROM projection_checkpoints),
               'user', (SELECT json_object_agg(name, changes || '@' || changed_position) FROM projection_user_changes
                         WHERE user_id = ${user})) AS tags) AS t
       LEFT JOIN (SELECT b0.*, row_number() OVER () AS __n FROM (${text}) AS b0) AS b ON true`,
    [...values, userId],
    { prepared: true },
  );
  const tags = both.then(({ rows }) => {
    const json = rows.find((row) => row.__tags !== null)?.__tags;
    if (!json) throw new Error('checkpoint tags: not read');
    const user = new Map(Object.entries(json.user ?? {}));
    return { shared: new Map(Object.entries(json.shared ?? {})), user: user.size > 0 ? user : NO_TAGS };
  });
  const rows = both.then(({ rows }) => rows.filter((row) => row.__n !== null));
  read.set(userId, tags);
  // A failed read is not kept: the next caller asks again (the rows' failure is the body's).
  tags.catch(() => read.delete(userId));
  rows.catch(() => {});
  return { tags, rows };
}

/** Forgets the tags this request read (after waiting for writes it must see). */
export function forgetRequestTags(request: FastifyRequest): void {
  request.checkpointTagsRead = null;
}

/** The tag of a set of read models for the user the tags were read for. */
export function tagOf(tags: UserTags, names: readonly string[]): string {
  return names.map((name) => `${name}@${tags.shared.get(name) ?? ''}/${tags.user.get(name) ?? ''}`).join(',');
}
