/**
 * Rebuild: replays the log into copies of the projection's `tables` in schema `rebuild_<name>`
 * (the projector writes unqualified names; `SET LOCAL search_path` points them there), with its
 * own position in `projection_rebuilds` so a killed rebuild resumes, then swaps the tables in
 * and sets the checkpoint in one transaction. Copies are `LIKE ... INCLUDING ALL` (their indexes
 * named as the live ones; the deferred ones built after the replay): projection tables must not
 * use `serial` columns or be referenced by foreign keys.
 */
import type { RecordedEvent } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { LIVE_LOCK, REBUILD_LOCK, type RunnerContext, sleep } from './context';

/** `resumedFrom`: events already replayed before this run (a resumed rebuild), for true rates. */
export type RebuildProgress = {
  projection: string;
  processed: number;
  position: string;
  resumedFrom: number;
};
export type RebuildOptions = {
  onProgress?: (progress: RebuildProgress) => void;
  /** Discard a rebuild left unfinished instead of resuming it. */
  restart?: boolean;
};
export type RebuildResult = { processed: number; position: string };

/** A projector (or the database) refused an event of `projection`'s replay in a run of several. */
export class ProjectionRebuildError extends Error {
  constructor(
    readonly projection: string,
    cause: unknown,
  ) {
    super(`Rebuild of ${projection} failed`, { cause });
  }
}

const quote = (identifier: string) => `"${identifier}"`;

export function rebuildSchemaOf(name: string): string {
  return `rebuild_${name.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
}

/**
 * Index methods a rebuild's copy is made without and given just before the swap: a GIN index
 * (the notes' trigrams) costs more to keep row by row than to build once over the table, and no
 * projector's write reads through one. So are the btree indexes a projection names in
 * `deferredIndexes`. Unique and constraint indexes are never deferred.
 */
const DEFERRED_METHODS = ['gin', 'gist', 'brin'];

/** The indexes of `schema`'s `tables`: table, index, method, definition after USING, and whether it may be deferred. */
const INDEXES = `
  SELECT c.relname AS table, ic.relname AS index, am.amname AS method,
         regexp_replace(pg_get_indexdef(i.indexrelid), '^.* USING ', '') AS definition,
         NOT i.indisunique AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid) AS plain
    FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_am am ON am.oid = ic.relam
   WHERE n.nspname = $1 AND c.relname = ANY($2)`;
export type TableIndex = { table: string; index: string; method: string; definition: string; plain: boolean };
/** An index's key across schemas (a copy's indexes have other names): its table and definition. */
export const indexKey = (r: { table: string; definition: string }) => `${r.table} ${r.definition}`;

/** The indexes of `schema`'s `tables` (INDEXES). */
export async function tableIndexes(
  q: Queryable,
  schema: string,
  tables: readonly string[],
): Promise<TableIndex[]> {
  return (await q.query<TableIndex>(INDEXES, [schema, tables])).rows;
}

/**
 * The keys (`indexKey`) of the indexes among `live` a rebuild's copy is made without: the plain
 * GIN/GiST/BRIN ones and those named in `named` (a projection's `deferredIndexes`).
 */
export function deferredIndexKeys(live: readonly TableIndex[], named: ReadonlySet<string>): Set<string> {
  return new Set(
    live.filter((r) => r.plain && (DEFERRED_METHODS.includes(r.method) || named.has(r.index))).map(indexKey),
  );
}

/**
 * What a rebuild's copy must share with the live tables to be resumed: each table's columns with
 * their types, its constraints and its indexes (without the schema's name), the deferred ones
 * (keys in $3) left out.
 */
const TABLE_SHAPE = `
  SELECT c.relname AS name,
    (SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) ||
              CASE WHEN a.attnotnull THEN ' not null' ELSE '' END, ', ' ORDER BY a.attnum)
       FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns,
    (SELECT string_agg(pg_get_constraintdef(k.oid), ', ' ORDER BY pg_get_constraintdef(k.oid))
       FROM pg_constraint k WHERE k.conrelid = c.oid) AS constraints,
    (SELECT string_agg(d.definition, ', ' ORDER BY d.definition)
       FROM (SELECT regexp_replace(pg_get_indexdef(i.indexrelid), '^.* USING ', '') AS definition
               FROM pg_index i WHERE i.indrelid = c.oid) d
      WHERE NOT (c.relname || ' ' || d.definition) = ANY($3)) AS indexes
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = $1 AND c.relname = ANY($2) AND c.relkind = 'r'
  ORDER BY c.relname`;

export function createRebuild(ctx: RunnerContext, { rebuildBatchSize }: { rebuildBatchSize: number }) {
  const { db, logger } = ctx;

  /**
   * The keys (`indexKey`) of the live tables' indexes a rebuild's copy is made without: the plain
   * GIN/GiST/BRIN ones and those the projection names in `deferredIndexes`.
   */
  async function deferredKeys(q: Queryable, name: string, live: string, warn = false): Promise<Set<string>> {
    const { projection } = ctx.get(name);
    const named = new Set(projection.deferredIndexes ?? []);
    const rows = await tableIndexes(q, live, projection.tables);
    // A database rebuilt before copies kept their indexes' names has generated ones: such an
    // index is kept row by row (slower, same rows) and the next copy keeps its name.
    const missing = [...named].filter((index) => !rows.some((r) => r.index === index && r.plain));
    if (warn && missing.length > 0)
      logger.warn(
        { projection: name, indexes: missing },
        'deferred indexes not found by name: kept during the rebuild',
      );
    return deferredIndexKeys(rows, named);
  }

  let liveSchema: string | null = null;
  async function currentSchema(): Promise<string> {
    if (liveSchema) return liveSchema;
    const { rows } = await db.query<{ schema: string }>('SELECT current_schema() AS schema');
    liveSchema = rows[0]?.schema ?? 'public';
    return liveSchema;
  }

  async function startRebuild(
    name: string,
    restart: boolean,
  ): Promise<{ position: string; processed: number }> {
    const { projection } = ctx.get(name);
    const schema = rebuildSchemaOf(name);
    const live = await currentSchema();
    return db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [REBUILD_LOCK, name]);
      const { rows } = await tx.query<{ position: string; processed: number }>(
        'SELECT position, processed FROM projection_rebuilds WHERE name = $1',
        [name],
      );
      const existing = rows[0];
      const { rowCount } = await tx.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      const deferred = await deferredKeys(tx, name, live, true);
      if (existing && rowCount > 0 && !restart) {
        // The copy is resumed only while it has the live tables' shape: a failed rebuild whose
        // cause was fixed in the live tables (a migration, a constraint) would fail on it again.
        const shapeIn = async (where: string) =>
          JSON.stringify((await tx.query(TABLE_SHAPE, [where, projection.tables, [...deferred]])).rows);
        if ((await shapeIn(schema)) === (await shapeIn(live))) return existing;
        logger.warn({ projection: name }, 'rebuild copy differs from the live tables: starting over');
      }
      await tx.query(`DROP SCHEMA IF EXISTS ${quote(schema)} CASCADE`);
      await tx.query(`CREATE SCHEMA ${quote(schema)}`);
      for (const table of projection.tables) {
        await tx.query(
          `CREATE TABLE ${quote(schema)}.${quote(table)} (LIKE ${quote(live)}.${quote(table)} INCLUDING ALL)`,
        );
      }
      // Each index of the copy is the live one's (same table and definition): a deferred one is
      // dropped, the others take the live one's name (through a temporary one, in case a copy's
      // generated name is another live index's), so a swap keeps the names migrations refer to.
      const copied = await tableIndexes(tx, schema, projection.tables);
      const liveIndexes = await tableIndexes(tx, live, projection.tables);
      const renames: [string, string][] = [];
      for (const index of copied) {
        if (index.plain && deferred.has(indexKey(index))) {
          await tx.query(`DROP INDEX ${quote(schema)}.${quote(index.index)}`);
          continue;
        }
        const twin = liveIndexes.findIndex((r) => indexKey(r) === indexKey(index));
        const liveName = twin < 0 ? undefined : liveIndexes.splice(twin, 1)[0]?.index;
        if (!liveName || liveName === index.index) continue;
        const temporary = `kosh_rebuild_index_${renames.length}`;
        await tx.query(`ALTER INDEX ${quote(schema)}.${quote(index.index)} RENAME TO ${quote(temporary)}`);
        renames.push([temporary, liveName]);
      }
      for (const [temporary, liveName] of renames)
        await tx.query(`ALTER INDEX ${quote(schema)}.${quote(temporary)} RENAME TO ${quote(liveName)}`);
      await tx.query(
        `INSERT INTO projection_rebuilds (name) VALUES ($1)
         ON CONFLICT (name) DO UPDATE SET position = '', processed = 0, started_at = now(), updated_at = now()`,
        [name],
      );
      return { position: '', processed: 0 };
    });
  }

  /** One rebuild batch: writes go to the rebuild schema through `search_path`. */
  async function applyRebuildBatch(
    name: string,
    expected: string,
    events: readonly RecordedEvent[],
  ): Promise<boolean> {
    const { projection, handles } = ctx.get(name);
    const last = events[events.length - 1];
    if (!last) throw new Error('applyRebuildBatch needs events');
    const handled = events.filter((event) => handles.has(event.type));
    const schema = rebuildSchemaOf(name);
    const live = await currentSchema();
    return db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [REBUILD_LOCK, name]);
      const { rowCount } = await tx.query(
        `UPDATE projection_rebuilds SET position = $3, processed = processed + $4, updated_at = now()
         WHERE name = $1 AND position = $2`,
        [name, expected, last.position, events.length],
      );
      if (rowCount !== 1) return false;
      // The copy is read by no one before the swap, whose commit waits for the WAL (and so for
      // every batch before it): a batch lost in a crash is replayed with its position.
      await tx.query(
        `SET LOCAL search_path TO ${quote(schema)}, ${quote(live)}; SET LOCAL synchronous_commit TO off`,
      );
      if (handled.length > 0) await (projection.bulk ?? projection).apply(tx, handled);
      return true;
    });
  }

  /**
   * Derives on the copy what the projection's bulk path left out of its batches (types.ts
   * `bulk`); again before each swap attempt, so batches applied since are counted too.
   */
  async function finishBulk(name: string): Promise<void> {
    const { projection } = ctx.get(name);
    const { bulk } = projection;
    if (!bulk) return;
    const schema = rebuildSchemaOf(name);
    const live = await currentSchema();
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [REBUILD_LOCK, name]);
      await tx.query(
        `SET LOCAL search_path TO ${quote(schema)}, ${quote(live)}; SET LOCAL synchronous_commit TO off`,
      );
      await bulk.finish(tx);
    });
  }

  /** Builds on the copy the deferred indexes the live tables have and it lacks (once the rows are in). */
  async function buildDeferredIndexes(name: string): Promise<void> {
    const { projection } = ctx.get(name);
    const schema = rebuildSchemaOf(name);
    const live = await currentSchema();
    const wanted = await tableIndexes(db, live, projection.tables);
    const deferred = await deferredKeys(db, name, live);
    const built = await tableIndexes(db, schema, projection.tables);
    const has = new Set(built.map(indexKey));
    for (const index of wanted) {
      if (!deferred.has(indexKey(index)) || has.has(indexKey(index))) continue;
      await db.query(
        `CREATE INDEX ${quote(index.index)} ON ${quote(schema)}.${quote(index.table)} USING ${index.definition}`,
      );
    }
  }

  /** Swaps the rebuilt tables in, unless events arrived since (then the caller replays them). */
  async function trySwap(name: string, position: string): Promise<boolean> {
    const { projection } = ctx.get(name);
    const schema = rebuildSchemaOf(name);
    const live = await currentSchema();
    await ctx.ensureCheckpoint(name);
    return db.transaction(async (tx) => {
      // Waits for an in-flight live batch; the live runner's compare-and-set then fails.
      await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [LIVE_LOCK, name]);
      await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [REBUILD_LOCK, name]);
      const rebuilt = await tx.query<{ position: string }>(
        'SELECT position FROM projection_rebuilds WHERE name = $1 FOR UPDATE',
        [name],
      );
      if (rebuilt.rows[0]?.position !== position) return false;
      const current = await tx.query<{ position: string }>(
        'SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
        [name],
      );
      // Never move a checkpoint backwards: a reader may already rely on what it saw.
      if ((current.rows[0]?.position ?? '') > position) return false;
      for (const table of projection.tables) {
        await tx.query(`DROP TABLE ${quote(live)}.${quote(table)}`);
        await tx.query(`ALTER TABLE ${quote(schema)}.${quote(table)} SET SCHEMA ${quote(live)}`);
      }
      await tx.query(`DROP SCHEMA ${quote(schema)} CASCADE`);
      await tx.query(
        `UPDATE projection_checkpoints SET position = $2, status = 'running', error = NULL, updated_at = now(),
                changes = changes + 1, changed_position = $2
         WHERE name = $1`,
        [name, position],
      );
      await tx.query('DELETE FROM projection_rebuilds WHERE name = $1', [name]);
      return true;
    });
  }

  async function rebuild(name: string, rebuildOptions: RebuildOptions = {}): Promise<RebuildResult> {
    ctx.get(name);
    const started = await startRebuild(name, rebuildOptions.restart ?? false);
    let { position, processed } = started;
    const resumedFrom = Number(processed);
    processed = resumedFrom;
    rebuildOptions.onProgress?.({ projection: name, processed, position, resumedFrom });
    logger.info({ projection: name, position, processed }, 'rebuild started');
    const reload = async () => {
      const { rows } = await db.query<{ position: string; processed: number }>(
        'SELECT position, processed FROM projection_rebuilds WHERE name = $1',
        [name],
      );
      if (!rows[0]) throw new Error(`Rebuild of ${name} was finished or discarded by another process`);
      position = rows[0].position;
      processed = Number(rows[0].processed);
    };
    // The next batch is read while the current one is applied (on pg, on another connection).
    const prefetch = (after: string) => {
      const read = ctx.readAfter(after, rebuildBatchSize);
      read.catch(() => {});
      return read;
    };
    let next = prefetch(position);
    for (;;) {
      const events = await next;
      const last = events[events.length - 1];
      if (!last) {
        await finishBulk(name);
        await buildDeferredIndexes(name);
        if (await trySwap(name, position)) break;
        // The live projection is ahead (it saw events this reader's horizon still hides).
        await sleep(20);
        await reload();
        next = prefetch(position);
        continue;
      }
      next = prefetch(last.position);
      if (await applyRebuildBatch(name, position, events)) {
        position = last.position;
        processed += events.length;
        rebuildOptions.onProgress?.({ projection: name, processed, position, resumedFrom });
      } else {
        // Another rebuild process of the same projection moved it: continue from its position.
        await reload();
        next = prefetch(position);
      }
    }
    ctx.watcher.advanced(name, position);
    logger.info({ projection: name, position, processed }, 'rebuild swapped in');
    return { processed, position };
  }

  /**
   * Rebuilds `names` in one pass over the log: each batch is read once and applied to every
   * projection (each in its own transaction and with its own position, as `rebuild` does, so a
   * killed run resumes alike), the projections' batches concurrently, so one folds in JS while
   * another's statements run. Projections that start from different positions (a resumed run)
   * go in groups, one group per position; one that another process moved, or whose swap found
   * the live projection ahead, finishes on its own with `rebuild`. `onProgress` is called per
   * projection; `onSwapped` as each is swapped in.
   */
  async function rebuildTogether(
    names: readonly string[],
    options: RebuildOptions & { onSwapped?: (name: string, result: RebuildResult) => void } = {},
  ): Promise<Map<string, RebuildResult>> {
    const results = new Map<string, RebuildResult>();
    const alone: string[] = [];
    const groups = new Map<string, { name: string; processed: number; resumedFrom: number }[]>();
    for (const name of names) {
      ctx.get(name);
      const { position, processed } = await startRebuild(name, options.restart ?? false);
      const resumedFrom = Number(processed);
      const group = groups.get(position) ?? [];
      group.push({ name, processed: resumedFrom, resumedFrom });
      groups.set(position, group);
      options.onProgress?.({ projection: name, processed: resumedFrom, position, resumedFrom });
    }
    for (const [start, members] of groups) {
      let position = start;
      let group = members;
      logger.info({ projections: group.map((m) => m.name), position }, 'rebuild started');
      const prefetch = (after: string) => {
        const read = ctx.readAfter(after, rebuildBatchSize);
        read.catch(() => {});
        return read;
      };
      let next = prefetch(position);
      while (group.length > 0) {
        const events = await next;
        const last = events[events.length - 1];
        if (!last) {
          // Each copy's end (its bulk path's rows, its deferred indexes) alongside the others',
          // as their batches were; then the swaps, one by one.
          await Promise.all(
            group.map((member) =>
              finishBulk(member.name)
                .then(() => buildDeferredIndexes(member.name))
                .catch((error: unknown) => {
                  throw new ProjectionRebuildError(member.name, error);
                }),
            ),
          );
          for (const member of group) {
            if (await trySwap(member.name, position)) {
              const result = { processed: member.processed, position };
              results.set(member.name, result);
              ctx.watcher.advanced(member.name, position);
              logger.info(
                { projection: member.name, position, processed: member.processed },
                'rebuild swapped in',
              );
              options.onSwapped?.(member.name, result);
            } else alone.push(member.name);
          }
          break;
        }
        next = prefetch(last.position);
        const applied = await Promise.all(
          group.map((member) =>
            applyRebuildBatch(member.name, position, events).catch((error: unknown) => {
              throw new ProjectionRebuildError(member.name, error);
            }),
          ),
        );
        group = group.filter((member, i) => {
          if (!applied[i]) alone.push(member.name);
          return applied[i];
        });
        position = last.position;
        for (const member of group) {
          member.processed += events.length;
          options.onProgress?.({
            projection: member.name,
            processed: member.processed,
            position,
            resumedFrom: member.resumedFrom,
          });
        }
      }
    }
    for (const name of alone) {
      const result = await rebuild(name, { ...options, restart: false }).catch((error: unknown) => {
        throw new ProjectionRebuildError(name, error);
      });
      results.set(name, result);
      options.onSwapped?.(name, result);
    }
    return results;
  }

  async function planRebuilds(names: readonly string[]): Promise<void> {
    for (const name of names) ctx.get(name);
    await db.query(
      `INSERT INTO projection_rebuilds (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING`,
      [names],
    );
  }

  async function pendingRebuilds(): Promise<string[]> {
    const { rows } = await db.query<{ name: string }>(
      'SELECT name FROM projection_rebuilds WHERE name = ANY($1) ORDER BY name',
      [ctx.names()],
    );
    return rows.map((r) => r.name);
  }

  return { rebuild, rebuildTogether, planRebuilds, pendingRebuilds };
}
