import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Db, EventStore, Queryable } from '@kosh/event-store';
import {
  createPgDb,
  createPgliteDb,
  createPostgresEventStore,
  eventStoreMigrations,
  migrate,
} from '@kosh/event-store';
import { createTestDatabase, type TestDatabase } from '@kosh/event-store/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runnerMigrations } from '../registry';
import { createCheckpointWatcher } from './checkpoint-watcher';
import { createRunnerContext, LIVE_LOCK } from './context';
import {
  type CatchUpResult,
  createProjectionRunner,
  type ProjectionRunner,
  type ProjectionRunnerOptions,
} from './runner';
import {
  APPLIED_LOG_TABLE_SQL,
  amountAdded,
  poisonSensitiveProjection,
  seedEvents,
  TOTALS_INDEXES_SQL,
  TOTALS_TABLE_SQL,
  tableDigest,
  totalsProjection,
} from './testing/test-projections';
import type { Projection } from './types';

const TOTALS = 'runner_test_totals';
const POISONED = 'runner_test_poisoned';

/** What the totals read model must hold, computed straight from the log. */
const EXPECTED_TOTALS = `(SELECT stream_id, count(*)::int AS events, sum((data->>'amount')::bigint)::bigint AS amount,
  max(stream_version) AS version FROM events WHERE type = 'AmountAdded' GROUP BY stream_id)`;

const totalsDigest = (q: Queryable) => tableDigest(q, 'runner_test_totals', 'stream_id');
const expectedDigest = (q: Queryable) => tableDigest(q, EXPECTED_TOTALS, 'stream_id');

/**
 * Catches up until the checkpoint reaches `position` (or the projection stops). One catch-up
 * may legitimately end early: readAll holds back events while any transaction on the cluster
 * that started before them is still open, and other test files share this server.
 */
async function catchUpTo(runner: ProjectionRunner, name: string, position: string): Promise<CatchUpResult> {
  const deadline = Date.now() + 20_000;
  let events = 0;
  for (;;) {
    const result = await runner.catchUp(name);
    events += result.events;
    if (result.stopped || result.position >= position) return { ...result, events };
    if (Date.now() > deadline) throw new Error(`${name} stuck at ${result.position}, wanted ${position}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function prepare(db: Db): Promise<void> {
  await migrate(db, [eventStoreMigrations, runnerMigrations]);
  await db.query(TOTALS_TABLE_SQL);
  for (const sql of TOTALS_INDEXES_SQL) await db.query(sql);
  await db.query(APPLIED_LOG_TABLE_SQL);
}

/** The indexes of the totals in `schema`, by name, with their definitions (schema left out). */
async function totalsIndexes(q: Queryable, schema = 'public'): Promise<string[]> {
  const { rows } = await q.query<{ index: string }>(
    `SELECT indexname || ' ' || regexp_replace(indexdef, '^.* USING ', '') AS index
       FROM pg_indexes WHERE schemaname = $1 AND tablename = 'runner_test_totals' ORDER BY 1`,
    [schema],
  );
  return rows.map((r) => r.index);
}

describe('projection runner on PostgreSQL', () => {
  let database: TestDatabase;
  let store: EventStore;
  const opened: { runner: ProjectionRunner; db?: Db }[] = [];

  function runnerOn(db: Db, options: Partial<ProjectionRunnerOptions> = {}): ProjectionRunner {
    const runner = createProjectionRunner({
      db,
      eventStore: createPostgresEventStore(db),
      projections: [totalsProjection()],
      retryBackoffMs: 5,
      ...options,
    });
    opened.push({ runner });
    return runner;
  }

  /** A runner with its own pool, as another process would have. */
  function otherProcess(options: Partial<ProjectionRunnerOptions> = {}): ProjectionRunner {
    const db = createPgDb(database.url, { max: 3 });
    const runner = runnerOn(db, options);
    opened.push({ runner, db });
    return runner;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    await prepare(database.db);
    store = createPostgresEventStore(database.db);
  });

  beforeEach(async () => {
    await database.db.query(
      `TRUNCATE events, runner_test_totals, runner_test_applied, projection_checkpoints,
        projection_dead_letters, projection_rebuilds;
       DROP SCHEMA IF EXISTS rebuild_runner_test_totals CASCADE`,
    );
  });

  afterEach(async () => {
    for (const { runner, db } of opened.splice(0)) {
      runner.close();
      await db?.close();
    }
  });

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('catches up, and the same events delivered twice leave the read model unchanged', async () => {
    const last = await seedEvents(store, { count: 1200 });
    const runner = runnerOn(database.db);

    const first = await catchUpTo(runner, TOTALS, last);
    expect(first).toEqual({ events: 1320, position: last, stopped: false });
    const digest = await totalsDigest(database.db);
    expect(digest).toBe(await expectedDigest(database.db));

    // Redelivery: rewind the checkpoint and let two runners replay the whole log at once.
    await database.db.query(`UPDATE projection_checkpoints SET position = '' WHERE name = $1`, [TOTALS]);
    const other = otherProcess();
    await Promise.all([catchUpTo(runner, TOTALS, last), catchUpTo(other, TOTALS, last)]);
    expect(await totalsDigest(database.db)).toBe(digest);
    expect((await runner.status())[0]).toMatchObject({ name: TOTALS, position: last, status: 'running' });
  });

  /** The totals, logging which runner applied each event (and taking `sleepSeconds` more). */
  const loggingProjection = (runnerId: string, sleepSeconds = 0) =>
    totalsProjection({
      onApply: async (tx, ids) => {
        await tx.query('INSERT INTO runner_test_applied (event_id, runner) SELECT unnest($1::text[]), $2', [
          ids,
          runnerId,
        ]);
        if (sleepSeconds > 0) await tx.query('SELECT pg_sleep($1)', [sleepSeconds]);
      },
    });

  it('commits a read model without waiting for the WAL flush, and any other consumer durably', async () => {
    const last = await seedEvents(store, { count: 30 });
    const seen: Record<string, string[]> = { durable: [], relaxed: [] };
    const recording = (key: 'durable' | 'relaxed') =>
      totalsProjection({
        onApply: async (tx) => {
          const { rows } = await tx.query<{ s: string }>(
            "SELECT current_setting('synchronous_commit') AS s",
            [],
          );
          seen[key]?.push(rows[0]?.s ?? '');
        },
      });
    // One connection, so the check after the batches asks the very session they ran on.
    const db = createPgDb(database.url, { max: 1 });
    const durable = runnerOn(db, { projections: [recording('durable')], batchSize: 10 });
    opened.push({ runner: durable, db });
    await catchUpTo(durable, TOTALS, last);
    await database.db.query(`UPDATE projection_checkpoints SET position = '' WHERE name = $1`, [TOTALS]);
    const relaxed = { ...recording('relaxed'), asyncCommit: true };
    await catchUpTo(runnerOn(db, { projections: [relaxed], batchSize: 10 }), TOTALS, last);

    expect(seen.durable?.length).toBeGreaterThan(0);
    expect(new Set(seen.durable)).toEqual(new Set(['on']));
    expect(seen.relaxed?.length).toBeGreaterThan(0);
    expect(new Set(seen.relaxed)).toEqual(new Set(['off']));
    // Only that transaction: the connection it ran on is back to durable commits.
    const { rows } = await db.query<{ s: string }>("SELECT current_setting('synchronous_commit') AS s", []);
    expect(rows[0]?.s).toBe('on');
    expect(await totalsDigest(database.db)).toBe(await expectedDigest(database.db));
  });

  it("commits a rebuild's batches without waiting for the WAL flush, durable read model or not", async () => {
    await seedEvents(store, { count: 30 });
    const seen: string[] = [];
    const durable = {
      ...totalsProjection({
        onApply: async (tx) => {
          const { rows } = await tx.query<{ s: string }>(
            "SELECT current_setting('synchronous_commit') AS s",
            [],
          );
          seen.push(rows[0]?.s ?? '');
        },
      }),
      asyncCommit: false,
    };
    const db = createPgDb(database.url, { max: 1 });
    const runner = runnerOn(db, { projections: [durable], rebuildBatchSize: 10 });
    opened.push({ runner, db });
    await runner.rebuild(TOTALS);

    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(new Set(seen)).toEqual(new Set(['off']));
    const { rows } = await db.query<{ s: string }>("SELECT current_setting('synchronous_commit') AS s", []);
    expect(rows[0]?.s).toBe('on');
    expect(await totalsDigest(database.db)).toBe(await expectedDigest(database.db));
  });

  it('never lets two runners apply the same batch', async () => {
    const last = await seedEvents(store, { count: 1000 });
    const a = otherProcess({ projections: [loggingProjection('a', 0.005)], batchSize: 50 });
    const b = otherProcess({ projections: [loggingProjection('b', 0.005)], batchSize: 50 });

    await Promise.all([a.catchUp(TOTALS), b.catchUp(TOTALS), a.catchUp(TOTALS), b.catchUp(TOTALS)]);
    await Promise.all([catchUpTo(a, TOTALS, last), catchUpTo(b, TOTALS, last)]);

    const { rows } = await database.db.query<{ applied: number; distinct_ids: number }>(
      'SELECT count(*)::int AS applied, count(DISTINCT event_id)::int AS distinct_ids FROM runner_test_applied',
    );
    expect(rows[0]).toEqual({ applied: 1000, distinct_ids: 1000 });
    expect(await totalsDigest(database.db)).toBe(await expectedDigest(database.db));
  });

  it('starts a batch where its last one ended, yet follows a checkpoint moved by another process or rewound', async () => {
    const applied = async () =>
      (
        await database.db.query<{ runner: string; n: number; distinct_ids: number }>(
          `SELECT runner, count(*)::int AS n, count(DISTINCT event_id)::int AS distinct_ids
             FROM runner_test_applied GROUP BY runner ORDER BY runner`,
        )
      ).rows;
    const a = otherProcess({ projections: [loggingProjection('a')] });
    const b = otherProcess({ projections: [loggingProjection('b')] });

    const first = await seedEvents(store, { count: 100 });
    await catchUpTo(a, TOTALS, first);
    // Another process takes the next events; a's next batch would start where a left off.
    const second = await seedEvents(store, { count: 50 });
    await catchUpTo(b, TOTALS, second);
    const third = await seedEvents(store, { count: 30 });
    await catchUpTo(a, TOTALS, third);
    expect(await applied()).toEqual([
      { runner: 'a', n: 130, distinct_ids: 130 },
      { runner: 'b', n: 50, distinct_ids: 50 },
    ]);
    expect(await totalsDigest(database.db)).toBe(await expectedDigest(database.db));

    // Rewound to replay: a, with nothing after where it left off, replays from the checkpoint.
    await database.db.query('TRUNCATE runner_test_applied');
    await database.db.query(`UPDATE projection_checkpoints SET position = '' WHERE name = $1`, [TOTALS]);
    const replay = await catchUpTo(a, TOTALS, third);
    expect(replay.events).toBeGreaterThanOrEqual(180);
    expect(await applied()).toEqual([{ runner: 'a', n: 180, distinct_ids: 180 }]);
  });

  it('read models with nothing in a batch move their checkpoints together, each under its own lock and compare-and-set', async () => {
    /** A consumer of a type this log never holds: its batches only move its checkpoint. */
    const idle = (name: string): Projection => ({
      name,
      handles: ['NeverRecorded'],
      tables: [],
      async apply() {
        throw new Error(`${name} was given events it does not handle`);
      },
    });
    const [a, b, c, d] = [
      'runner_test_idle_a',
      'runner_test_idle_b',
      'runner_test_idle_c',
      'runner_test_idle_d',
    ];
    const names = [a, b, c, d];
    const runner = otherProcess({ projections: [totalsProjection(), ...names.map(idle)] });
    const first = await seedEvents(store, { count: 30 });
    // c is stopped. A first round: each reads its checkpoint (one query each, answered apart).
    await database.db.query(
      `INSERT INTO projection_checkpoints (name, position, status) VALUES ($1, '', 'running'), ($2, '', 'running'),
         ($3, '', 'stopped'), ($4, '', 'running')`,
      names,
    );
    const warm = await Promise.all([TOTALS, ...names].map((name) => runner.runOnce(name)));
    expect(warm.map((r) => r.status)).toEqual(['applied', 'applied', 'applied', 'stopped', 'applied']);
    // The next round starts where this process left each (no checkpoint read) and shares one read
    // of the log, as a worker's round does. Meanwhile b's live lock is held by another applier.
    const last = await seedEvents(store, { count: 30 });
    let release!: () => void;
    let locked!: () => void;
    const held = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = database.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LIVE_LOCK, b]);
      locked();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    await held;

    const results = await Promise.all([TOTALS, ...names].map((name) => runner.runOnce(name)));
    release();
    await holder;
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'busy', 'stopped', 'applied']);
    const { rows } = await database.db.query<{ name: string; position: string; status: string; at: string }>(
      `SELECT name, position, status, updated_at::text AS at FROM projection_checkpoints
        WHERE name = ANY($1) ORDER BY name`,
      [names],
    );
    expect(rows.map(({ name, position, status }) => ({ name, position, status }))).toEqual([
      { name: a, position: last, status: 'running' },
      { name: b, position: first, status: 'running' },
      { name: c, position: '', status: 'stopped' },
      { name: d, position: last, status: 'running' },
    ]);
    // a and d moved in one transaction (now() is the transaction's start), not one each.
    expect(rows[0]?.at).toBe(rows[3]?.at);
    expect(await runner.waitFor([a, d], last, 1000)).toBe(true);

    // b, once free, catches up on its own; the totals were applied as ever.
    expect(await catchUpTo(runner, b, last)).toMatchObject({ position: last, stopped: false });
    expect(await totalsDigest(database.db)).toBe(await expectedDigest(database.db));
  });

  it('reads of the same range asked together or while one runs share one query; a later read is a new one', async () => {
    const reads: (string | null)[] = [];
    const counting: EventStore = {
      ...store,
      readAll: (options) => {
        reads.push(options?.after ?? null);
        return store.readAll(options);
      },
    };
    const ctx = createRunnerContext({
      db: database.db,
      eventStore: counting,
      projections: [totalsProjection()],
      logger: { info() {}, warn() {}, error() {} },
      watcher: createCheckpointWatcher({ db: database.db, pollIntervalMs: 50 }),
    });
    const first = await seedEvents(store, { count: 20 });
    // A command's catch-ups of the transactions and the ledger ask for the same range at once.
    const [a, b] = await Promise.all([ctx.readAfter(first, 100), ctx.readAfter(first, 100)]);
    expect(reads).toEqual([first]);
    expect(a).toEqual([]);
    expect(b).toBe(a);

    // Asked after the first read came back: a query of its own (it may see newer events).
    await ctx.readAfter(first, 100);
    expect(reads).toEqual([first, first]);

    // Asked while a read of the same range runs (a statement import's one big event, read by
    // every projection woken together): the running read is shared.
    const running = ctx.readAfter(first, 100);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toEqual([first, first, first]);
    const joined = ctx.readAfter(first, 100);
    expect(await joined).toBe(await running);
    expect(reads).toEqual([first, first, first]);
  });

  it('dead-letters a projector that keeps failing and stops only that projection', async () => {
    const beforePoison = await seedEvents(store, { count: 300 });
    const poison = amountAdded(7, { poison: true });
    const { position: poisonPosition } = await store.appendToStream('test-poison', [poison], {
      expectedVersion: 'any',
    });
    const last = await seedEvents(store, { count: 300 });
    const runner = runnerOn(database.db, {
      projections: [totalsProjection(), poisonSensitiveProjection(POISONED)],
      maxAttempts: 3,
    });

    const [totals, poisoned] = await Promise.all([
      catchUpTo(runner, TOTALS, last),
      catchUpTo(runner, POISONED, last),
    ]);

    expect(totals.stopped).toBe(false);
    expect(await totalsDigest(database.db)).toBe(await expectedDigest(database.db));
    expect(poisoned).toMatchObject({ stopped: true, position: beforePoison });
    const letters = await database.db.query(
      'SELECT projection, position, event_id, error FROM projection_dead_letters',
    );
    expect(letters.rows).toEqual([
      {
        projection: POISONED,
        position: poisonPosition,
        event_id: poison.id,
        error: expect.stringContaining(poison.id),
      },
    ]);
    const applied = await database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM runner_test_applied',
    );
    expect(applied.rows[0]?.n).toBe(300);

    // Later events still reach the healthy projection; the stopped one stays where it stopped.
    const later = await seedEvents(store, { count: 50 });
    await catchUpTo(runner, TOTALS, later);
    expect(await runner.waitFor([TOTALS], later, 1000)).toBe(true);
    expect(await runner.catchUp(POISONED)).toMatchObject({ stopped: true, events: 0 });
    expect(await runner.waitFor([TOTALS, POISONED], later, 300)).toBe(false);
    const statuses = await runner.status();
    expect(statuses.find((s) => s.name === POISONED)).toMatchObject({
      status: 'stopped',
      position: beforePoison,
    });
  });

  it('waitFor resolves once the checkpoint is reached, also when another process advanced it', async () => {
    const last = await seedEvents(store, { count: 100 });
    const worker = runnerOn(database.db);
    const api = otherProcess({ pollIntervalMs: 20 });

    expect(await api.waitFor([TOTALS], last, 200)).toBe(false);
    const waiting = [worker.waitFor([TOTALS], last, 5000), api.waitFor([TOTALS], last, 5000)];
    await catchUpTo(worker, TOTALS, last);
    expect(await Promise.all(waiting)).toEqual([true, true]);
    expect(await api.waitFor([TOTALS], last, 1)).toBe(true);
  });

  it('a catch-up does not stop short of a committed event that an older open transaction hides', async () => {
    const runner = runnerOn(database.db);
    await runner.catchUp(TOTALS);
    let xidTaken!: () => void;
    let release!: () => void;
    const taken = new Promise<void>((resolve) => {
      xidTaken = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const older = database.db.transaction(async (tx) => {
      await tx.query('SELECT pg_current_xact_id()');
      xidTaken();
      await released;
    });
    await taken;
    const { position } = await store.appendToStream('test-hidden', [amountAdded(5)], {
      expectedVersion: 'any',
    });

    const caughtUp = runner.catchUp(TOTALS);
    expect(await runner.waitFor([TOTALS], position, 200)).toBe(false);
    release();
    await older;
    expect(await caughtUp).toMatchObject({ position, stopped: false });
  });

  it('a rebuild killed midway and restarted ends identical to a clean rebuild', async () => {
    const seeded = await seedEvents(store, { count: 6000, perAppend: 50 });
    const runner = runnerOn(database.db);
    await catchUpTo(runner, TOTALS, seeded);
    const live = await totalsDigest(database.db);

    const indexes = await totalsIndexes(database.db);
    expect(indexes).toEqual([
      'runner_test_totals_by_amount btree (amount, stream_id)',
      'runner_test_totals_by_events btree (events) WHERE (events > 1)',
      'runner_test_totals_pkey btree (stream_id)',
    ]);

    await killRebuildMidway(database.url, 1000);
    const { rows } = await database.db.query<{ processed: number }>(
      'SELECT processed FROM projection_rebuilds WHERE name = $1',
      [TOTALS],
    );
    expect(rows[0]?.processed).toBeGreaterThanOrEqual(1000);
    expect(rows[0]?.processed).toBeLessThan(6600);
    // The copy is kept without the deferred index until its rows are in; the others have the live names.
    expect(await totalsIndexes(database.db, `rebuild_${TOTALS}`)).toEqual(
      indexes.filter((index) => !index.startsWith('runner_test_totals_by_amount')),
    );

    // Events that arrive while the rebuild is down are replayed too.
    const last = await seedEvents(store, { count: 200 });
    let resumedFrom = 0;
    const resumed = await runner.rebuild(TOTALS, {
      onProgress: (progress) => {
        resumedFrom = progress.resumedFrom;
      },
    });
    // It went on from the copy (same shape as the live table but for the deferred index).
    expect(resumedFrom).toBe(rows[0]?.processed);
    // Swapped in with every index, under the live names.
    expect(await totalsIndexes(database.db)).toEqual(indexes);
    // Every event up to where the rebuild swapped in was replayed exactly once across both runs.
    expect(resumed.processed).toBe(await eventsUpTo(database.db, resumed.position));
    await catchUpTo(runner, TOTALS, last);
    const afterResume = await totalsDigest(database.db);
    expect(afterResume).toBe(await expectedDigest(database.db));
    expect(afterResume).not.toBe(live);

    // The swap renews the read model's change count (the answer cache's tag), rows or not.
    const changes = async () =>
      (
        await database.db.query<{ changes: string }>(
          'SELECT changes::text FROM projection_checkpoints WHERE name = $1',
          [TOTALS],
        )
      ).rows[0]?.changes;
    const countBefore = Number(await changes());
    const clean = await runner.rebuild(TOTALS, { restart: true });
    expect(Number(await changes())).toBe(countBefore + 1);
    expect(clean.processed).toBe(await eventsUpTo(database.db, clean.position));
    await catchUpTo(runner, TOTALS, last);
    expect(await totalsDigest(database.db)).toBe(afterResume);
    expect(await totalsIndexes(database.db)).toEqual(indexes);
    expect((await runner.status())[0]).toMatchObject({ position: last, status: 'running' });
    const schemas = await database.db.query(`SELECT 1 FROM pg_namespace WHERE nspname LIKE 'rebuild_%'`);
    expect(schemas.rows).toEqual([]);
  });

  it('status counts the lag; a rebuild whose projector failed stays pending until restart discards it', async () => {
    const seeded = await seedEvents(store, { count: 300, perAppend: 50 });
    let broken = true;
    const runner = runnerOn(database.db, {
      projections: [
        totalsProjection({
          onApply: async () => {
            if (broken) throw new Error('projector bug');
          },
        }),
      ],
    });
    expect((await runner.status())[0]).toMatchObject({ name: TOTALS, lagEvents: 330, deadLetter: null }); // 300 + 30 others;
    expect((await runner.status())[0]?.lagSeconds).toBeGreaterThanOrEqual(0);

    await runner.planRebuilds([TOTALS]);
    expect(await runner.pendingRebuilds()).toEqual([TOTALS]);
    await expect(runner.rebuild(TOTALS)).rejects.toThrow('projector bug');
    const leftover = await database.db.query(
      `SELECT 1 FROM pg_namespace WHERE nspname = 'rebuild_runner_test_totals'`,
    );
    expect(leftover.rows).toHaveLength(1);
    expect(await runner.pendingRebuilds()).toEqual([TOTALS]);

    broken = false;
    const rebuilt = await runner.rebuild(TOTALS, { restart: true });
    expect(rebuilt.processed).toBe(await eventsUpTo(database.db, rebuilt.position));
    await catchUpTo(runner, TOTALS, seeded);
    expect(await totalsDigest(database.db)).toBe(await expectedDigest(database.db));
    expect(await runner.pendingRebuilds()).toEqual([]);
    expect((await runner.status())[0]).toMatchObject({ lagEvents: 0, lagSeconds: 0, status: 'running' });
    const schemas = await database.db.query(`SELECT 1 FROM pg_namespace WHERE nspname LIKE 'rebuild_%'`);
    expect(schemas.rows).toEqual([]);
  });

  it('a rebuild swaps in while the live projection keeps running', async () => {
    const seeded = await seedEvents(store, { count: 2000 });
    const live = otherProcess();
    const rebuilder = runnerOn(database.db, { rebuildBatchSize: 100 });
    await catchUpTo(live, TOTALS, seeded);
    const progress: number[] = [];
    const rebuilt = rebuilder.rebuild(TOTALS, { onProgress: ({ processed }) => progress.push(processed) });
    const last = await seedEvents(store, { count: 500 });
    await live.catchUp(TOTALS);
    await rebuilt;
    await catchUpTo(live, TOTALS, last);
    expect(await live.waitFor([TOTALS], last, 2000)).toBe(true);
    expect(await totalsDigest(database.db)).toBe(await expectedDigest(database.db));
    expect(progress.length).toBeGreaterThan(10);
  });
});

async function eventsUpTo(q: Queryable, position: string): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM events WHERE kosh_position(transaction_id, global_position) COLLATE "C" <= $1',
    [position],
  );
  return rows[0]?.n ?? -1;
}

/** Runs a slow rebuild in a child process and SIGKILLs it once it has applied `after` events. */
function killRebuildMidway(url: string, after: number): Promise<void> {
  const script = fileURLToPath(new URL('./testing/rebuild-child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const processed = [...output.matchAll(/progress (\d+)/g)].map((m) => Number(m[1]));
      if ((processed.at(-1) ?? 0) >= after && child.exitCode === null) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`rebuild child was not killed midway: ${output}`)),
    );
  });
}

describe('projection runner on PGlite', () => {
  let db: Db;
  let store: EventStore;

  beforeAll(async () => {
    db = await createPgliteDb(undefined);
    await prepare(db);
    store = createPostgresEventStore(db);
  });

  afterAll(async () => {
    await store?.close();
    await db?.close();
  });

  it('catches up, dead-letters, waits and rebuilds', async () => {
    await seedEvents(store, { count: 500 });
    const poison = amountAdded(1, { poison: true });
    await store.appendToStream('test-poison', [poison], { expectedVersion: 'any' });
    const last = await seedEvents(store, { count: 500 });
    const runner = createProjectionRunner({
      db,
      eventStore: store,
      projections: [totalsProjection(), poisonSensitiveProjection(POISONED)],
      batchSize: 100,
      maxAttempts: 2,
      retryBackoffMs: 5,
    });

    const waited = runner.waitFor([TOTALS], last, 5000);
    await Promise.all([runner.catchUp(TOTALS), runner.catchUp(POISONED)]);
    expect(await waited).toBe(true);
    expect(await runner.waitFor([POISONED], last, 100)).toBe(false);
    const live = await totalsDigest(db);
    expect(live).toBe(await expectedDigest(db));

    expect(await runner.rebuild(TOTALS)).toEqual({ processed: 1101, position: last });
    expect(await totalsDigest(db)).toBe(live);
    runner.close();
  });
});
