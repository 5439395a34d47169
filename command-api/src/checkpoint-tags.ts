import type { Queryable } from '@kosh/event-store';

/**
 * The read models' change counts as tags (`changes@changed_position` per projection name). A
 * read model's tables change only in a transaction that moves its count (a batch that applied an
 * event the projection handles, or a rebuild's swap; runner/catch-up.ts, runner/rebuild.ts), so
 * an unchanged tag means unchanged rows: what was read under a tag may be served again while the
 * tag holds (answer-cache.ts, the token check in plugins/auth.ts). Events a read model does not
 * handle move its checkpoint but not its tag: a transaction recorded does not renew the loans.
 */
export type CheckpointTags = () => Promise<ReadonlyMap<string, string>>;

async function readTags(db: Queryable): Promise<ReadonlyMap<string, string>> {
  const { rows } = await db.query<{ name: string; tag: string }>(
    `SELECT name, changes || '@' || changed_position AS tag FROM projection_checkpoints`,
    [],
    { prepared: true },
  );
  return new Map(rows.map((r) => [r.name, r.tag]));
}

/**
 * One run of `read` shared by concurrent callers, never started before the caller came: a caller
 * joins a run that starts after it arrived (the next one, queued behind the run in flight). For
 * the tags: a request still sees every write that finished before it came (read-your-writes),
 * from any process, and under load one small statement serves every request that arrived while
 * the previous one ran. For the projection jobs (platform/runtime.ts): each append is followed by
 * a round of jobs sent after it committed, one round in flight at a time.
 */
export function coalesced<T>(read: () => Promise<T>): () => Promise<T> {
  let next: Promise<T> | null = null;
  let inFlight: Promise<unknown> = Promise.resolve();
  return () => {
    if (!next) {
      const run = () => {
        next = null;
        return read();
      };
      const started = inFlight.then(run, run);
      next = started;
      inFlight = started.catch(() => {});
    }
    return next;
  };
}

const perDatabase = new WeakMap<Queryable, CheckpointTags>();

/** The tags of every read model, one coalesced reader per database. */
export function checkpointTags(db: Queryable): CheckpointTags {
  let tags = perDatabase.get(db);
  if (!tags) {
    tags = coalesced(() => readTags(db));
    perDatabase.set(db, tags);
  }
  return tags;
}

/** The tag of a set of read models ('' for one that has no checkpoint yet). */
export function tagOf(tags: ReadonlyMap<string, string>, names: readonly string[]): string {
  return names.map((name) => `${name}@${tags.get(name) ?? ''}`).join(',');
}

/**
 * A bounded map in recency order: a hit moves the entry to the end, eviction takes the front.
 * `weigh` gives an entry's cost (1 each by default) against `capacity`.
 */
export function lruMap<V>(capacity: number, weigh: (value: V) => number = () => 1) {
  const entries = new Map<string, V>();
  let used = 0;
  return {
    get(key: string): V | undefined {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set(key: string, value: V): void {
      const old = entries.get(key);
      if (old !== undefined) {
        entries.delete(key);
        used -= weigh(old);
      }
      const weight = weigh(value);
      if (weight > capacity) return;
      entries.set(key, value);
      used += weight;
      for (const [oldest, evicted] of entries) {
        if (used <= capacity) break;
        entries.delete(oldest);
        used -= weigh(evicted);
      }
    },
    /** Re-weighs an entry whose value grew in place (e.g. a gzipped copy added). */
    grew(key: string, value: V, by: number): void {
      if (entries.get(key) === value) used += by;
    },
  };
}
