/**
 * HTTP benchmark (issue 16): `npm run bench:http`.
 *
 * Seeds one user with 100,000 transactions and 10 loans (one of 600 months) plus four other users
 * with 5,000 transactions each on a fresh PostgreSQL database, then starts four servers, each
 * its own process, and drives them with autocannon in the same run:
 *
 *   hello     — Fastify answering a fixed ~2 KB JSON document (the HTTP floor)
 *   thin raw  — Fastify + `pg`, one indexed query answered as the driver gives it: the same
 *               first page of transactions, and (issue 33) the same rows of the ledger month, the
 *               600-row schedule (both in Kosh's answer shape) and the loan list
 *               (bench/src/support/http-targets.ts)
 *   Kosh      — `platform/src/server.ts` as production runs it (NODE_ENV=production, PostgreSQL,
 *               BullMQ on Redis, info-level logs to a pipe), rate limits off; and a second one
 *               with no answers kept (ANSWER_CACHE_MB=0)
 *
 * Per route and connection count it prints req/s, p50, p99, the ratio of req/s to its thin
 * baseline at the same connection count (the transaction page's for the transaction routes; the
 * thin ledger month, schedule, loan list and ledger periods for theirs), CPU per request of the server's node
 * process and of the PostgreSQL backends connected to the bench database (read from /proc; Linux
 * only), and cpu/thin: the baseline's CPU per request over the route's (steadier than req/s on a
 * shared machine). Every
 * request carries a browser's `Accept-Encoding: gzip, deflate, br`.
 * Not a test: figures only.
 *
 * Repeated reads are answered from the answer cache while the read models have not moved: the
 * rows marked "no cache" go to a second Kosh server with ANSWER_CACHE_MB=0, so they measure the
 * read itself; `<new …>` rows ask a new search term per request.
 *
 * Last, the answer cache under many users (issue 33): BENCH_USERS (1,000) new users, each in turn
 * recording a transaction and then reading its transaction page, totals, ledger month and loan
 * list, from 10 at a time, against the cached server and then the same users against the one with
 * ANSWER_CACHE_MB=0; the server's own count of hits (kosh_answer_cache_total at /metrics) gives
 * the hit rate per route, printed beside the req/s of both.
 *
 * Options (environment): BENCH_TRANSACTIONS=100000  BENCH_DURATION=5 (seconds per run)
 * BENCH_CONNECTIONS=10,50  BENCH_ONLY=<substrings of route names, comma-separated>  BENCH_LOG_LEVEL=info
 * BENCH_USERS=1000 (0: no many-user run)  BENCH_WARMUP=5 (seconds, each server's first route)
 * BENCH_KEEP=1 (keep the database, for EXPLAIN; drop it yourself)
 * BENCH_REUSE=<database URL a BENCH_KEEP run printed> (no seeding: that book, kept afterwards)
 * BENCH_CPU_PROF=/abs/dir (Kosh's servers write CPU profiles to its `kosh/` and `uncached/`; the
 * largest file of each is the main thread's)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { repoRoot, seedCatalog } from '@kosh/command-api';
import { fixtureSessionId, signUp } from '@kosh/command-api/testing';
import { createPgDb } from '@kosh/event-store';
import { createTestDatabase, type TestDatabase } from '@kosh/event-store/testing';
import { buildHttpApp, createRuntime, loadConfig } from '@kosh/platform';
import { allProjections } from '@kosh/projections';
import autocannon from 'autocannon';
import pg from 'pg';
import { book, LOAN_DURATIONS } from './support/book';

const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 100_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number);
const USERS = Number(process.env.BENCH_USERS ?? 1000);
const REUSE = process.env.BENCH_REUSE;
/** Seconds of warm-up of each server's first route (every other route gets one). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const NOW = new Date('2025-12-20T06:00:00.000Z');
const TICKS_PER_MS = 100 / 1000; // USER_HZ

const TERM_LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** A random search term of `length` letters or digits (1,332 of one or two characters). */
function randomTerm(length: number): string {
  let term = '';
  for (let i = 0; i < length; i++) term += TERM_LETTERS[Math.floor(Math.random() * TERM_LETTERS.length)];
  return term;
}

/** `#` and four digits, URL-encoded: the trigram index's case (the book's notes end in `#1..9999`). */
function orderNumberTerm(): string {
  return encodeURIComponent(`#${1000 + Math.floor(Math.random() * 9000)}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject()));
    });
  });
}

/** CPU time (user + system) of a process in ms, or null once it is gone. */
function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_MS;
  } catch {
    return null;
  }
}

type Server = { name: string; url: string; process: ChildProcess };

async function start(name: string, args: string[], env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  // BENCH_CPU_PROF=<dir>: Kosh's servers write CPU profiles (one per thread) when they stop.
  const profile =
    process.env.BENCH_CPU_PROF && (name === 'kosh' || name === 'uncached')
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}/${name}`]
      : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const probe = name === 'kosh' || name === 'uncached' ? `${url}/livez` : url;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    const ok = await fetch(probe).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return { name, url, process: child };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not start`);
}

async function stop(server: Server): Promise<void> {
  if (server.process.exitCode !== null) return;
  const exited = new Promise((r) => server.process.once('exit', r));
  server.process.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (server.process.exitCode === null) server.process.kill('SIGKILL');
}

type Route = {
  name: string;
  server: 'hello' | 'thin' | 'kosh' | 'uncached';
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** A thin route: the ratio of the routes that name it in `versus`. */
  baseline?: Baseline;
  /** The baseline its ratio is to (the transaction page's when none). */
  versus?: Baseline;
  /** A new path for every request (terms the answer cache has not seen), instead of `path`. */
  paths?: () => string;
};

type Baseline = 'page' | 'ledger' | 'schedule' | 'loans' | 'periods' | 'hello';

type Figures = { rps: number; p50: number; p99: number; nodeMs: number; pgMs: number; bad: number };

/** `kosh_answer_cache_total` of a server: count by `route outcome`. */
async function cacheCounts(url: string, token: string): Promise<Map<string, number>> {
  const text = await (
    await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })
  ).text();
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^kosh_answer_cache_total\{(.*)\} (\d+)/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries(
      [...(m[1] as string).matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]),
    );
    counts.set(`${labels.route} ${labels.outcome}`, Number(m[2]));
  }
  return counts;
}

/** The hit rate per route between two counts of kosh_answer_cache_total. */
function printHitRates(before: Map<string, number>, after: Map<string, number>): void {
  const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
  const routes = [...new Set([...after.keys()].map((k) => k.split(' ')[0] as string))].sort();
  let hits = 0;
  let all = 0;
  for (const route of routes) {
    const hit = delta(`${route} hit`);
    const total = hit + delta(`${route} miss`);
    if (total === 0) continue;
    hits += hit;
    all += total;
    console.log(
      `  ${route.padEnd(30)} ${String(total).padStart(6)} reads  hit rate ${((100 * hit) / total).toFixed(1)}%`,
    );
  }
  console.log(
    `  ${'all'.padEnd(30)} ${String(all).padStart(6)} reads  hit rate ${((100 * hits) / (all || 1)).toFixed(1)}%`,
  );
}

/**
 * The answer cache under many users (issue 33): each user in turn opens its screens, records a
 * transaction and opens them again (read-your-writes), 10 users at a time, on `url`; then, once
 * all have, each opens them once more (coming back later). Prints the req/s of the first part and
 * the hit rate per route of each from the server's own counts (kosh_answer_cache_total).
 */
async function manyUsers(
  label: string,
  url: string,
  tokens: readonly string[],
  metricsToken: string,
  comesBack: boolean,
): Promise<number> {
  const reads = [
    '/api/transactions',
    '/api/transactions/stats',
    '/api/ledger?month=12&year=2025',
    '/api/loans',
  ];
  const before = await cacheCounts(url, metricsToken);
  let next = 0;
  let failed = 0;
  const started = performance.now();
  const get = async (path: string, authorization: string) => {
    const res = await fetch(`${url}${path}`, { headers: { authorization, 'accept-encoding': 'gzip' } });
    await res.arrayBuffer();
    if (res.status !== 200) failed++;
  };
  const user = async () => {
    while (next < tokens.length) {
      const authorization = `Bearer ${tokens[next++]}`;
      for (const path of reads) await get(path, authorization);
      const res = await fetch(`${url}/api/transactions`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({
          notes: 'Crowd write',
          transaction_type: 'D',
          transaction_date: '2025-12-01',
          amount: 99.5,
        }),
      });
      await res.arrayBuffer();
      if (res.status !== 201) failed++;
      for (const path of reads) await get(path, authorization);
    }
  };
  await Promise.all(Array.from({ length: 10 }, user));
  const seconds = (performance.now() - started) / 1000;
  const rps = (tokens.length * 9) / seconds;
  const after = await cacheCounts(url, metricsToken);
  console.log(
    `\n${label}, ${tokens.length} users (each: 4 reads, a write, the 4 reads again; 10 at a time): ${rps.toFixed(
      0,
    )} req/s${failed ? `, ${failed} failed` : ''}; load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  printHitRates(before, after);
  if (!comesBack) return rps;
  // Later, each user comes back to the same screens (the other users have written meanwhile):
  // with tags per user their answers are still the cached ones.
  const beforeRevisit = after;
  next = 0;
  const revisit = async () => {
    while (next < tokens.length) {
      const authorization = `Bearer ${tokens[next++]}`;
      for (const path of reads) await get(path, authorization);
    }
  };
  await Promise.all(Array.from({ length: 10 }, revisit));
  console.log("  each user's 4 reads again, after every other user's write:");
  printHitRates(beforeRevisit, await cacheCounts(url, metricsToken));
  return rps;
}

async function main() {
  const kept = REUSE ? createPgDb(REUSE) : null;
  const database: TestDatabase = kept
    ? { url: REUSE as string, db: kept, drop: () => kept.close().catch(() => {}) }
    : await createTestDatabase({ prefix: 'kosh_bench' });
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const servers: Server[] = [];
  try {
    const secret = randomBytes(32).toString('hex');
    let userId: string = randomUUID();
    console.log(
      REUSE
        ? `Kosh HTTP bench: PostgreSQL, the book kept at ${REUSE}`
        : `Kosh HTTP bench: PostgreSQL, ${TRANSACTIONS} transactions and 10 loans for one user, 4×5000 for others`,
    );
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      JWT_SECRET: secret,
      LOG_LEVEL: 'silent',
      DATA_DIR: path.join(repoRoot, 'data', 'bench-http'),
    });
    const platform = await createRuntime(config, { db: database.db, clock: () => NOW });
    let longLoan: string;
    if (REUSE) {
      // The seeded user holds the 600-month loan, the longest schedule.
      const { rows } = await admin.query<{ user_id: string; loan_id: string }>(
        `SELECT user_id, loan_id::text AS loan_id FROM loan_schedules ORDER BY number_of_payments DESC LIMIT 1`,
      );
      if (!rows[0]) throw new Error('BENCH_REUSE: no schedule in that database');
      userId = rows[0].user_id;
      longLoan = rows[0].loan_id;
    } else {
      const seed = book(platform, NOW);
      await seedCatalog(platform.eventStore, NOW);
      const durations = LOAN_DURATIONS.map((d, i) => (i === 8 ? 600 : d));
      const loanIds = await seed.appendLoans(userId, durations);
      longLoan = loanIds[8] as string;
      const started = performance.now();
      await seed.appendTransactions(userId, TRANSACTIONS);
      for (let u = 0; u < 4; u++) await seed.appendTransactions(randomUUID(), 5000);
      for (const { name } of allProjections) await platform.runner.catchUp(name);
      await signUp(platform, userId);
      console.log(`seeded and projected in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    // The many-user run's users: registered, nothing recorded yet.
    const crowd = Array.from({ length: USERS }, () => randomUUID());
    for (const id of crowd) await signUp(platform, id);
    const app = await buildHttpApp(platform);
    await app.ready();
    const token = app.issueToken(userId, { rememberMe: true, sessionId: fixtureSessionId(userId) });
    const crowdTokens = crowd.map((id) =>
      app.issueToken(id, { rememberMe: true, sessionId: fixtureSessionId(id) }),
    );
    await app.close();
    await platform.close();
    await admin.query('VACUUM ANALYZE');

    const { rows: busiest } = await admin.query<{ year: number; month: number; n: number }>(
      `SELECT year, month, transaction_count + emi_count AS n FROM ledger_periods
        WHERE user_id = $1 ORDER BY n DESC, year DESC LIMIT 1`,
      [userId],
    );
    const month = busiest[0];
    if (!month) throw new Error('no ledger month');

    const koshEnv = {
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: `kosh-bench-${randomBytes(4).toString('hex')}`,
      JWT_SECRET: secret,
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
      DATA_DIR: config.DATA_DIR,
      // The cache's hit count (kosh_answer_cache_total) for the many-user run.
      METRICS_TOKEN: secret,
    };
    const kosh = await start('kosh', ['platform/src/server.ts'], koshEnv);
    servers.push(kosh);
    // The same server with no answers kept (ANSWER_CACHE_MB=0): what a read costs when it is built.
    servers.push(
      await start('uncached', ['platform/src/server.ts'], {
        ...koshEnv,
        QUEUE_PREFIX: `kosh-bench-${randomBytes(4).toString('hex')}`,
        ANSWER_CACHE_MB: '0',
      }),
    );
    const targets = ['bench/src/support/http-targets.ts'];
    servers.push(await start('hello', [...targets, 'hello'], {}));
    servers.push(
      await start('thin', [...targets, 'thin-raw'], { DATABASE_URL: database.url, BENCH_USER_ID: userId }),
    );
    const serverOf = (name: Route['server']) => servers.find((s) => s.name === name) as Server;

    const auth = { authorization: `Bearer ${token}` };
    const post = JSON.stringify({
      notes: 'Bench write',
      transaction_type: 'D',
      transaction_date: '2025-12-01',
      amount: 123.45,
    });
    const ledgerPath = `/api/ledger?month=${month.month}&year=${month.year}`;
    const schedulePath = `/api/loans/${longLoan}/amortization`;
    const monthRange = (() => {
      const last = new Date(Date.UTC(month.year, month.month, 0)).getUTCDate();
      const mm = String(month.month).padStart(2, '0');
      return `from=${month.year}-${mm}-01&to=${month.year}-${mm}-${last}`;
    })();
    const newShortTerm = () => `/api/transactions?search=${randomTerm(1 + Math.floor(Math.random() * 2))}`;
    const newOrderNumber = () => `/api/transactions?search=${orderNumberTerm()}`;
    const routes: Route[] = [
      { name: 'hello world (2 KB JSON)', server: 'hello', path: '/', baseline: 'hello' },
      { name: 'thin raw (1 query, page 1)', server: 'thin', path: '/', baseline: 'page' },
      {
        name: `thin raw: ledger month (${month.n})`,
        server: 'thin',
        path: `/ledger?${monthRange}`,
        baseline: 'ledger',
      },
      {
        name: 'thin raw: schedule (600)',
        server: 'thin',
        path: `/schedule/${longLoan}`,
        baseline: 'schedule',
      },
      { name: 'thin raw: loans (10)', server: 'thin', path: '/loans', baseline: 'loans' },
      { name: 'thin raw: ledger periods', server: 'thin', path: '/periods', baseline: 'periods' },
      { name: 'GET /api/transactions', server: 'kosh', path: '/api/transactions' },
      {
        name: 'GET /api/transactions?search=swiggy',
        server: 'kosh',
        path: '/api/transactions?search=swiggy',
      },
      { name: 'GET /api/transactions/stats', server: 'kosh', path: '/api/transactions/stats' },
      { name: `GET /api/ledger (${month.n} entries)`, server: 'kosh', path: ledgerPath, versus: 'ledger' },
      { name: 'GET /api/ledger/periods', server: 'kosh', path: '/api/ledger/periods', versus: 'periods' },
      { name: 'GET /api/loans', server: 'kosh', path: '/api/loans', versus: 'loans' },
      { name: 'GET /api/loans/stats', server: 'kosh', path: '/api/loans/stats' },
      {
        name: 'GET /api/loans/{id}/amortization (600)',
        server: 'kosh',
        path: schedulePath,
        versus: 'schedule',
      },
      // Built on every request (ANSWER_CACHE_MB=0): the reads themselves, and the notes search
      // (a repeated search is a cache hit on the server above).
      { name: 'no cache: GET /api/transactions', server: 'uncached', path: '/api/transactions' },
      { name: 'no cache: GET /api/transactions/stats', server: 'uncached', path: '/api/transactions/stats' },
      {
        name: 'no cache: GET /api/ledger/periods',
        server: 'uncached',
        path: '/api/ledger/periods',
        versus: 'periods',
      },
      {
        name: `no cache: GET /api/ledger (${month.n})`,
        server: 'uncached',
        path: ledgerPath,
        versus: 'ledger',
      },
      { name: 'no cache: GET /api/loans', server: 'uncached', path: '/api/loans', versus: 'loans' },
      { name: 'no cache: amortization (600)', server: 'uncached', path: schedulePath, versus: 'schedule' },
      { name: 'no cache: search=swiggy', server: 'uncached', path: '/api/transactions?search=swiggy' },
      { name: 'no cache: search=ui', server: 'uncached', path: '/api/transactions?search=ui' },
      { name: 'no cache: search=z', server: 'uncached', path: '/api/transactions?search=z' },
      { name: 'no cache: search=<new 1-2 chars>', server: 'uncached', path: '/', paths: newShortTerm },
      { name: 'no cache: search=<new #NNNN>', server: 'uncached', path: '/', paths: newOrderNumber },
      {
        name: 'POST /api/transactions',
        server: 'kosh',
        path: '/api/transactions',
        method: 'POST',
        body: post,
        headers: { 'content-type': 'application/json' },
      },
      {
        name: 'no cache: search=swiggy after the writes',
        server: 'uncached',
        path: '/api/transactions?search=swiggy',
      },
      {
        name: 'no cache: search=<new #NNNN> after writes',
        server: 'uncached',
        path: '/',
        paths: newOrderNumber,
      },
      { name: 'no cache: search=<new 1-2> after writes', server: 'uncached', path: '/', paths: newShortTerm },
    ];

    const run = async (route: Route, connections: number, duration: number): Promise<Figures> => {
      const server = serverOf(route.server);
      const backends = async () =>
        (
          await admin.query<{ pid: number }>(
            'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
          )
        ).rows.map((r) => r.pid);
      const pids = await backends();
      const pgBefore = new Map(pids.map((pid) => [pid, cpuMs(pid)]));
      const nodeBefore = cpuMs(server.process.pid as number) ?? 0;
      const result = await autocannon({
        url: `${server.url}${route.path}`,
        method: route.method ?? 'GET',
        body: route.body,
        // As a browser asks: servers that compress nothing (the baselines, most routes) ignore it.
        headers: {
          'accept-encoding': 'gzip, deflate, br',
          ...(route.server === 'kosh' || route.server === 'uncached' ? auth : {}),
          ...route.headers,
        },
        connections,
        duration,
        ...(route.paths
          ? {
              requests: [
                { setupRequest: (request) => ({ ...request, path: route.paths?.() ?? route.path }) },
              ],
            }
          : {}),
      });
      const nodeMs = (cpuMs(server.process.pid as number) ?? nodeBefore) - nodeBefore;
      // Backends that closed during the run are not counted (the pools keep theirs open).
      let pgMs = 0;
      for (const pid of new Set([...pids, ...(await backends())])) {
        const now = cpuMs(pid);
        if (now !== null) pgMs += now - (pgBefore.get(pid) ?? 0);
      }
      const total = result.requests.total || 1;
      return {
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        nodeMs: nodeMs / total,
        pgMs: pgMs / total,
        bad: result.non2xx + result.errors + result.timeouts,
      };
    };

    console.log(
      `ledger month ${month.year}-${String(month.month).padStart(2, '0')}; ${DURATION} s per run; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    const head = `${'route'.padEnd(42)} ${'conns'.padStart(5)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'/thin'.padStart(7)} ${'node ms/req'.padStart(12)} ${'pg ms/req'.padStart(10)} ${'cpu/thin'.padStart(9)}`;
    console.log(`\n${head}`);
    // Req/s of each thin baseline by connection count.
    const thin = new Map<string, number>();
    // CPU (node + PostgreSQL) per request of each thin baseline: on a shared machine req/s follow
    // the load of the moment, CPU per request much less (cpu/thin = baseline's CPU / the route's).
    const thinCpu = new Map<string, number>();
    const warmed = new Set<Route['server']>();
    for (const route of routes) {
      // The baselines always run, but a thin one only for the routes asked for.
      const versus = route.baseline ?? route.versus ?? 'page';
      const asked = (r: Route) => ONLY.some((o) => r.name.includes(o));
      if (ONLY.length > 0 && !asked(route)) {
        const wanted = routes.some((r) => !r.baseline && asked(r) && (r.versus ?? 'page') === versus);
        if (!route.baseline || !(versus === 'hello' || wanted)) continue;
      }
      // Warm-up (JIT, plans, connection pools), not counted. A server's first route gets longer:
      // on a loaded machine one second left its code half-optimised (the first no-cache route
      // measured 4.3 ms of node per request, 2.2 ms when measured again later in the same run).
      if (route.method !== 'POST') await run(route, 10, warmed.has(route.server) ? 1 : WARMUP);
      warmed.add(route.server);
      for (const connections of CONNECTIONS) {
        const f = await run(route, connections, DURATION);
        if (route.baseline) {
          thin.set(`${route.baseline}@${connections}`, f.rps);
          thinCpu.set(`${route.baseline}@${connections}`, f.nodeMs + f.pgMs);
        }
        const baseCpu = route.baseline === 'hello' ? undefined : thinCpu.get(`${versus}@${connections}`);
        const cpuRatio = baseCpu ? `${((100 * baseCpu) / (f.nodeMs + f.pgMs || 1)).toFixed(1)}%` : '';
        const base = route.baseline === 'hello' ? undefined : thin.get(`${versus}@${connections}`);
        const ratio = base ? `${((100 * f.rps) / base).toFixed(1)}%` : '';
        console.log(
          `${route.name.padEnd(42)} ${String(connections).padStart(5)} ${f.rps.toFixed(0).padStart(8)} ${String(f.p50).padStart(7)} ${String(f.p99).padStart(7)} ${ratio.padStart(7)} ${f.nodeMs.toFixed(3).padStart(12)} ${f.pgMs.toFixed(3).padStart(10)} ${cpuRatio.padStart(9)}${f.bad ? `   ${f.bad} failed` : ''}`,
        );
      }
    }
    if (USERS > 0) {
      // The same users on both servers, cached first (each user's second round finds one more
      // transaction of its own: a difference of one row).
      const cached = await manyUsers('answer cache on', serverOf('kosh').url, crowdTokens, secret, true);
      const none = await manyUsers('ANSWER_CACHE_MB=0', serverOf('uncached').url, crowdTokens, secret, false);
      console.log(
        `\nmany users: cache on ${cached.toFixed(0)} req/s, ANSWER_CACHE_MB=0 ${none.toFixed(0)} req/s (on/off ${(cached / none).toFixed(2)}×)`,
      );
    }
    console.log(
      `\nload at the end ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    for (const server of servers) await stop(server);
    await admin.end();
    if (process.env.BENCH_KEEP && !REUSE) console.log(`kept the database: ${database.url}`);
    if (!process.env.BENCH_KEEP || REUSE) await database.drop();
    // Kept: its pool closed all the same, or the process never exits.
    else await database.db.close();
  }
}

await main();
