/**
 * Browser benchmark of the money screens (issue 7): `npm run bench:web`.
 *
 * The whole app (API, projections, built web app) on a fresh PostgreSQL database, listening on a
 * free port; one user with 10,000 transactions over the last ten years and 10 loans (one of 600
 * months). Events go straight into the event log (as the API writes them) and are projected
 * before timing. Then Debian's Chromium opens /transactions, /ledger and
 * /loans/{id}/amortization and times, from navigation start, the moment the screen is usable:
 * its data rendered (10 rows and the stats; the month's tables; the 600-row schedule's table with
 * the rows its scroll box shows, issue 33 rendering long tables in windows). Each
 * screen COLD_RUNS times in a fresh browser context (cold cache; the median is shown, one cold
 * sample being too noisy on a shared machine), then RUNS times warm; plus the frame times of
 * scrolling the 600-row schedule from top to bottom. Needs `npm run build -w web` first
 * (the npm script does it). Figures only, not a test.
 *
 * Issue 33: the dashboard too, the book at 100,000 rows by default (a ledger month of 800+
 * entries), the worst cold load beside the median, and the login route's gzipped JavaScript.
 *
 * Options (environment): BENCH_WEB_TRANSACTIONS=100000  BENCH_WEB_RUNS=5  BENCH_WEB_COLD_RUNS=3
 * BENCH_WEB_DIST=web/dist  BENCH_WEB_WATERFALL=1 (requests)  BENCH_WEB_PROFILE=1 (main-thread time; BENCH_WEB_PROFILE_DIR=d writes the profiles)
 * BENCH_WEB_TRACE=1 (main thread by trace event) BENCH_WEB_RTT_MS=100 (cold loads over a slower network)
 * BENCH_WEB_API=1 (each screen's first-data GETs timed from Node, alone and all at once, before the browser)
 * BENCH_WEB_BROWSER_WARMUP=0 (time the browser's first page after launch too)
 * BENCH_WEB_SERVER_WARMUP=0 (time the server's first answers after start too; by default another user visits each screen first) BENCH_WEB_SAMPLES=1 (each cold load)
 * BENCH_WEB_DIST_B=/tmp/other-dist (A/B: a second server of the same data serves that build; each
 * screen's cold loads alternate between the two, and the table shows B's figures and B/A ratios)
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { seedCatalog } from '@kosh/command-api';
import { fixtureSessionId, signUp } from '@kosh/command-api/testing';
import {
  type DomainEvent,
  type LoanFields,
  loanDecider,
  loanStreamId,
  type TransactionRecorded,
  transactionStreamId,
} from '@kosh/domain';
import type { NewEvent } from '@kosh/event-store';
import { createTestDatabase } from '@kosh/event-store/testing';
import { buildHttpApp, createRuntime, loadConfig } from '@kosh/platform';
import { allProjections } from '@kosh/projections';
import { type Browser, chromium, type Page } from 'playwright-core';
import { random } from './support/random';

const TRANSACTIONS = Number(process.env.BENCH_WEB_TRANSACTIONS ?? 100_000);
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);
const COLD_RUNS = Number(process.env.BENCH_WEB_COLD_RUNS ?? 3);
const repoRoot = path.resolve(import.meta.dirname, '..', '..');
/** The built web app to serve; BENCH_WEB_DIST compares another build of it. */
const webDist = process.env.BENCH_WEB_DIST ?? path.join(repoRoot, 'web', 'dist');
/** BENCH_WEB_DIST_B: another build, timed against webDist in the same run (cold loads interleaved). */
const webDistB = process.env.BENCH_WEB_DIST_B;

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const rnd = random(7);
const NOTES = ['Groceries at BigBasket', 'Rent', 'Electricity bill', 'Swiggy order', 'Petrol', 'School fees'];
const CREDIT_NOTES = ['Salary', 'Freelance invoice', 'Interest credit', 'Dividend'];

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

function metadata(userId: string, now: Date) {
  return {
    userId,
    correlationId: randomUUID(),
    causationId: null,
    recordedAt: now.toISOString(),
    schemaVersion: 1,
  };
}

const toNew = (userId: string, now: Date, event: DomainEvent): NewEvent => ({
  id: randomUUID(),
  type: event.type,
  data: event.data,
  metadata: metadata(userId, now),
});

/** 10,000 transactions spread evenly over the ten years up to today. */
function transactionEvent(userId: string, index: number, now: Date): TransactionRecorded {
  const days = 3650;
  const date = new Date(
    now.getTime() - Math.floor(((TRANSACTIONS - 1 - index) / TRANSACTIONS) * days) * 86_400_000,
  );
  const credit = rnd() < 0.2;
  const pick = (items: string[]) => items[Math.floor(rnd() * items.length)] as string;
  return {
    type: 'TransactionRecorded',
    data: {
      transactionId: randomUUID(),
      userId,
      notes: `${credit ? pick(CREDIT_NOTES) : pick(NOTES)} #${index + 1}`,
      transactionType: credit ? 'C' : 'D',
      transactionDate: isoDay(date),
      amount: credit ? 100_000 + Math.floor(rnd() * 10_000_000) : 1_000 + Math.floor(rnd() * 2_000_000),
      recordedAt: date.toISOString(),
    },
  };
}

function loanFields(i: number, now: Date): LoanFields {
  const start = new Date(Date.UTC(now.getUTCFullYear() - 1 - (i % 8), (i * 5) % 12, 1 + ((i * 7) % 28)));
  return {
    bankId: 1 + ((i * 3) % 20),
    loanTypeId: 1 + (i % 10),
    accountNumber: `WEB${100000 + i * 7919}`,
    shortDetail: null,
    principalAmount: (5 + i * 9) * 100_000_00,
    interestRate: 7.5 + i * 0.5,
    isInterestRateYearly: true,
    // The first loan runs 50 years: the 600-row schedule.
    duration: [600, 60, 36, 120, 84, 180, 240, 48, 300, 72][i] ?? 60,
    isDurationYearly: false,
    startDate: isoDay(start),
    processingFee: 0,
    hasGst: i % 4 === 1,
    gstPercentage: i % 4 === 1 ? 18 : 0,
    emisAutoDebited: true,
    processingFeeGst: true,
  };
}

type Setup = {
  baseUrl: string;
  baseUrlB: string | null;
  token: string;
  scheduleLoanId: string;
  /** Another user (1,000 transactions this month, the same 600-month loan): the server's warm-up visitor. */
  other: { token: string; scheduleLoanId: string };
  close(): Promise<void>;
};

async function setUp(): Promise<Setup> {
  if (!existsSync(path.join(webDist, 'index.html'))) {
    throw new Error(`${webDist} has no build: run \`npm run build -w web\` first (npm run bench:web does).`);
  }
  const database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    JWT_SECRET: randomUUID() + randomUUID(),
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'kosh-bench-web-')),
    APP_URL: 'http://127.0.0.1',
    RATE_LIMIT_ENABLED: 'false',
    ...(process.env.ANSWER_CACHE_MB ? { ANSWER_CACHE_MB: process.env.ANSWER_CACHE_MB } : {}),
  });
  const platform = await createRuntime(config, { db: database.db });
  const app = await buildHttpApp(platform, { webDist });
  await app.ready();
  const appB = webDistB ? await buildHttpApp(platform, { webDist: webDistB }) : null;
  await appB?.ready();
  const now = new Date();

  // The user as the test kit registers one (with the fixture session its token names): the
  // register route's answer no longer waits for the account (issue 32), which this bench needs.
  const userId = randomUUID();
  await signUp(platform, userId);

  await seedCatalog(platform.eventStore, now);
  /** The owner's `i`th loan of loanFields, as the API stores one: its id. */
  const createLoan = async (owner: string, i: number) => {
    const loanId = randomUUID();
    const created = loanDecider.decide(
      {
        type: 'CreateLoan',
        data: { loanId, userId: owner, fields: loanFields(i, now), now: now.toISOString() },
      },
      loanDecider.initialState(),
    );
    await platform.eventStore.appendToStream(
      loanStreamId(loanId),
      created.map((e) => toNew(owner, now, e)),
      { expectedVersion: 'no_stream' },
    );
    return loanId;
  };
  const otherUserId = randomUUID();
  await signUp(platform, otherUserId);
  const otherLoanId = await createLoan(otherUserId, 0);
  for (let i = 0; i < 1000; i++) {
    const event = transactionEvent(otherUserId, i, now);
    await platform.eventStore.appendToStream(
      transactionStreamId(event.data.transactionId),
      [toNew(otherUserId, now, { ...event, data: { ...event.data, transactionDate: isoDay(now) } })],
      { expectedVersion: 'no_stream' },
    );
  }
  const loanIds: string[] = [];
  for (let i = 0; i < 10; i++) loanIds.push(await createLoan(userId, i));
  const started = performance.now();
  for (let from = 0; from < TRANSACTIONS; from += 2000) {
    const rows = [];
    for (let i = from; i < Math.min(TRANSACTIONS, from + 2000); i++) {
      const event = transactionEvent(userId, i, now);
      rows.push({ ...toNew(userId, now, event), stream: transactionStreamId(event.data.transactionId) });
    }
    await platform.db.query(
      `INSERT INTO events (event_id, stream_id, stream_version, type, data, metadata)
       SELECT r.id, r.stream, 1, r.type, r.data, r.metadata
         FROM jsonb_to_recordset($1::jsonb) AS r(id text, stream text, type text, data jsonb, metadata jsonb)`,
      [JSON.stringify(rows)],
    );
  }
  for (const projection of allProjections) await platform.runner.catchUp(projection.name);
  await platform.db.query('VACUUM ANALYZE');
  console.log(
    `seeded and projected ${TRANSACTIONS} transactions and 10 loans in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let baseUrlB: string | null = null;
  if (appB) {
    await appB.listen({ port: 0, host: '127.0.0.1' });
    const addressB = appB.server.address();
    baseUrlB = `http://127.0.0.1:${typeof addressB === 'object' && addressB ? addressB.port : 0}`;
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    baseUrlB,
    token: app.issueToken(userId, { sessionId: fixtureSessionId(userId) }),
    scheduleLoanId: loanIds[0] as string,
    other: {
      token: app.issueToken(otherUserId, { sessionId: fixtureSessionId(otherUserId) }),
      scheduleLoanId: otherLoanId,
    },
    async close() {
      await appB?.close();
      await app.close();
      await platform.close();
      await database.drop();
    },
  };
}

type Screen = { name: string; path: string; usable: string };

/** In-page conditions for "usable": the screen's data is on it, not a spinner. */
const screens = (loanId: string): Screen[] => [
  {
    name: '/dashboard',
    path: '/dashboard',
    usable: `[...document.querySelectorAll('h1')].some((h) => h.textContent.startsWith('Welcome back'))
      && /\\d/.test(document.querySelector('[aria-label="Total Loans"] .kosh-stat-value')?.textContent ?? '')`,
  },
  {
    name: '/transactions',
    path: '/transactions',
    usable: `document.querySelectorAll('table[aria-label="Transactions"] tbody tr td[data-label="Notes"]').length === 10
      && /\\d/.test(document.querySelector('[aria-label="Total Transactions"] .kosh-stat-value')?.textContent ?? '')`,
  },
  {
    name: '/ledger',
    path: '/ledger',
    usable: `!!document.querySelector('table[aria-label="Debit entries"] tfoot')
      && [...document.querySelectorAll('h2')].some((h) => h.textContent.startsWith('Ledger for '))`,
  },
  {
    name: '/loans/{id}/amortization (600 rows)',
    path: `/loans/${loanId}/amortization`,
    // The schedule renders in windows (issue 33): usable when the table announces its 600 rows
    // (aria-rowcount: head, 600, foot) and the rows that fill its scroll box are there; a build
    // from before the windows (BENCH_WEB_DIST) when all 600 rows are.
    usable: `(!!document.querySelector('table[aria-label="Amortization schedule"][aria-rowcount="602"] tfoot')
        && document.querySelectorAll('table[aria-label="Amortization schedule"] tbody tr[aria-rowindex]').length >= 20)
      || document.querySelectorAll('table[aria-label="Amortization schedule"] tbody tr').length === 600`,
  },
];

/** Milliseconds from navigation start to the first animation frame at which `usable` holds. */
async function timeScreen(page: Page, baseUrl: string, screen: Screen): Promise<number> {
  await page.goto(`${baseUrl}${screen.path}`, { waitUntil: 'commit' });
  await page.waitForFunction(screen.usable, undefined, { polling: 'raf', timeout: 30_000 });
  return page.evaluate(() => performance.now());
}

/**
 * Frame times while the schedule is scrolled from top to bottom in 120 frames. Written as page
 * source text: the bundler's helpers for named functions do not exist in the page.
 */
const SCROLL_SCRIPT = `new Promise((resolve) => {
  const box = document.querySelector('.kosh-schedule-scroll');
  const frames = [];
  let last = performance.now();
  let step = 0;
  const tick = (t) => {
    frames.push(t - last);
    last = t;
    step += 1;
    box.scrollTop = (box.scrollHeight * step) / 120;
    if (step < 120) requestAnimationFrame(tick);
    else resolve(frames.slice(1));
  };
  requestAnimationFrame(tick);
})`;

async function scrollFrames(page: Page): Promise<number[]> {
  return page.evaluate(SCROLL_SCRIPT) as Promise<number[]>;
}

/** BENCH_WEB_WATERFALL=1: each screen's first cold load, request by request (where the time goes). */
const WATERFALL = process.env.BENCH_WEB_WATERFALL === '1';
/**
 * BENCH_WEB_RTT_MS=100: cold loads over an emulated network of that round-trip time (Chromium's
 * network emulation, no bandwidth cap), as a phone on a mobile network would load the screens.
 */
const RTT_MS = Number(process.env.BENCH_WEB_RTT_MS ?? 0);
/** BENCH_WEB_PROFILE=1: each screen's first cold load, main-thread time by kind and by script. */
const PROFILE = process.env.BENCH_WEB_PROFILE === '1';

type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
};

/** Starts Chromium's sampling profiler and timeline counters on a page before it navigates. */
async function startProfile(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  return async (name: string) => {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    // BENCH_WEB_PROFILE_DIR: the profile itself too, for DevTools or a source map.
    const dir = process.env.BENCH_WEB_PROFILE_DIR;
    if (dir)
      writeFileSync(path.join(dir, `${name.replace(/[^\w]+/g, '_')}.cpuprofile`), JSON.stringify(profile));
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (key: string) => ((metrics.find((m) => m.name === key)?.value ?? 0) * 1000).toFixed(0);
    console.log(
      `  ${name}: main thread ms — tasks ${metric('TaskDuration')}, script ${metric('ScriptDuration')}, ` +
        `style ${metric('RecalcStyleDuration')}, layout ${metric('LayoutDuration')}`,
    );
    const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    const self = new Map<string, number>();
    const byScript = new Map<string, number>();
    // The load as a strip: per 50 ms, what the main thread did most (idle = waiting).
    const buckets = new Map<number, Map<string, number>>();
    const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
    let at = 0;
    profile.samples.forEach((id, i) => {
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      at += ms;
      const frame = byId.get(id);
      if (!frame) return;
      const script = frame.url ? new URL(frame.url).pathname : `(${frame.functionName || 'native'})`;
      add(byScript, script, ms);
      add(self, `${frame.functionName || '(anonymous)'} ${script}:${frame.lineNumber}`, ms);
      const kind = frame.url ? (script.replace(/^\/assets\//, '').split('-')[0] ?? '') : frame.functionName;
      const bucket = buckets.get(Math.floor(at / 50)) ?? new Map<string, number>();
      add(bucket, kind, ms);
      buckets.set(Math.floor(at / 50), bucket);
    });
    const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
    const strip: string[] = [];
    for (const [b, kinds] of [...buckets].sort((x, y) => x[0] - y[0])) {
      const parts = top(kinds, 3).map(([k, ms]) => `${k} ${ms.toFixed(0)}`);
      strip.push(`${String(b * 50).padStart(5)}: ${parts.join(', ')}`);
    }
    console.log(`    timeline (from the profiler's start):\n      ${strip.join('\n      ')}`);
    console.log('    by script (self ms):');
    for (const [script, ms] of top(byScript, 10))
      console.log(`      ${ms.toFixed(0).padStart(5)}  ${script}`);
    console.log('    by function (self ms):');
    for (const [fn, ms] of top(self, 15))
      console.log(`      ${ms.toFixed(0).padStart(5)}  ${fn.slice(0, 100)}`);
  };
}

/** BENCH_WEB_TRACE=1: each screen's first cold load, the renderer's main thread by trace event (self ms). */
const TRACE = process.env.BENCH_WEB_TRACE === '1';

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
};

async function startTrace(browser: Browser, page: Page) {
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'v8',
      'v8.execute',
      'disabled-by-default-v8.compile',
      'disabled-by-default-devtools.timeline',
      'blink',
      'loading',
    ],
  });
  return async (name: string) => {
    const { traceEvents } = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
      traceEvents: TraceEvent[];
    };
    // The page's renderer: of the renderers' main threads, the one that worked longest.
    const busy = new Map<string, number>();
    for (const e of traceEvents)
      if (e.name === 'RunTask')
        busy.set(`${e.pid}/${e.tid}`, (busy.get(`${e.pid}/${e.tid}`) ?? 0) + (e.dur ?? 0));
    const busyOf = (e: TraceEvent) => busy.get(`${e.pid}/${e.tid}`) ?? 0;
    const main = traceEvents
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .sort((a, b) => busyOf(b) - busyOf(a))[0];
    if (!main) return;
    // Complete events of the main thread, nested: each one's self time is its duration less its children's.
    const events = traceEvents
      .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && (e.dur ?? 0) > 0)
      .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    const self = new Map<string, number>();
    const childTime = new Map<TraceEvent, number>();
    const open: TraceEvent[] = [];
    for (const e of events) {
      while (
        open.length > 0 &&
        (open.at(-1) as TraceEvent).ts + ((open.at(-1) as TraceEvent).dur ?? 0) <= e.ts
      )
        open.pop();
      const parent = open.at(-1);
      if (parent) childTime.set(parent, (childTime.get(parent) ?? 0) + (e.dur ?? 0));
      open.push(e);
    }
    let total = 0;
    for (const e of events) {
      const ms = ((e.dur ?? 0) - (childTime.get(e) ?? 0)) / 1000;
      self.set(e.name, (self.get(e.name) ?? 0) + ms);
      if (e.name === 'RunTask') total += (e.dur ?? 0) / 1000;
    }
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 18);
    console.log(`  ${name}: renderer main thread, tasks ${total.toFixed(0)} ms; self ms by event:`);
    for (const [event, ms] of top) console.log(`      ${ms.toFixed(0).padStart(5)}  ${event}`);
  };
}

type Timed = { path: string; start: number; end: number };

function recordRequests(page: Page): Timed[] {
  const timed: Timed[] = [];
  page.on('requestfinished', (request) => {
    const t = request.timing();
    const url = new URL(request.url());
    // startTime is wall-clock ms; the navigation's own request gives the origin below.
    timed.push({ path: url.pathname + url.search, start: t.startTime, end: t.startTime + t.responseEnd });
  });
  return timed;
}

function printWaterfall(name: string, timed: Timed[], usableAt: number): void {
  const origin = Math.min(...timed.map((r) => r.start));
  console.log(`  ${name}: usable at ${usableAt.toFixed(0)} ms; requests (start → end, ms from the first):`);
  for (const r of [...timed].sort((a, b) => a.start - b.start)) {
    console.log(
      `    ${(r.start - origin).toFixed(0).padStart(6)} → ${(r.end - origin).toFixed(0).padStart(6)}  ${r.path.slice(0, 90)}`,
    );
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))] ?? Number.NaN;
};

/** Issue 16's budget (e2e/bundle-size): the gzipped JavaScript a cold /login loads. */
async function loginRouteJs(browser: Browser, baseUrl: string): Promise<{ scripts: number; bytes: number }> {
  const { gzipSync } = await import('node:zlib');
  const context = await browser.newContext();
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  page.on('response', (response) => {
    if ((response.headers()['content-type'] ?? '').includes('javascript') || response.url().endsWith('.js'))
      sizes.push(response.body().then((body) => gzipSync(body, { level: 9 }).length));
  });
  await page.goto(`${baseUrl}/login`);
  await page.waitForLoadState('networkidle');
  const all = await Promise.all(sizes);
  await context.close();
  return { scripts: all.length, bytes: all.reduce((sum, n) => sum + n, 0) };
}

/**
 * BENCH_WEB_API=1: the GETs a cold start of each screen sends first (screenPaths.ts's firstData
 * and the session check), timed from Node with no browser running: each alone (the first time,
 * then the median of 5), then the screen's set at once, as boot.ts sends them.
 */
async function timeFirstData(setup: Setup): Promise<void> {
  const { matchScreenPath, screenPaths } = await import('../../web/src/app/screenPaths');
  const headers = { Authorization: `Bearer ${setup.token}` };
  const get = async (p: string) => {
    const started = performance.now();
    const response = await fetch(`${setup.baseUrl}${p}`, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${p}: ${response.status}`);
    return performance.now() - started;
  };
  console.log('\nfirst-data GETs from Node, ms (first, median of 5 more; then the set at once):');
  for (const screen of screens(setup.scheduleLoanId)) {
    const match = matchScreenPath(screen.path, screenPaths);
    if (!match) continue;
    const paths = ['/api/auth/profile', ...(match.screen.firstData?.(match.params, new Date()) ?? [])];
    for (const p of paths) {
      const first = await get(p);
      const again: number[] = [];
      for (let i = 0; i < 5; i++) again.push(await get(p));
      console.log(
        `  ${first.toFixed(1).padStart(7)} ${median(again).toFixed(1).padStart(7)}  ${p.slice(0, 80)}`,
      );
    }
    const started = performance.now();
    await Promise.all(paths.map(get));
    console.log(`  ${screen.name}: the set at once ${(performance.now() - started).toFixed(1)} ms`);
  }
}

async function main() {
  console.log(
    `Kosh web-screens bench: PostgreSQL, ${TRANSACTIONS} transactions, 10 loans, Chromium (headless)`,
  );
  const setup = await setUp();
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const signedInPage = async (token = setup.token) => {
      const context = await browser!.newContext({
        viewport: { width: 1280, height: 800 },
        // The app's CSP (no eval) would refuse the string predicates the bench polls with.
        bypassCSP: true,
      });
      await context.addInitScript((token) => sessionStorage.setItem('kosh.token', token), token);
      return context.newPage();
    };
    const list = screens(setup.scheduleLoanId);
    if (process.env.BENCH_WEB_API === '1') await timeFirstData(setup);
    // The browser's own first page after launch (its renderer and network service starting) is
    // not a screen's: the sign-in page, signed out, in a context thrown away, before any timing.
    // Nothing of the user's is read, so the first timed load still finds the server's answers cold.
    if (process.env.BENCH_WEB_BROWSER_WARMUP !== '0') {
      const warmup = await browser.newContext();
      const started = performance.now();
      await (await warmup.newPage()).goto(`${setup.baseUrl}/login`, { waitUntil: 'load' });
      console.log(
        `browser warm-up: /login signed out, ${(performance.now() - started).toFixed(0)} ms (not counted)`,
      );
      await warmup.close();
    }
    // A server that has just started is not one a user meets: its first answers pay for compiling
    // the routes' code and planning their queries. Another user visits each screen first (cold,
    // then once more), so the timed user's answers are still uncached and their data unread by any
    // answer, but the server's code is warm. BENCH_WEB_SERVER_WARMUP=0 times the first answers too.
    if (process.env.BENCH_WEB_SERVER_WARMUP !== '0') {
      const started = performance.now();
      for (const screen of screens(setup.other.scheduleLoanId)) {
        const warmup = await signedInPage(setup.other.token);
        for (const baseUrl of setup.baseUrlB ? [setup.baseUrl, setup.baseUrlB] : [setup.baseUrl]) {
          await timeScreen(warmup, baseUrl, screen);
          await timeScreen(warmup, baseUrl, screen);
        }
        await warmup.context().close();
      }
      console.log(
        `server warm-up: another user's visit to each screen, ${(performance.now() - started).toFixed(0)} ms (not counted)`,
      );
    }
    const page = await signedInPage();

    const network = RTT_MS > 0 ? `, cold loads at ${RTT_MS} ms round trip` : '';
    console.log(`\nms from navigation start to usable (load ${loadavg()[0]?.toFixed(1)}${network}):`);
    console.log(
      `${'screen'.padEnd(40)} ${'cold p50'.padStart(9)} ${'cold max'.padStart(9)} ${'warm p50'.padStart(9)} ${'warm max'.padStart(9)}`,
    );
    for (const screen of list) {
      // Cold: a new browser context, so nothing of the app is cached yet.
      const colds: number[] = [];
      const coldsB: number[] = [];
      for (let i = 0; i < COLD_RUNS; i++) {
        // A/B: build B's cold load right after A's, under the same load.
        for (const baseUrl of setup.baseUrlB ? [setup.baseUrl, setup.baseUrlB] : [setup.baseUrl]) {
          const coldPage = await signedInPage();
          if (RTT_MS > 0) {
            const cdp = await coldPage.context().newCDPSession(coldPage);
            await cdp.send('Network.emulateNetworkConditions', {
              offline: false,
              latency: RTT_MS,
              downloadThroughput: -1,
              uploadThroughput: -1,
            });
          }
          const label = baseUrl === setup.baseUrl ? screen.name : `B ${screen.name}`;
          const requests = WATERFALL && i === 0 ? recordRequests(coldPage) : null;
          const stopProfile = PROFILE && i === 0 ? await startProfile(coldPage) : null;
          const stopTrace = TRACE && i === 0 ? await startTrace(browser, coldPage) : null;
          const ms = await timeScreen(coldPage, baseUrl, screen);
          (baseUrl === setup.baseUrl ? colds : coldsB).push(ms);
          if (requests) printWaterfall(label, requests, ms);
          await stopProfile?.(label);
          await stopTrace?.(label);
          await coldPage.context().close();
        }
      }
      const cold = median(colds);
      if (process.env.BENCH_WEB_SAMPLES === '1')
        console.log(`  ${screen.name} cold samples: ${colds.map((x) => x.toFixed(0)).join(' ')}`);
      if (setup.baseUrlB) {
        console.log(
          `${`  B ${screen.name}`.padEnd(40)} ${median(coldsB).toFixed(0).padStart(9)} ${Math.max(...coldsB)
            .toFixed(0)
            .padStart(
              9,
            )}  B/A p50 ${(median(coldsB) / cold).toFixed(2)}, max ${(Math.max(...coldsB) / Math.max(...colds)).toFixed(2)}`,
        );
      }
      const warm: number[] = [];
      for (let i = 0; i <= RUNS; i++) warm.push(await timeScreen(page, setup.baseUrl, screen));
      // The first warm run fills this context's cache; it is not counted.
      warm.shift();
      console.log(
        `${screen.name.padEnd(40)} ${cold.toFixed(0).padStart(9)} ${Math.max(...colds)
          .toFixed(0)
          .padStart(9)} ${median(warm).toFixed(0).padStart(9)} ${Math.max(...warm)
          .toFixed(0)
          .padStart(9)}`,
      );
    }

    for (const [name, baseUrl] of [['', setup.baseUrl] as const, ['B ', setup.baseUrlB] as const]) {
      if (!baseUrl) continue;
      const login = await loginRouteJs(browser, baseUrl);
      console.log(
        `\n${name}login route JavaScript: ${login.scripts} scripts, ${(login.bytes / 1024).toFixed(1)} KB gzip (budget 160 KB); load ${loadavg()[0]?.toFixed(1)}`,
      );
    }

    await timeScreen(page, setup.baseUrl, list[3] as Screen);
    const frames = await scrollFrames(page);
    console.log(
      `\nscrolling the 600-row schedule, frame ms: p50 ${pct(frames, 0.5).toFixed(1)}, p95 ${pct(frames, 0.95).toFixed(1)}, max ${Math.max(...frames).toFixed(1)} (${frames.length} frames)`,
    );
  } finally {
    await browser?.close();
    await setup.close();
  }
}

await main();
