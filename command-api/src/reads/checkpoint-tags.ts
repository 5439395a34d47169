import type { Queryable } from '@kosh/event-store';
import { coalesced } from '../support/coalesced';

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
