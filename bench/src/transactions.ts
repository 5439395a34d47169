/**
 * Transaction book and ledger benchmark (issue 5): `npm run bench:transactions`.
 *
 * One user with 100,000 transactions over ten years and 10 loans (with EMI schedules, two with
 * GST, one regenerated), plus four other users with 5,000 transactions each, on PostgreSQL (a
 * fresh database on DATABASE_URL's server). Events go straight into the event log in batched
 * inserts (one stream per transaction, as the API writes them), then are projected. It prints
 * p50/p95 of each API call through the whole Fastify app (`app.inject`: routing, auth, schema,
 * query, serialisation) and the rebuild rate of the transactions and ledger read models.
 * Not a test: figures only.
 *
 * Options (environment): BENCH_TRANSACTIONS=100000  BENCH_CALLS=200 (per scenario)  BENCH_SKIP_CALLS=1
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { seedCatalog } from '@kosh/command-api';
import { createTestApp, type TestApp } from '@kosh/command-api/testing';
import type { Projection } from '@kosh/projections';
import { allProjections, createProjectionRunner } from '@kosh/projections';
import { book } from './support/book';
import { random } from './support/random';

const MAIN_TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 100_000);
const OTHER_USERS = 4;
const OTHER_TRANSACTIONS = 5_000;
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const NOW = new Date('2025-12-20T06:00:00.000Z');

const rnd = random(7);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;

type Scenario = { name: string; url: string | (() => string) };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))] ?? Number.NaN;
}

async function measure(t: TestApp, userId: string, scenario: Scenario) {
  const headers = await t.signedInHeader(userId);
  const urlOf = () => (typeof scenario.url === 'string' ? scenario.url : scenario.url());
  for (let i = 0; i < 20; i++) await t.app.inject({ method: 'GET', url: urlOf(), headers });
  const times: number[] = [];
  let sample = '';
  for (let i = 0; i < CALLS; i++) {
    const url = urlOf();
    const started = performance.now();
    const response = await t.app.inject({ method: 'GET', url, headers });
    times.push(performance.now() - started);
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    if (i === 0) sample = summarise(response.json().data);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), sample };
}

function summarise(data: Record<string, unknown>): string {
  const pagination = data.pagination as { total_items?: number } | undefined;
  if (pagination) return `${(data.transactions as unknown[]).length} rows of ${pagination.total_items}`;
  if (data.summary) {
    const d = data as {
      credit: { transactions: unknown[] };
      debit: { transactions: unknown[] };
      summary: { emiCount: number };
    };
    return `${d.credit.transactions.length + d.debit.transactions.length} entries, ${d.summary.emiCount} EMIs`;
  }
  if (data.periods) return `${(data.periods as unknown[]).length} months`;
  return '';
}

async function main() {
  const t = await createTestApp({ clock: () => NOW });
  try {
    const userId = randomUUID();
    console.log(
      `Kosh transactions bench: PostgreSQL, ${MAIN_TRANSACTIONS} transactions for one user, 10 loans`,
    );
    await seedCatalog(t.platform.eventStore, NOW);
    const seed = book(t.platform, NOW);
    await seed.appendLoans(userId);
    const seconds = await seed.appendTransactions(userId, MAIN_TRANSACTIONS);
    for (let u = 0; u < OTHER_USERS; u++) await seed.appendTransactions(randomUUID(), OTHER_TRANSACTIONS);
    const total = MAIN_TRANSACTIONS + OTHER_USERS * OTHER_TRANSACTIONS;
    console.log(`seeded: ${MAIN_TRANSACTIONS} transactions in ${seconds.toFixed(1)} s; ${total} in all`);

    for (const name of ['transactions', 'ledger']) {
      const started = performance.now();
      const result = await t.platform.runner.catchUp(name);
      const s = (performance.now() - started) / 1000;
      console.log(`live catch-up ${name}: ${result.events} events in ${s.toFixed(1)} s`);
    }
    await t.platform.db.query('VACUUM ANALYZE');
    // The machine is shared: a plain insert rate tells how loaded it was during this run.
    const calibration = performance.now();
    await t.platform.db.query(
      `CREATE TEMP TABLE bench_calibration AS
         SELECT gen_random_uuid() AS id, 'Calibration row ' || i AS notes, i AS n FROM generate_series(1, 100000) i`,
    );
    const calibrationSeconds = (performance.now() - calibration) / 1000;
    console.log(
      `calibration: 100,000 rows into a plain table in ${calibrationSeconds.toFixed(2)} s; load ${loadavg()[0]?.toFixed(1)}`,
    );

    const months = Array.from({ length: 120 }, (_, i) => ({
      year: 2016 + Math.floor(i / 12),
      month: 1 + (i % 12),
    }));
    const scenarios: Scenario[] = [
      { name: 'list, default (date DESC, page 1)', url: '/api/transactions' },
      { name: 'list, page 100', url: '/api/transactions?page=100' },
      { name: 'list, type C', url: '/api/transactions?transaction_type=C' },
      { name: 'list, type D', url: '/api/transactions?transaction_type=D' },
      {
        name: 'list, one month (date_from/date_to)',
        url: () => {
          const { year, month } = pick(months);
          const m = String(month).padStart(2, '0');
          return `/api/transactions?date_from=${year}-${m}-01&date_to=${year}-${m}-28`;
        },
      },
      { name: 'list, one year', url: '/api/transactions?date_from=2020-01-01&date_to=2020-12-31' },
      { name: 'list, date_from only (last 2 years)', url: '/api/transactions?date_from=2024-01-01' },
      { name: 'list, search common ("swiggy")', url: '/api/transactions?search=swiggy' },
      { name: 'list, search rare ("#1234")', url: '/api/transactions?search=%231234' },
      { name: 'list, search 2 chars ("ui")', url: '/api/transactions?search=ui' },
      { name: 'list, sort amount DESC', url: '/api/transactions?sort_by=amount&sort_order=DESC' },
      { name: 'list, sort amount ASC', url: '/api/transactions?sort_by=amount&sort_order=ASC' },
      { name: 'list, sort notes ASC', url: '/api/transactions?sort_by=notes&sort_order=ASC' },
      { name: 'list, sort created_at DESC', url: '/api/transactions?sort_by=created_at' },
      {
        name: 'list, all filters + sort amount',
        url: '/api/transactions?search=salary&transaction_type=C&date_from=2019-01-01&date_to=2022-12-31&sort_by=amount',
      },
      { name: 'list, limit 100', url: '/api/transactions?limit=100' },
      { name: 'stats', url: '/api/transactions/stats' },
      {
        name: 'ledger month (random of 120)',
        url: () => {
          const { year, month } = pick(months);
          return `/api/ledger?month=${month}&year=${year}`;
        },
      },
      { name: 'ledger periods', url: '/api/ledger/periods' },
    ];
    if (process.env.BENCH_SKIP_CALLS) scenarios.length = 0;
    console.log(`\n${CALLS} calls each (after 20 warm-up), ms:`);
    console.log(`${'call'.padEnd(42)} ${'p50'.padStart(7)} ${'p95'.padStart(7)}   answer`);
    for (const scenario of scenarios) {
      const { p50, p95, sample } = await measure(t, userId, scenario);
      console.log(
        `${scenario.name.padEnd(42)} ${p50.toFixed(2).padStart(7)} ${p95.toFixed(2).padStart(7)}   ${sample}`,
      );
    }

    console.log('\nrebuild (replay the whole log into fresh tables, then swap):');
    // The floor under any rebuild: reading the log alone, in the runner's batch size.
    const readStarted = performance.now();
    let read = 0;
    for (let after: string | null = null; ; ) {
      const batch = await t.platform.eventStore.readAll({ after, limit: 2000 });
      const last = batch[batch.length - 1];
      if (!last) break;
      read += batch.length;
      after = last.position;
    }
    const readSeconds = (performance.now() - readStarted) / 1000;
    console.log(
      `${'(read only)'.padEnd(14)} ${read} events in ${readSeconds.toFixed(2)} s = ${Math.round(read / readSeconds)} events/s`,
    );
    // The same runner code as the platform's, with each projection's apply() timed, to show how
    // much of a rebuild is the projector and how much is reading the log.
    let applySeconds = 0;
    const timed = allProjections.map(
      (p): Projection => ({
        ...p,
        async apply(tx, events) {
          const started = performance.now();
          await p.apply(tx, events);
          applySeconds += (performance.now() - started) / 1000;
        },
      }),
    );
    const runner = createProjectionRunner({
      db: t.platform.db,
      eventStore: t.platform.eventStore,
      projections: timed,
    });
    for (const name of ['transactions', 'ledger']) {
      applySeconds = 0;
      const started = performance.now();
      const result = await runner.rebuild(name);
      const s = (performance.now() - started) / 1000;
      console.log(
        `${name.padEnd(14)} ${result.processed} events in ${s.toFixed(2)} s = ${Math.round(result.processed / s)} events/s` +
          ` (apply ${applySeconds.toFixed(2)} s)`,
      );
    }
    runner.close();
  } finally {
    await t.close();
  }
}

await main();
