/**
 * Reports benchmark (issue 31): `npm run bench:reports`.
 *
 * One user with 100,000 transactions over ten years (2016–2025), each debit in one of the user's
 * expense categories or none, and 10 loans; four other users with 5,000 each; on PostgreSQL (a
 * fresh database on DATABASE_URL's server). Events go into the log in batched inserts, then are
 * projected; nothing is timed until every read model the report reads holds the whole log. The
 * answer cache is off (ANSWER_CACHE_MB=0), so every call builds its answer from the read models:
 * "cold" as far as the app goes; the last scenario also asks a different range each call
 * (partial months at both edges). Calls go through the whole Fastify app (`app.inject`: routing,
 * auth, schema, queries, roll-up, serialisation).
 *
 * Against each report call, in the same run and interleaved with it, the plain grouped SQL query
 * of the same rows (the period's debits summed by category) is timed on the same pool: the report
 * must stay within 2× of it at p95, and under 100 ms. The load average is printed beside each line.
 * "reads" times the report's own reads and roll-up without HTTP (routing, auth, serialisation),
 * interleaved too, to tell the per-request cost from the reads'.
 *
 * Options (environment): BENCH_TRANSACTIONS=100000  BENCH_CALLS=100
 *   BENCH_EXPLAIN=1: before the timed calls, print the plans (EXPLAIN ANALYZE) of the month's
 *   statements and write a V8 CPU profile of 3,000 month calls to `$TMPDIR/report-month.cpuprofile`.
 */
import { randomUUID } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { seedCatalog } from '@kosh/command-api';
import { createTestApp } from '@kosh/command-api/testing';
import { categoriesAndSpending, rollUpSpending } from '@kosh/projections';
import { book } from './support/book';
import { random } from './support/random';

const MAIN_TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 100_000);
const OTHER_USERS = 4;
const OTHER_TRANSACTIONS = 5_000;
const CALLS = Number(process.env.BENCH_CALLS ?? 100);
const NOW = new Date('2025-12-20T06:00:00.000Z');

const PLAIN_SQL = `SELECT category_id, sum(amount) AS amount, count(*) AS count FROM transactions
  WHERE user_id = $1 AND transaction_type = 'D' AND transaction_date BETWEEN $2::date AND $3::date
  GROUP BY category_id`;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))] ?? Number.NaN;
}

const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
};

async function main() {
  const t = await createTestApp({ clock: () => NOW, env: { ANSWER_CACHE_MB: '0' } });
  try {
    const userId = randomUUID();
    console.log(`Kosh reports bench: PostgreSQL, ${MAIN_TRANSACTIONS} transactions for one user, 10 loans`);
    await seedCatalog(t.platform.eventStore, NOW);
    const headers = await t.signedInHeader(userId);
    // The first read of the categories seeds the user's household set.
    const listed = await t.app.inject({ method: 'GET', url: '/api/categories', headers });
    const categories = (listed.json().data.categories as { id: string; kind: string }[]).filter(
      (c) => c.kind === 'expense',
    );
    const seed = book(t.platform, NOW);
    await seed.appendLoans(userId);
    const seconds = await seed.appendTransactions(userId, MAIN_TRANSACTIONS, [
      ...categories.map((c) => c.id),
      null,
    ]);
    for (let u = 0; u < OTHER_USERS; u++) await seed.appendTransactions(randomUUID(), OTHER_TRANSACTIONS);
    console.log(
      `seeded: ${MAIN_TRANSACTIONS} transactions in ${seconds.toFixed(1)} s (${categories.length} expense categories and none)`,
    );
    // Every read model the report reads must hold the whole book before anything is timed: the
    // in-process worker may be applying the same batches (a catch-up then waits on its lock).
    const models = ['transactions', 'ledger', 'loans', 'schedules', 'categories'];
    const started = performance.now();
    for (;;) {
      for (const name of models) await t.platform.runner.catchUp(name);
      const status = (await t.platform.runner.status()).filter((s) => models.includes(s.name));
      const stopped = status.find((s) => s.status === 'stopped');
      if (stopped) throw new Error(`${stopped.name} stopped: ${stopped.error}`);
      if (status.every((s) => s.lagEvents === 0)) break;
      if (performance.now() - started > 30 * 60_000) throw new Error('read models not caught up in 30 min');
    }
    const projected = await t.platform.db.query<{ n: number; cells: number }>(
      `SELECT (SELECT count(*)::int FROM transactions WHERE user_id = $1) AS n,
              (SELECT count(*)::int FROM transaction_months WHERE user_id = $1) AS cells`,
      [userId],
    );
    console.log(
      `projected in ${((performance.now() - started) / 1000).toFixed(1)} s: ${projected.rows[0]?.n} of the ` +
        `user's ${MAIN_TRANSACTIONS} transactions, ${projected.rows[0]?.cells} month cells`,
    );
    await t.platform.db.query('VACUUM ANALYZE');
    console.log(`load ${loadavg()[0]?.toFixed(1)}`);
    if (process.env.BENCH_EXPLAIN) {
      const { explainSpending } = await import('./support/explain-spending');
      await explainSpending(t.platform.db, userId, '2025-11-01', '2025-11-30');
      const { profileLoop } = await import('./support/profile-loop');
      const url = '/api/reports/spending?from=2025-11-01&to=2025-11-30';
      await profileLoop(path.join(tmpdir(), 'report-month.cpuprofile'), 3000, () =>
        t.app.inject({ method: 'GET', url, headers }),
      );
    }

    // A range each call: its first and last days picked at random (mostly partial months at both
    // edges), 1 to 36 months long, so no two calls read quite the same rows.
    const rnd = random(7);
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const randomRange = () => {
      const start = Date.UTC(2016, 0, 1) + Math.floor(rnd() * 3000) * 86_400_000;
      const end = Math.min(start + (30 + Math.floor(rnd() * 1065)) * 86_400_000, Date.UTC(2025, 11, 31));
      return { from: day(new Date(start)), to: day(new Date(end)) };
    };
    const fixed = (from: string, to: string) => () => ({ from, to });
    const scenarios = [
      { name: 'ten years (every transaction)', range: fixed('2016-01-01', '2025-12-31') },
      { name: 'a financial year (FY 2024-25)', range: fixed('2024-04-01', '2025-03-31') },
      { name: 'a month (November 2025)', range: fixed('2025-11-01', '2025-11-30') },
      { name: 'a different range each call', range: randomRange },
    ];
    console.log(
      `\n${CALLS} calls each, interleaved with the plain grouped query of the same range (after 10 warm-up), ms;` +
        ` answer cache off (ANSWER_CACHE_MB=0):\n` +
        `${'spending report'.padEnd(32)} ${'first'.padStart(7)} ${'p50'.padStart(7)} ${'p95'.padStart(7)}` +
        ` | ${'SQL p50'.padStart(7)} ${'SQL p95'.padStart(7)} | ${'p95 ×'.padStart(6)} | ${'reads p50'.padStart(9)}` +
        ` ${'reads p95'.padStart(9)} ${'×'.padStart(5)}   load  rows`,
    );
    for (const scenario of scenarios) {
      const call = async ({ from, to }: { from: string; to: string }) => {
        const url = `/api/reports/spending?from=${from}&to=${to}`;
        const started = performance.now();
        const response = await t.app.inject({ method: 'GET', url, headers });
        const ms = performance.now() - started;
        if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
        return { ms, body: response.json() };
      };
      // The report's own reads and roll-up, without HTTP (routing, auth, serialisation).
      const reads = async ({ from, to }: { from: string; to: string }) => {
        const started = performance.now();
        const spent = await categoriesAndSpending(t.platform.db, userId, from, to);
        rollUpSpending(spent.tree, spent.categories, spent.loanPayments);
        return performance.now() - started;
      };
      const sql = async ({ from, to }: { from: string; to: string }) => {
        const started = performance.now();
        const result = await t.platform.db.query(PLAIN_SQL, [userId, from, to]);
        return { ms: performance.now() - started, rows: result.rows.length };
      };
      // The first call of the scenario: the report's own first read of these rows.
      const first = await call(scenario.range());
      for (let i = 0; i < 10; i++) {
        const range = scenario.range();
        await call(range);
        await sql(range);
      }
      const reportTimes: number[] = [];
      const readTimes: number[] = [];
      const sqlTimes: number[] = [];
      let counted = 0;
      for (let i = 0; i < CALLS; i++) {
        const range = scenario.range();
        // Alternate which goes first, so neither always finds the other's pages warm.
        if (i % 2 === 0) {
          const r = await call(range);
          reportTimes.push(r.ms);
          sqlTimes.push((await sql(range)).ms);
          readTimes.push(await reads(range));
          counted = r.body.data.categories.reduce((n: number, c: { count: number }) => n + c.count, 0);
        } else {
          readTimes.push(await reads(range));
          sqlTimes.push((await sql(range)).ms);
          reportTimes.push((await call(range)).ms);
        }
      }
      const report = stats(reportTimes);
      const plain = stats(sqlTimes);
      const read = stats(readTimes);
      console.log(
        `${scenario.name.padEnd(32)} ${first.ms.toFixed(1).padStart(7)} ${report.p50.toFixed(1).padStart(7)} ` +
          `${report.p95.toFixed(1).padStart(7)} | ${plain.p50.toFixed(1).padStart(7)} ${plain.p95.toFixed(1).padStart(7)} | ` +
          `${(report.p95 / plain.p95).toFixed(2).padStart(6)} | ${read.p50.toFixed(1).padStart(9)} ${read.p95.toFixed(1).padStart(9)} ` +
          `${(read.p95 / plain.p95).toFixed(2).padStart(5)}  ${loadavg()[0]?.toFixed(1).padStart(5)}  ${counted} debits and loan payments (last call)`,
      );
    }
  } finally {
    await t.close();
  }
}

await main();
