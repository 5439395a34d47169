/**
 * Many users (issue 33 item 5): `npm run bench:scale`.
 *
 * On a fresh PostgreSQL database: SCALE_FIRST_USERS users (1,000) of about SCALE_EVENTS_PER_USER
 * events each (1,000: registration, the seeded categories, two accounts, three loans with their
 * schedules, the rest transactions; bench/src/support/scale-log.ts) are COPYed into the log in
 * the store's own rows and hash chain, every read model is rebuilt from the log (`npm run
 * rebuild`, timed: events/s), and a sample of users' reads is timed: the default transaction
 * page, a ledger month and the loan list, through the same query functions the routes call
 * (nothing cached: the answer cache is the API's), each beside a thin SQL baseline that selects
 * the same rows, in the same loop. Then the log grows to SCALE_USERS users (10,000: 10 million
 * events), every read model is rebuilt again (timed), and the same users' reads are timed again:
 * a user's read should not grow with other users' data.
 *
 * Also printed: the log's size per user and event, the read models' sizes, a read of the whole
 * log through the store (the rebuild's floor: each projection reads it), the CPU of the rebuild's
 * node process and of its PostgreSQL backends (from /proc), and the load average beside each.
 *
 * Options (environment): SCALE_USERS=10000 SCALE_FIRST_USERS=1000 SCALE_EVENTS_PER_USER=1000
 * SCALE_SAMPLE=50 (users whose reads are timed) SCALE_ROUNDS=10 (reads of each per user)
 * SCALE_CPU_PROF=/abs/dir (the rebuilds write CPU profiles there) SCALE_KEEP=1 (keep the
 * database; drop it yourself). Needs `psql` on the PATH (the COPY) and about 12 KB of disk per
 * event (checked first). Not a test: figures only.
 */
import { spawn } from 'node:child_process';
import { readFileSync, statfsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { repoRoot, seedCatalog } from '@kosh/command-api';
import { createPgDb, createPostgresEventStore, eventStoreMigrations, migrate } from '@kosh/event-store';
import { createTestDatabase } from '@kosh/event-store/testing';
import { ledgerEntries, listLoans, listTransactions, migrationSources } from '@kosh/projections';
import { createLogLoader } from './support/scale-log';

const USERS = Number(process.env.SCALE_USERS ?? 10_000);
const FIRST_USERS = Math.min(USERS, Number(process.env.SCALE_FIRST_USERS ?? 1_000));
const PER_USER = Number(process.env.SCALE_EVENTS_PER_USER ?? 1_000);
const SAMPLE = Number(process.env.SCALE_SAMPLE ?? 50);
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 10);
const CPU_PROF = process.env.SCALE_CPU_PROF;
const NOW = new Date('2025-12-20T06:00:00.000Z');
/**
 * Disk per event of the log and every read model (2026-11-28, `pg_database_size` over the events):
 * 6.6 KB at 1,000 events a user, about 8.5 KB at 100 (each user's loan schedules weigh more). A
 * rebuild writes its copies beside the live tables before the swap, so the peak is nearly twice
 * the read models: 12 KB an event is asked for (10 million events: about 112 GiB).
 */
const BYTES_PER_EVENT = 12_000;
const TICK_MS = 10; // USER_HZ = 100

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** CPU (user + system) of a process in ms, or null once it is gone. */
function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

type Db = ReturnType<typeof createPgDb>;

/**
 * `npm run rebuild` of every read model, as an operator runs it, timed. The CPU of the CLI and of
 * the PostgreSQL backends of the database is sampled while it runs (backends end with it).
 */
async function rebuildAll(url: string, db: Db, database: string, label: string) {
  const profile = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}/${label}`] : [];
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...profile, '--import', 'tsx', path.join(repoRoot, 'platform/src/rebuild-cli.ts')],
    { cwd: repoRoot, env: { ...process.env, DATABASE_URL: url }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const swapped: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (;;) {
      const end = stderr.indexOf('\n');
      if (end < 0) break;
      const line = stderr.slice(0, end);
      stderr = stderr.slice(end + 1);
      if (line.endsWith('(swapped in)')) swapped.push(line.split(' ')[0] ?? '');
      else if (!/ev\/s$/.test(line)) process.stderr.write(`  rebuild: ${line}\n`);
    }
  });
  const backends = new Map<number, number>();
  let node = 0;
  const sample = async () => {
    node = cpuMs(child.pid ?? 0) ?? node;
    const { rows } = await db.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'kosh-rebuild'`,
      [database],
    );
    for (const { pid } of rows) {
      const ms = cpuMs(pid);
      if (ms !== null) backends.set(pid, ms);
    }
  };
  const sampler = setInterval(() => void sample().catch(() => {}), 250);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`rebuild failed (${code}): ${stderr}`);
  const seconds = (performance.now() - started) / 1000;
  const pgMs = [...backends.values()].reduce((a, b) => a + b, 0);
  return { seconds, swapped, nodeMs: node, pgMs };
}

/**
 * Waits until readers can see the whole log: they read below the oldest transaction running in
 * this database (`kosh_read_horizon()`), so a transaction still open here hides what the COPY
 * wrote until it ends. Returns the seconds waited.
 */
async function waitForHorizon(db: Db): Promise<number> {
  const started = performance.now();
  for (;;) {
    const { rows } = await db.query<{ visible: boolean }>(
      `SELECT kosh_read_horizon() > (SELECT max(transaction_id) FROM events) AS visible`,
    );
    if (rows[0]?.visible) return (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The whole log (up to `limit` events) through the store in pages of 2,000: what each projection's rebuild reads. */
async function readAllFloor(db: Db, limit: number) {
  const store = createPostgresEventStore(db);
  const started = performance.now();
  let after: string | null = null;
  let read = 0;
  while (read < limit) {
    const page = await store.readAll({ after, limit: 2000 });
    const last = page[page.length - 1];
    if (!last) break;
    read += page.length;
    after = last.position;
  }
  await store.close();
  return { read, seconds: (performance.now() - started) / 1000 };
}

type Timing = { p50: number; p99: number };
type ReadFigures = Record<string, { kosh: Timing; thin: Timing; rows: number }>;

/**
 * The sampled users' reads, each query beside its thin baseline (alternating which goes first),
 * one connection, sequential: latency of one read with nothing cached.
 */
async function timeReads(db: Db, userIds: readonly string[]): Promise<ReadFigures> {
  const month = { from: '2024-06-01', to: '2024-06-30' };
  const reads: Record<
    string,
    { kosh: (u: string) => Promise<number>; thin: (u: string) => Promise<number> }
  > = {
    'transaction page': {
      kosh: async (u) =>
        (
          await listTransactions(db, u, {
            page: 1,
            limit: 10,
            search: null,
            transactionType: null,
            dateFrom: null,
            dateTo: null,
            sortBy: 'transaction_date',
            sortOrder: 'DESC',
          })
        ).rows.length,
      thin: async (u) =>
        (
          await db.query(
            `SELECT * FROM transactions WHERE user_id = $1
              ORDER BY transaction_date DESC, created_at DESC, id DESC LIMIT 10`,
            [u],
          )
        ).rows.length,
    },
    'ledger month': {
      kosh: async (u) => (await ledgerEntries(db, u, month.from, month.to)).length,
      thin: async (u) =>
        (
          await db.query(
            `SELECT * FROM ledger_entries WHERE user_id = $1 AND entry_date BETWEEN $2::date AND $3::date AND matched_to IS NULL
              ORDER BY entry_date, created_at, entry_id`,
            [u, month.from, month.to],
          )
        ).rows.length,
    },
    'loan list': {
      kosh: async (u) =>
        (
          await listLoans(db, u, {
            page: 1,
            limit: 10,
            sortBy: 'created_at',
            sortOrder: 'DESC',
            search: null,
            bankId: null,
            loanTypeId: null,
          })
        ).rows.length,
      thin: async (u) =>
        (await db.query('SELECT * FROM loans WHERE user_id = $1 ORDER BY created_at DESC LIMIT 10', [u])).rows
          .length,
    },
  };
  const figures: ReadFigures = {};
  for (const [name, read] of Object.entries(reads)) {
    const kosh: number[] = [];
    const thin: number[] = [];
    let rows = 0;
    for (const u of userIds) await read.kosh(u); // each user's pages once into the cache, as a live server has them
    for (let round = 0; round < ROUNDS; round++) {
      for (const u of userIds) {
        const order = round % 2 === 0 ? (['kosh', 'thin'] as const) : (['thin', 'kosh'] as const);
        for (const which of order) {
          const started = performance.now();
          const n = await read[which](u);
          (which === 'kosh' ? kosh : thin).push(performance.now() - started);
          if (which === 'kosh') rows += n;
        }
      }
    }
    const timing = (xs: number[]) => {
      const sorted = xs.sort((a, b) => a - b);
      return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
    };
    figures[name] = { kosh: timing(kosh), thin: timing(thin), rows: rows / (ROUNDS * userIds.length) };
  }
  return figures;
}

async function sizes(db: Db) {
  const { rows } = await db.query<{ name: string; bytes: string }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid)::text AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r'
      ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 8`,
  );
  return rows.map((r) => ({ name: r.name, mb: Number(r.bytes) / 2 ** 20 }));
}

async function main() {
  const expected = USERS * PER_USER;
  const free = statfsSync('/var/lib/postgresql');
  const freeBytes = free.bavail * free.bsize;
  console.log(
    `bench:scale — ${fmt(FIRST_USERS)} → ${fmt(USERS)} users × ~${fmt(PER_USER)} events (${fmt(expected)}); ` +
      `disk free ${(freeBytes / 2 ** 30).toFixed(1)} GiB, need ~${((expected * BYTES_PER_EVENT) / 2 ** 30).toFixed(1)} GiB; load ${load()}`,
  );
  if (freeBytes < expected * BYTES_PER_EVENT) throw new Error('Not enough free disk for this size');

  const test = await createTestDatabase({
    prefix: 'kosh_bench',
    max: 4,
    idleInTransactionTimeoutMs: 600_000,
  });
  const database = new URL(test.url).pathname.slice(1);
  const db = test.db;
  const readDb = createPgDb(test.url, { max: 1 });
  try {
    await migrate(db, [eventStoreMigrations, ...migrationSources]);
    // The log is a bench copy: unlogged spares the shared server ~1 KB of WAL per event (reads are the same).
    await db.query('ALTER TABLE events SET UNLOGGED');
    // Before migration 010 the chain had its own table; since, event_chain is a view of the events' columns.
    const { rows: chainKind } = await db.query<{ kind: string }>(
      "SELECT relkind::text AS kind FROM pg_class WHERE oid = 'event_chain'::regclass",
    );
    if (chainKind[0]?.kind === 'r') await db.query('ALTER TABLE event_chain SET UNLOGGED');
    const store = createPostgresEventStore(db);
    await seedCatalog(store, NOW);
    await store.close();
    const loader = await createLogLoader(db, test.url, NOW);

    const stages = [
      { label: `${fmt(FIRST_USERS)} users`, from: 0, to: FIRST_USERS },
      ...(USERS > FIRST_USERS ? [{ label: `${fmt(USERS)} users`, from: FIRST_USERS, to: USERS }] : []),
    ];
    let sample: string[] = [];
    const results: { label: string; events: number; reads: ReadFigures; load: string }[] = [];
    for (const [i, stage] of stages.entries()) {
      const started = performance.now();
      let lastReport = started;
      const loaded = await loader.load(stage.from, stage.to, PER_USER, {
        onProgress: (events) => {
          if (performance.now() - lastReport < 15_000) return;
          lastReport = performance.now();
          console.log(`  … ${fmt(events)} events written, load ${load()}`);
        },
      });
      const loadSeconds = (performance.now() - started) / 1000;
      const {
        rows: [count],
      } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
      const total = count?.n ?? 0;
      console.log(
        `\n== ${stage.label}: ${fmt(total)} events in the log (${fmt(loaded.events)} written in ${loadSeconds.toFixed(0)} s, ` +
          `${fmt(loaded.events / loadSeconds)} events/s with the chain, indexes rebuilt after); load ${load()}`,
      );
      if (i === 0) {
        sample = loaded.userIds.filter(
          (_, k) => k % Math.max(1, Math.floor(loaded.userIds.length / SAMPLE)) === 0,
        );
        sample = sample.slice(0, SAMPLE);
        const verified = await db.query<{ bad: string | null }>('SELECT kosh_chain_verify($1)::text AS bad', [
          sample[0],
        ]);
        console.log(
          `chain of a sampled user: ${verified.rows[0]?.bad === null ? 'verifies (kosh_chain_verify)' : `BROKEN at seq ${verified.rows[0]?.bad}`}`,
        );
      }

      const waited = await waitForHorizon(db);
      if (waited > 0.5)
        console.log(`waited ${waited.toFixed(1)} s for an older transaction elsewhere on the server to end`);
      const floor = await readAllFloor(db, 1_000_000);
      console.log(
        `read of the log through the store (first ${fmt(floor.read)} events, pages of 2,000): ${fmt(floor.read / floor.seconds)} events/s; load ${load()}`,
      );
      const rebuilt = await rebuildAll(test.url, db, database, `stage${i + 1}`);
      console.log(
        `rebuild of every read model (npm run rebuild): ${fmt(total)} events in ${rebuilt.seconds.toFixed(1)} s = ` +
          `${fmt(total / rebuilt.seconds)} events/s; CPU node ${(rebuilt.nodeMs / 1000).toFixed(1)} s, ` +
          `PostgreSQL ${(rebuilt.pgMs / 1000).toFixed(1)} s (${(((rebuilt.nodeMs + rebuilt.pgMs) / total) * 1000).toFixed(1)} µs per event); load ${load()}`,
      );
      console.log(`  ${rebuilt.swapped.length} read models swapped in, in one pass over the log`);

      for (const s of await sizes(db))
        console.log(`  ${s.name.padEnd(28)} ${s.mb.toFixed(0).padStart(7)} MB`);
      const reads = await timeReads(readDb, sample);
      const readLoad = load();
      console.log(
        `reads of ${sample.length} users × ${ROUNDS}, one connection, nothing cached; load ${readLoad}`,
      );
      for (const [name, f] of Object.entries(reads))
        console.log(
          `  ${name.padEnd(17)} ${f.rows.toFixed(0).padStart(4)} rows  p50 ${f.kosh.p50.toFixed(2)} ms  p99 ${f.kosh.p99.toFixed(2)} ms` +
            `   thin SQL p50 ${f.thin.p50.toFixed(2)} ms  p99 ${f.thin.p99.toFixed(2)} ms   thin/kosh p50 ${(f.thin.p50 / f.kosh.p50).toFixed(2)}`,
        );
      results.push({ label: stage.label, events: total, reads, load: readLoad });
    }

    const [small, big] = results;
    if (small && big) {
      console.log(`\n== flat? the same ${sample.length} users' reads at ${small.label} and at ${big.label}`);
      for (const name of Object.keys(small.reads)) {
        const a = small.reads[name];
        const b = big.reads[name];
        if (!a || !b) continue;
        console.log(
          `  ${name.padEnd(17)} p50 ${a.kosh.p50.toFixed(2)} → ${b.kosh.p50.toFixed(2)} ms (×${(b.kosh.p50 / a.kosh.p50).toFixed(2)}; ` +
            `thin ×${(b.thin.p50 / a.thin.p50).toFixed(2)})   p99 ${a.kosh.p99.toFixed(2)} → ${b.kosh.p99.toFixed(2)} ms`,
        );
      }
    }
  } finally {
    await readDb.close();
    if (process.env.SCALE_KEEP === '1') {
      await db.close();
      console.log(`kept: ${test.url}`);
    } else await test.drop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
