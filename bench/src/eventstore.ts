/**
 * Event store benchmark (issue 2 item 10): `npm run bench:eventstore`.
 *
 * For each target (PostgreSQL in a fresh database on DATABASE_URL's server, then embedded
 * PGlite in a temporary directory) it runs every section of `sections` and prints events/s and
 * append latency percentiles, with the load average at the end of each line. Not a test:
 * figures only. Each append shape runs right after a raw INSERT of the same rows by the same
 * number of writers (raw-insert-1 / append-1, raw-insert-16 / append-16, raw-insert-10x1 /
 * batch-10x1, raw-insert-10 / batch-10 with 4 writers) and prints its ratio to it (issue 33),
 * with the CPU each cost per event (node + the database's server processes) and the raw
 * INSERT's CPU per event over the append's: on a busy machine the events/s ratio wanders with
 * the neighbours, the CPU per event much less.
 *
 * Options (environment): BENCH_TARGETS=postgres,pglite  BENCH_SCALE=1 (multiplies counts)
 *                        BENCH_SECTIONS=raw-insert-1,append-1,raw-insert-16,append-16,
 *                        raw-insert-10x1,batch-10x1,raw-insert-10,batch-10,lone-append,read-all,...
 *                        (default all)
 *
 * To add a section (e.g. the projection rebuild over 100k events): write a `BenchSection`
 * (`support/bench-section.ts`; see the helpers exported below) and add it to `sections` at the marked place.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { EventMetadata } from '@kosh/domain';
import {
  createPgliteDb,
  createPostgresEventStore,
  type EventStore,
  type ExpectedVersion,
  eventStoreMigrations,
  type MigrationSource,
  migrate,
  type NewEvent,
  START_POSITION,
} from '@kosh/event-store';
import { createTestDatabase } from '@kosh/event-store/testing';
import { projectionSections } from './rebuild';
import type { BenchResult, BenchSection, BenchTarget } from './support/bench-section';

// ---------------------------------------------------------------------------------------------
// Helpers (exported for other sections)
// ---------------------------------------------------------------------------------------------

const SCALE = Number(process.env.BENCH_SCALE ?? '1');

export function count(target: BenchTarget, n: number): number {
  return Math.max(1, Math.round(n * SCALE * target.scale));
}

export function benchMetadata(userId = 'bench-user'): EventMetadata {
  return {
    userId,
    correlationId: randomUUID(),
    causationId: null,
    recordedAt: new Date().toISOString(),
    schemaVersion: 1,
  };
}

/** A realistic small event (a recorded transaction). */
export function benchEvent(i: number, userId?: string): NewEvent {
  return {
    id: randomUUID(),
    type: 'TransactionRecorded',
    data: {
      transactionId: randomUUID(),
      amount: 125_050 + (i % 1000),
      type: i % 3 === 0 ? 'credit' : 'debit',
      date: '2026-01-15',
      description: `Bench transaction ${i}`,
      bankId: 1 + (i % 5),
    },
    metadata: benchMetadata(userId),
  };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function formatResult(target: string, r: BenchResult): string {
  const rate = r.events / r.seconds;
  let line = `${target.padEnd(9)} ${r.label.padEnd(38)} ${String(r.events).padStart(7)} events ${r.seconds.toFixed(2).padStart(7)} s ${Math.round(rate).toLocaleString('en-US').padStart(9)} events/s`;
  if (r.latenciesMs && r.latenciesMs.length > 0) {
    const sorted = [...r.latenciesMs].sort((a, b) => a - b);
    line += `  p50 ${percentile(sorted, 50).toFixed(2)} ms  p99 ${percentile(sorted, 99).toFixed(2)} ms`;
  }
  if (r.note) line += `  (${r.note})`;
  return `${line}  [load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}]`;
}

/**
 * Runs `writers` concurrent loops, each appending `appendsPerWriter` batches of `batchSize`
 * single-type events to its own streams (10 appends per stream, exact expected version, the
 * way command handlers append). Measures each append's latency.
 */
export async function appendLoad(
  store: EventStore,
  { writers, appendsPerWriter, batchSize }: { writers: number; appendsPerWriter: number; batchSize: number },
): Promise<{ events: number; seconds: number; latenciesMs: number[] }> {
  const latenciesMs: number[] = [];
  const run = randomUUID().slice(0, 8);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      let streamNo = 0;
      let version = 0;
      for (let i = 0; i < appendsPerWriter; i++) {
        if (version >= 10 * batchSize) {
          streamNo += 1;
          version = 0;
        }
        // Each writer is another user, as concurrent writers are: one user's appends queue on
        // their hash-chain head (migration 003), different users' do not.
        const batch = Array.from({ length: batchSize }, (_, k) =>
          benchEvent(i * batchSize + k, `bench-user-${w}`),
        );
        const expectedVersion: ExpectedVersion = version === 0 ? 'no_stream' : version;
        const t0 = performance.now();
        const r = await store.appendToStream(`txn-${run}-${w}-${streamNo}`, batch, { expectedVersion });
        latenciesMs.push(performance.now() - t0);
        version = r.nextVersion;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { events: writers * appendsPerWriter * batchSize, seconds, latenciesMs };
}

/** Reads the whole log from the start in pages; returns events read and seconds. */
export async function readAllFromStart(
  store: EventStore,
  pageSize = 500,
): Promise<{ events: number; seconds: number; last: string }> {
  const started = performance.now();
  let after = START_POSITION;
  let events = 0;
  for (;;) {
    const page = await store.readAll({ after, limit: pageSize });
    events += page.length;
    if (page.length > 0) after = page[page.length - 1]!.position;
    if (page.length < pageSize) break;
  }
  return { events, seconds: (performance.now() - started) / 1000, last: after };
}

/** Opens a target with the event store migrations plus `extraMigrations` applied. */
export async function openTarget(
  name: BenchTarget['name'],
  extraMigrations: readonly MigrationSource[] = [],
): Promise<BenchTarget> {
  if (name === 'postgres') {
    const database = await createTestDatabase({ prefix: 'kosh_bench', max: 20 });
    await migrate(database.db, [eventStoreMigrations, ...extraMigrations]);
    const store = createPostgresEventStore(database.db);
    return {
      name,
      db: database.db,
      store,
      scale: 1,
      async close() {
        await store.close();
        await database.drop();
      },
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'kosh-bench-pglite-'));
  const db = await createPgliteDb(dir);
  await migrate(db, [eventStoreMigrations, ...extraMigrations]);
  const store = createPostgresEventStore(db);
  return {
    name,
    db,
    store,
    scale: 0.2,
    async close() {
      await store.close();
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** events/s of the raw INSERT sections of this run, by `<target>/<rows per statement>`. */
const rawRates = new Map<string, number>();
/** CPU µs per event of the raw INSERT sections of this run, by the same key. */
const rawCpu = new Map<string, number>();

type Cpu = { node: number; pg: number };

/** CPU seconds (user + system) of a server process, from /proc (Linux; 0 when unreadable). */
function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Runs `load` and measures the CPU it cost, µs per event: this process (the store, or the raw
 * loop, and the events both build) and, on PostgreSQL, every server process of the bench's
 * database (it runs on this machine). On PGlite the server runs in this process. Unlike events/s,
 * CPU per event hardly moves with what else the machine is running.
 */
async function withCpu<R extends { events: number }>(
  target: BenchTarget,
  load: () => Promise<R>,
): Promise<R & { cpu: Cpu }> {
  const backends = async () =>
    target.name === 'postgres'
      ? (
          await target.db.query<{ pid: number }>(
            'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
          )
        ).rows.map((r) => r.pid)
      : [];
  const before = new Map((await backends()).map((pid) => [pid, processCpuSeconds(pid)]));
  const node0 = process.cpuUsage();
  const r = await load();
  const node = process.cpuUsage(node0);
  let pg = 0;
  for (const pid of await backends()) pg += processCpuSeconds(pid) - (before.get(pid) ?? 0);
  return { ...r, cpu: { node: (node.user + node.system) / r.events, pg: (pg * 1e6) / r.events } };
}

const cpuText = (cpu: Cpu) =>
  `cpu ${Math.round(cpu.node + cpu.pg)} µs/event (node ${Math.round(cpu.node)} + pg ${Math.round(cpu.pg)})`;

/** Records a raw section's rate and CPU for the append sections of the same shape. */
function rawNote(target: BenchTarget, shape: string, r: { events: number; seconds: number; cpu: Cpu }) {
  rawRates.set(`${target.name}/${shape}`, r.events / r.seconds);
  rawCpu.set(`${target.name}/${shape}`, r.cpu.node + r.cpu.pg);
  return `no event store; ${cpuText(r.cpu)}`;
}

/**
 * "0.63× the raw INSERT" beside an append figure, when the raw section of the same shape (rows
 * per statement, writers) ran before it in this run; with the CPU per event, and the raw
 * INSERT's CPU per event over it (the events/s ratio the CPU alone allows).
 */
function ratioNote(target: BenchTarget, shape: string, r: { events: number; seconds: number; cpu: Cpu }) {
  const raw = rawRates.get(`${target.name}/${shape}`);
  const cpu = rawCpu.get(`${target.name}/${shape}`);
  const parts = [
    raw ? `${(r.events / r.seconds / raw).toFixed(2)}× the raw INSERT of this run` : null,
    cpuText(r.cpu),
    cpu ? `raw's cpu/event over this ${(cpu / (r.cpu.node + r.cpu.pg)).toFixed(2)}` : null,
  ];
  return { note: parts.filter(Boolean).join('; ') };
}

/**
 * `writers` loops of `statements` INSERTs of `rows` event-shaped rows each, one commit per
 * statement: what an append costs without the event store (no version check, no function,
 * no NOTIFY).
 */
async function rawInsertLoad(
  target: BenchTarget,
  options: { writers: number; statements: number; rows: number },
): Promise<{ events: number; seconds: number; latenciesMs: number[] }> {
  await target.db.query(
    `CREATE TABLE IF NOT EXISTS bench_raw_events (
       position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       stream_id text NOT NULL, version int NOT NULL, id uuid NOT NULL UNIQUE,
       type text NOT NULL, data jsonb NOT NULL, metadata jsonb NOT NULL,
       recorded_at timestamptz NOT NULL DEFAULT now(), UNIQUE (stream_id, version))`,
  );
  const values = Array.from(
    { length: options.rows },
    (_, i) => `(${[1, 2, 3, 4, 5, 6].map((k) => `$${i * 6 + k}`).join(', ')})`,
  ).join(', ');
  const sql = `INSERT INTO bench_raw_events (stream_id, version, id, type, data, metadata) VALUES ${values}`;
  const latenciesMs: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.writers }, async () => {
      for (let s = 0; s < options.statements; s++) {
        const stream = `raw-${randomUUID()}`;
        const params = Array.from({ length: options.rows }, (_, i) => {
          const event = benchEvent(i);
          return [
            stream,
            i + 1,
            event.id,
            event.type,
            JSON.stringify(event.data),
            JSON.stringify(event.metadata),
          ];
        }).flat();
        const t0 = performance.now();
        await target.db.query(sql, params);
        latenciesMs.push(performance.now() - t0);
      }
    }),
  );
  return {
    events: options.writers * options.statements * options.rows,
    seconds: (performance.now() - started) / 1000,
    latenciesMs,
  };
}

// ---------------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------------

export const eventStoreSections: BenchSection[] = [
  {
    // What this machine allows at all: 16 writers committing a one-row INSERT each, same
    // server, same fsync, no event store logic. Read the append figures against it.
    id: 'baseline',
    async run(target) {
      await target.db.query(
        'CREATE TABLE IF NOT EXISTS bench_baseline (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, doc jsonb)',
      );
      const per = count(target, 300);
      const latenciesMs: number[] = [];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let i = 0; i < per; i++) {
            const t0 = performance.now();
            await target.db.query('INSERT INTO bench_baseline (doc) VALUES ($1)', [JSON.stringify({ i })]);
            latenciesMs.push(performance.now() - t0);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      return {
        label: 'baseline: plain INSERT commits, 16 writers',
        events: 16 * per,
        seconds,
        latenciesMs,
        note: 'no event store',
      };
    },
  },
  {
    // Issue 16: the floor for one writer. The same rows an append writes (stream, version, id,
    // type, data, metadata) into a table with the same keys, by a plain INSERT per commit.
    id: 'raw-insert-1',
    async run(target) {
      const r = await withCpu(target, () =>
        rawInsertLoad(target, { writers: 1, statements: count(target, 3000), rows: 1 }),
      );
      return { label: 'raw: single-row INSERT, 1 writer', ...r, note: rawNote(target, '1x1', r) };
    },
  },
  {
    id: 'append-1',
    async run(target) {
      const r = await withCpu(target, () =>
        appendLoad(target.store, { writers: 1, appendsPerWriter: count(target, 3000), batchSize: 1 }),
      );
      return { label: 'single-event appends, 1 writer', ...r, ...ratioNote(target, '1x1', r) };
    },
  },
  {
    // Issue 33: the 16-writer figure against the same rows by 16 raw writers, in the same run.
    id: 'raw-insert-16',
    async run(target) {
      const r = await withCpu(target, () =>
        rawInsertLoad(target, { writers: 16, statements: count(target, 300), rows: 1 }),
      );
      return { label: 'raw: single-row INSERT, 16 writers', ...r, note: rawNote(target, '1x16', r) };
    },
  },
  {
    id: 'append-16',
    async run(target) {
      const r = await withCpu(target, () =>
        appendLoad(target.store, { writers: 16, appendsPerWriter: count(target, 1500), batchSize: 1 }),
      );
      return { label: 'single-event appends, 16 writers', ...r, ...ratioNote(target, '1x16', r) };
    },
  },
  {
    // Issue 33: one writer, one 10-event append per commit against one 10-row INSERT per commit.
    id: 'raw-insert-10x1',
    async run(target) {
      const r = await withCpu(target, () =>
        rawInsertLoad(target, { writers: 1, statements: count(target, 1500), rows: 10 }),
      );
      return {
        label: 'raw: 10-row INSERT, 1 writer',
        ...r,
        note: `latency per statement; ${rawNote(target, '10x1', r)}`,
      };
    },
  },
  {
    id: 'batch-10x1',
    async run(target) {
      const r = await withCpu(target, () =>
        appendLoad(target.store, { writers: 1, appendsPerWriter: count(target, 1500), batchSize: 10 }),
      );
      const ratio = ratioNote(target, '10x1', r);
      return {
        label: 'appends of 10 events, 1 writer',
        ...r,
        note: `latency per append; ${ratio.note}`,
      };
    },
  },
  {
    id: 'raw-insert-10',
    async run(target) {
      const r = await withCpu(target, () =>
        rawInsertLoad(target, { writers: 4, statements: count(target, 750), rows: 10 }),
      );
      return {
        label: 'raw: 10-row INSERT, 4 writers',
        ...r,
        note: `latency per statement; ${rawNote(target, '10x4', r)}`,
      };
    },
  },
  {
    id: 'batch-10',
    async run(target) {
      const r = await withCpu(target, () =>
        appendLoad(target.store, { writers: 4, appendsPerWriter: count(target, 750), batchSize: 10 }),
      );
      const ratio = ratioNote(target, '10x4', r);
      return {
        label: 'appends of 10 events, 4 writers',
        ...r,
        note: `latency per append; ${ratio.note}`,
      };
    },
  },
  {
    // Issue 11: a lone append's cached plan must not turn into a scan of `events` as the log
    // grows. On a fresh database (empty tables when the sessions plan), lone appends at 0
    // events, then the log filled to 50k, then lone appends on the same sessions again.
    id: 'lone-append',
    async run(target) {
      const fresh = await openTarget(target.name);
      try {
        const lone = async (n: number) => {
          const latencies: number[] = [];
          for (let i = 0; i < n; i++) {
            const t0 = performance.now();
            await fresh.store.appendToStream(`txn-lone-${randomUUID()}`, [benchEvent(i)], {
              expectedVersion: 'no_stream',
            });
            latencies.push(performance.now() - t0);
          }
          return latencies;
        };
        const rounds = count(target, 300);
        const atZero = await lone(rounds);
        const fill = count(target, 50_000);
        await appendLoad(fresh.store, {
          writers: 8,
          appendsPerWriter: Math.ceil(fill / 8 / 100),
          batchSize: 100,
        });
        const started = performance.now();
        const atFull = await lone(rounds);
        const seconds = (performance.now() - started) / 1000;
        const p50 = (l: number[]) =>
          percentile(
            [...l].sort((a, b) => a - b),
            50,
          );
        return {
          label: `lone appends at 0, then ${fill.toLocaleString('en-US')} events`,
          events: rounds,
          seconds,
          latenciesMs: atFull,
          note: `p50 ${p50(atZero).toFixed(2)} ms at 0 events; ratio ${(p50(atFull) / p50(atZero)).toFixed(2)}`,
        };
      } finally {
        await fresh.close();
      }
    },
  },
  {
    id: 'read-all',
    async run(target) {
      const r = await readAllFromStart(target.store, 500);
      return { label: 'readAll from start, pages of 500', events: r.events, seconds: r.seconds };
    },
  },
];

/** Every section, in run order. */
export const sections: BenchSection[] = [
  ...eventStoreSections,
  // Projection rebuild over 100k events (projection runner owner).
  ...projectionSections,
];

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const targets = (process.env.BENCH_TARGETS ?? 'postgres,pglite').split(',') as BenchTarget['name'][];
  const only = process.env.BENCH_SECTIONS?.split(',');
  const chosen = sections.filter((s) => !only || only.includes(s.id));
  console.log(`Kosh event store benchmark — node ${process.version}, scale ${SCALE}`);
  for (const name of targets) {
    const target = await openTarget(name);
    try {
      for (const section of chosen) {
        const result = await section.run(target);
        console.log(formatResult(name, result));
      }
    } finally {
      await target.close();
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
