/**
 * Rebuild: replays the log into copies of the projection's `tables` in schema `rebuild_<name>`
 * (the projector writes unqualified names; `SET LOCAL search_path` points them there), with its
 * own position in `projection_rebuilds` so a killed rebuild resumes, then swaps the tables in
 * and sets the checkpoint in one transaction. Copies are `LIKE ... INCLUDING ALL`: projection
 * tables must not use `serial` columns or be referenced by foreign keys.
 */
import type { RecordedEvent } from '@kosh/domain';
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

const quote = (identifier: string) => `"${identifier}"`;

export function rebuildSchemaOf(name: string): string {
  return `rebuild_${name.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
}

/**
 * What a rebuild's copy must share with the live tables to be resumed: each table's columns with
 * their types, its constraints and its indexes (without the schema's name).
 */
const TABLE_SHAPE = `
  SELECT c.relname AS name,
    (SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) ||
              CASE WHEN a.attnotnull THEN ' not null' ELSE '' END, ', ' ORDER BY a.attnum)
       FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns,
    (SELECT string_agg(pg_get_constraintdef(k.oid), ', ' ORDER BY pg_get_constraintdef(k.oid))
       FROM pg_constraint k WHERE k.conrelid = c.oid) AS constraints,
    (SELECT string_agg(regexp_replace(pg_get_indexdef(i.indexrelid), '^.* USING ', ''), ', '
              ORDER BY regexp_replace(pg_get_indexdef(i.indexrelid), '^.* USING ', ''))
       FROM pg_index i WHERE i.indrelid = c.oid) AS indexes
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = $1 AND c.relname = ANY($2) AND c.relkind = 'r'
  ORDER BY c.relname`;

export function createRebuild(ctx: RunnerContext, { rebuildBatchSize }: { rebuildBatchSize: number }) {
  const { db, logger } = ctx;

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
      if (existing && rowCount > 0 && !restart) {
        // The copy is resumed only while it has the live tables' shape: a failed rebuild whose
        // cause was fixed in the live tables (a migration, a constraint) would fail on it again.
        const shapeIn = async (where: string) =>
          JSON.stringify((await tx.query(TABLE_SHAPE, [where, projection.tables])).rows);
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
      await tx.query(`SET LOCAL search_path TO ${quote(schema)}, ${quote(live)}`);
      if (handled.length > 0) await projection.apply(tx, handled);
      return true;
    });
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

  return { rebuild, planRebuilds, pendingRebuilds };
}
