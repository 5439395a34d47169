/**
 * The projection runner (DESIGN.md "Projections").
 *
 * - Live: each batch (up to `batchSize` events after the checkpoint) is applied in one
 *   transaction together with a compare-and-set of the checkpoint, under
 *   `pg_try_advisory_xact_lock`, so at most one runner applies a projection's batch at a time
 *   and a batch lands once even when jobs or processes overlap.
 * - Failure: a batch that keeps failing is retried with backoff, then applied event by event;
 *   the event that fails is recorded in `projection_dead_letters` and the projection is
 *   stopped (`projection_checkpoints.status`) until `resume`. Other projections go on.
 * - Rebuild: replays into copies of the projection's `tables` in schema `rebuild_<name>` (the
 *   projector writes unqualified names; `SET LOCAL search_path` points them there), with its
 *   own position in `projection_rebuilds` so a killed rebuild resumes, then swaps the tables
 *   in and sets the checkpoint in one transaction. Copies are `LIKE ... INCLUDING ALL`:
 *   projection tables must not use `serial` columns or be referenced by foreign keys.
 */
import type { RecordedEvent } from '@kosh/domain';
import type { Db, Queryable } from '@kosh/event-store/db';
import type { EventStore } from '@kosh/event-store/port';
import { type CheckpointWatcher, createCheckpointWatcher } from './checkpoint-watcher';
import type { Projection } from './types';

/** pino-compatible subset. */
export type RunnerLogger = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

export type ProjectionRunnerOptions = {
  db: Db;
  eventStore: EventStore;
  projections: readonly Projection[];
  /** Events per live batch (one transaction each). */
  batchSize?: number;
  /** Events per rebuild batch. */
  rebuildBatchSize?: number;
  /** Attempts of a failing batch before the projection is dead-lettered and stopped. */
  maxAttempts?: number;
  /** First retry delay; doubles on each attempt. */
  retryBackoffMs?: number;
  /** How often `waitFor` polls checkpoints advanced by other processes. */
  pollIntervalMs?: number;
  logger?: RunnerLogger;
};

export type RunOnceStatus =
  /** A batch was applied and the checkpoint moved. */
  | 'applied'
  /** Nothing after the checkpoint. */
  | 'idle'
  /** Another runner holds this projection's lock. */
  | 'busy'
  /** The projection is stopped (dead letter). */
  | 'stopped'
  /** The checkpoint moved under us (another runner or a rebuild swap); read again. */
  | 'moved';

export type RunOnceResult = { status: RunOnceStatus; events: number; position: string };
export type CatchUpResult = { events: number; position: string; stopped: boolean };

export type ProjectionStatus = {
  name: string;
  position: string;
  status: 'running' | 'stopped';
  error: string | null;
  /** Events after the checkpoint (counted up to LAG_COUNT_LIMIT). */
  lagEvents: number;
  /** Age of the oldest event not yet applied; 0 when caught up. */
  lagSeconds: number;
  /** The newest dead letter of a stopped projection. */
  deadLetter: { position: string; eventId: string; eventType: string; error: string; at: string } | null;
};

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

export interface ProjectionRunner {
  /** Applies at most one batch after the checkpoint. Throws what the projector throws. */
  runOnce(name: string): Promise<RunOnceResult>;
  /**
   * Applies batches until no more events; retries a failing batch with backoff, then records a
   * dead letter and stops this projection. Concurrent calls in one process share one loop.
   */
  catchUp(name: string): Promise<CatchUpResult>;
  /**
   * Resolves true once every named projection's checkpoint is at or past `position`; false after
   * `timeoutMs` or as soon as one of them is stopped.
   */
  waitFor(names: readonly string[], position: string, timeoutMs?: number): Promise<boolean>;
  /** Replays the log from zero into fresh tables, then swaps them in with the checkpoint. */
  rebuild(name: string, options?: RebuildOptions): Promise<RebuildResult>;
  /**
   * Records that these projections are to be rebuilt (a run of several), so a killed run can
   * tell the ones still to do (`pendingRebuilds`) from those already swapped in.
   */
  planRebuilds(names: readonly string[]): Promise<void>;
  /** Projections with a rebuild planned or unfinished. */
  pendingRebuilds(): Promise<string[]>;
  /** Every projection with its checkpoint, lag and state (reads the log after each checkpoint). */
  status(): Promise<ProjectionStatus[]>;
  /** Names of the stopped projections (one indexed query: readiness probes). */
  stoppedProjections(): Promise<string[]>;
  /** Clears the stopped state (after the projector is fixed); the next catch-up retries the event. */
  resume(name: string): Promise<void>;
  /** Stops polling; the db and event store stay open (the caller owns them). */
  close(): void;
}

/** Advisory lock namespaces (first key of `pg_*advisory_xact_lock(int, int)`). */
export const LIVE_LOCK = 0x6b6f7368; // 'kosh'
const REBUILD_LOCK = LIVE_LOCK + 1;
/** How long a catch-up keeps retrying for a committed event that readAll still hides. */
const HIDDEN_EVENT_WAIT_MS = 5000;
/** Lag is counted by reading events after the checkpoint, up to this many. */
export const LAG_COUNT_LIMIT = 10_000;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const quote = (identifier: string) => `"${identifier}"`;

const silentLogger: RunnerLogger = { info() {}, warn() {}, error() {} };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Failures that say nothing about the event: the database or the queue is briefly unreachable
 * (a restart, a killed connection, Redis down). They must never dead-letter an event; the batch
 * is simply tried again by the next wake-up.
 */
const TRANSIENT_CODES = new Set([
  '57P01', // admin_shutdown (pg_terminate_backend, a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
]);
export function isTransientError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, transient, message } = error as { code?: unknown; transient?: unknown; message?: unknown };
  if (transient === true) return true;
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  return (
    typeof message === 'string' &&
    /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message)
  );
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

export function rebuildSchemaOf(name: string): string {
  return `rebuild_${name.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
}

export function createProjectionRunner(options: ProjectionRunnerOptions): ProjectionRunner {
  const { db, eventStore } = options;
  const batchSize = options.batchSize ?? 500;
  const rebuildBatchSize = options.rebuildBatchSize ?? 2000;
  const maxAttempts = options.maxAttempts ?? 5;
  const retryBackoffMs = options.retryBackoffMs ?? 200;
  const logger = options.logger ?? silentLogger;

  const projections = new Map<string, { projection: Projection; handles: Set<string> }>();
  for (const projection of options.projections) {
    if (projections.has(projection.name)) throw new Error(`Duplicate projection ${projection.name}`);
    for (const table of projection.tables) {
      if (!IDENTIFIER.test(table)) throw new Error(`Projection ${projection.name}: bad table name ${table}`);
    }
    projections.set(projection.name, { projection, handles: new Set(projection.handles) });
  }
  const get = (name: string) => {
    const entry = projections.get(name);
    if (!entry) throw new Error(`Unknown projection ${name}`);
    return entry;
  };

  const watcher: CheckpointWatcher = createCheckpointWatcher({
    db,
    pollIntervalMs: options.pollIntervalMs ?? 50,
  });

  const ensured = new Set<string>();
  async function ensureCheckpoint(name: string): Promise<void> {
    if (ensured.has(name)) return;
    await db.query('INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [
      name,
    ]);
    ensured.add(name);
  }

  async function readCheckpoint(name: string): Promise<{ position: string; status: 'running' | 'stopped' }> {
    await ensureCheckpoint(name);
    const { rows } = await db.query<{ position: string; status: 'running' | 'stopped' }>(
      'SELECT position, status FROM projection_checkpoints WHERE name = $1',
      [name],
    );
    const row = rows[0];
    if (!row) throw new Error(`Checkpoint of ${name} vanished`);
    return row;
  }

  const readAfter = (position: string, limit: number) =>
    eventStore.readAll({ after: position === '' ? null : position, limit });

  async function tryLock(tx: Queryable, namespace: number, name: string): Promise<boolean> {
    const { rows } = await tx.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1::int, hashtext($2)) AS locked',
      [namespace, name],
    );
    return rows[0]?.locked === true;
  }

  /**
   * One batch in one transaction: the projection's writes plus a compare-and-set of its
   * checkpoint from `expected` to the last event's position. Events are read before the
   * transaction opens: on PGlite the store's read would otherwise wait for this transaction.
   */
  async function applyBatch(
    name: string,
    expected: string,
    events: readonly RecordedEvent[],
  ): Promise<Exclude<RunOnceStatus, 'idle'>> {
    const { projection, handles } = get(name);
    const last = events[events.length - 1];
    if (!last) throw new Error('applyBatch needs events');
    const handled = events.filter((event) => handles.has(event.type));
    const status = await db.transaction(async (tx) => {
      if (!(await tryLock(tx, LIVE_LOCK, name))) return 'busy' as const;
      const { rows } = await tx.query<{ position: string; status: string }>(
        'SELECT position, status FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
        [name],
      );
      const row = rows[0];
      if (!row) throw new Error(`Checkpoint of ${name} vanished`);
      if (row.status === 'stopped') return 'stopped' as const;
      if (row.position !== expected) return 'moved' as const;
      if (handled.length > 0) await projection.apply(tx, handled);
      await tx.query('UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1', [
        name,
        last.position,
      ]);
      return 'applied' as const;
    });
    if (status === 'applied') watcher.advanced(name, last.position);
    return status;
  }

  async function runOnce(name: string): Promise<RunOnceResult> {
    get(name);
    const checkpoint = await readCheckpoint(name);
    if (checkpoint.status === 'stopped')
      return { status: 'stopped', events: 0, position: checkpoint.position };
    const events = await readAfter(checkpoint.position, batchSize);
    const last = events[events.length - 1];
    if (!last) return { status: 'idle', events: 0, position: checkpoint.position };
    const status = await applyBatch(name, checkpoint.position, events);
    return status === 'applied'
      ? { status, events: events.length, position: last.position }
      : { status, events: 0, position: checkpoint.position };
  }

  async function recordDeadLetter(
    name: string,
    expected: string,
    event: RecordedEvent,
    error: unknown,
  ): Promise<boolean> {
    const message = errorMessage(error);
    const recorded = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [LIVE_LOCK, name]);
      const { rows } = await tx.query<{ position: string }>(
        'SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
        [name],
      );
      if (rows[0]?.position !== expected) return false;
      await tx.query(
        `INSERT INTO projection_dead_letters (projection, position, event_id, event_type, error)
         VALUES ($1, $2, $3, $4, $5)`,
        [name, event.position, event.id, event.type, message],
      );
      await tx.query(
        `UPDATE projection_checkpoints SET status = 'stopped', error = $2, updated_at = now() WHERE name = $1`,
        [name, message],
      );
      return true;
    });
    if (recorded) {
      watcher.stopped(name);
      logger.error(
        {
          projection: name,
          position: event.position,
          eventId: event.id,
          eventType: event.type,
          correlationId: event.metadata.correlationId,
          message: error instanceof Error ? error.message : String(error),
          err: error,
        },
        `projection ${name} stopped: its projector keeps failing on event ${event.id} (dead letter recorded)`,
      );
    }
    return recorded;
  }

  /**
   * After a batch failed `maxAttempts` times: apply it one event at a time so the events
   * before the failing one land, and the dead letter names the event that fails.
   */
  async function isolateFailure(name: string): Promise<RunOnceResult> {
    const checkpoint = await readCheckpoint(name);
    if (checkpoint.status === 'stopped')
      return { status: 'stopped', events: 0, position: checkpoint.position };
    const events = await readAfter(checkpoint.position, batchSize);
    let position = checkpoint.position;
    let applied = 0;
    for (const event of events) {
      try {
        const status = await applyBatch(name, position, [event]);
        if (status !== 'applied') return { status, events: applied, position };
      } catch (error) {
        if (isTransientError(error)) throw error;
        await recordDeadLetter(name, position, event, error);
        return { status: 'stopped', events: applied, position };
      }
      applied++;
      position = event.position;
    }
    return { status: applied > 0 ? 'applied' : 'idle', events: applied, position };
  }

  async function runWithRetries(name: string): Promise<RunOnceResult> {
    for (let attempt = 1; attempt < maxAttempts; attempt++) {
      try {
        return await runOnce(name);
      } catch (error) {
        if (isTransientError(error)) throw error;
        logger.warn({ projection: name, attempt, err: error }, 'projection batch failed; retrying');
        await sleep(retryBackoffMs * 2 ** (attempt - 1));
      }
    }
    return isolateFailure(name);
  }

  const inflight = new Map<string, { again: boolean; promise: Promise<CatchUpResult> }>();

  // The newest position this process heard committed (its own appends and NOTIFY from others).
  // readAll hides a committed event while an older transaction is still open, even one of
  // another projection's batches; a catch-up that stops short of it would leave it to the
  // safety-net tick, seconds later, and a read-your-writes wait would time out.
  let latestCommitted = '';
  let unsubscribe: (() => void) | null = null;
  function followCommits(): void {
    if (unsubscribe) return;
    unsubscribe = eventStore.subscribe((position) => {
      if (position && position > latestCommitted) latestCommitted = position;
    });
  }

  async function catchUpLoop(name: string, state: { again: boolean }): Promise<CatchUpResult> {
    let events = 0;
    let busyWaits = 0;
    let hiddenSince = 0;
    for (;;) {
      state.again = false;
      const result = await runWithRetries(name);
      events += result.events;
      if (result.status === 'stopped') return { events, position: result.position, stopped: true };
      if (result.status === 'applied' || result.status === 'moved') continue;
      if (result.status === 'busy') {
        // Another process is applying; keep checking until it has caught up, so an event
        // that arrived meanwhile is never left waiting for the safety-net tick.
        busyWaits++;
        if (busyWaits > 200) return { events, position: result.position, stopped: false };
        await sleep(Math.min(25 * busyWaits, 250));
        continue;
      }
      if (state.again) continue;
      if (latestCommitted > result.position) {
        hiddenSince ||= Date.now();
        if (Date.now() - hiddenSince < HIDDEN_EVENT_WAIT_MS) {
          await sleep(10);
          continue;
        }
      }
      return { events, position: result.position, stopped: false };
    }
  }

  function catchUp(name: string): Promise<CatchUpResult> {
    get(name);
    followCommits();
    const running = inflight.get(name);
    if (running) {
      running.again = true;
      return running.promise;
    }
    const state = { again: false } as { again: boolean; promise: Promise<CatchUpResult> };
    state.promise = catchUpLoop(name, state).finally(() => inflight.delete(name));
    inflight.set(name, state);
    return state.promise;
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
    const { projection } = get(name);
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
      if (existing && rowCount > 0 && !restart) return existing;
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
    const { projection, handles } = get(name);
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
    const { projection } = get(name);
    const schema = rebuildSchemaOf(name);
    const live = await currentSchema();
    await ensureCheckpoint(name);
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
        `UPDATE projection_checkpoints SET position = $2, status = 'running', error = NULL, updated_at = now()
         WHERE name = $1`,
        [name, position],
      );
      await tx.query('DELETE FROM projection_rebuilds WHERE name = $1', [name]);
      return true;
    });
  }

  async function rebuild(name: string, rebuildOptions: RebuildOptions = {}): Promise<RebuildResult> {
    get(name);
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
      const read = readAfter(after, rebuildBatchSize);
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
    watcher.advanced(name, position);
    logger.info({ projection: name, position, processed }, 'rebuild swapped in');
    return { processed, position };
  }

  async function status(): Promise<ProjectionStatus[]> {
    for (const name of projections.keys()) await ensureCheckpoint(name);
    const { rows } = await db.query<Pick<ProjectionStatus, 'name' | 'position' | 'status' | 'error'>>(
      'SELECT name, position, status, error FROM projection_checkpoints WHERE name = ANY($1) ORDER BY name',
      [[...projections.keys()]],
    );
    const letters = await db.query<{
      projection: string;
      position: string;
      event_id: string;
      event_type: string;
      error: string;
      at: string;
    }>(
      `SELECT DISTINCT ON (projection) projection, position, event_id, event_type, error,
              to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
         FROM projection_dead_letters WHERE projection = ANY($1) ORDER BY projection, at DESC, id DESC`,
      [rows.filter((r) => r.status === 'stopped').map((r) => r.name)],
    );
    const now = Date.now();
    // Checkpoints at the same position share one read of the log.
    const behind = new Map<string, Promise<RecordedEvent[]>>();
    const eventsAfter = (position: string) => {
      let read = behind.get(position);
      if (!read) {
        read = readAfter(position, LAG_COUNT_LIMIT);
        behind.set(position, read);
      }
      return read;
    };
    return Promise.all(
      rows.map(async (row) => {
        const events = await eventsAfter(row.position);
        const oldest = events[0]?.metadata.recordedAt;
        const letter = letters.rows.find((l) => l.projection === row.name);
        return {
          ...row,
          lagEvents: events.length,
          lagSeconds: oldest ? Math.max(0, (now - Date.parse(oldest)) / 1000) : 0,
          deadLetter: letter
            ? {
                position: letter.position,
                eventId: letter.event_id,
                eventType: letter.event_type,
                error: letter.error,
                at: letter.at,
              }
            : null,
        };
      }),
    );
  }

  async function planRebuilds(names: readonly string[]): Promise<void> {
    for (const name of names) get(name);
    await db.query(
      `INSERT INTO projection_rebuilds (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING`,
      [names],
    );
  }

  async function pendingRebuilds(): Promise<string[]> {
    const { rows } = await db.query<{ name: string }>(
      'SELECT name FROM projection_rebuilds WHERE name = ANY($1) ORDER BY name',
      [[...projections.keys()]],
    );
    return rows.map((r) => r.name);
  }

  async function stoppedProjections(): Promise<string[]> {
    const { rows } = await db.query<{ name: string }>(
      `SELECT name FROM projection_checkpoints WHERE status = 'stopped' AND name = ANY($1) ORDER BY name`,
      [[...projections.keys()]],
    );
    return rows.map((r) => r.name);
  }

  async function resume(name: string): Promise<void> {
    get(name);
    await db.query(
      `UPDATE projection_checkpoints SET status = 'running', error = NULL, updated_at = now() WHERE name = $1`,
      [name],
    );
    watcher.resumed(name);
  }

  return {
    runOnce,
    catchUp,
    waitFor: (names, position, timeoutMs = 5000) => watcher.waitFor(names, position, timeoutMs),
    rebuild,
    planRebuilds,
    pendingRebuilds,
    status,
    stoppedProjections,
    resume,
    close() {
      unsubscribe?.();
      watcher.close();
    },
  };
}
