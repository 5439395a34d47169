/**
 * Loans benchmark (issue 4): `npm run bench:loans`.
 *
 * One user with 1,000 loans (terms from 1 to 600 months, some with GST) plus four other users
 * with 200 loans each, on PostgreSQL (a fresh database on DATABASE_URL's server). The loans'
 * events (LoanCreated + ScheduleGenerated, as the API writes them) are appended to the event
 * store and projected, then it prints p50/p95 of each API call through the whole Fastify app
 * (`app.inject`: routing, auth, schema, query, serialisation), of create / regenerate commands
 * (append + read-your-writes), and of the pure schedule generation for 600 months.
 * Not a test: figures only.
 *
 * Options (environment): BENCH_LOANS=1000  BENCH_CALLS=200 (per scenario)
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { seedCatalog } from '@kosh/command-api';
import { createTestApp, type TestApp } from '@kosh/command-api/testing';
import { type DomainEvent, generateSchedule, type LoanFields, loanDecider, loanStreamId } from '@kosh/domain';
import type { NewEvent } from '@kosh/event-store';
import { allProjections } from '@kosh/projections';
import { random } from './support/random';

const MAIN_LOANS = Number(process.env.BENCH_LOANS ?? 1000);
const OTHER_USERS = 4;
const OTHER_LOANS = 200;
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const NOW = new Date('2026-01-10T06:00:00.000Z');

const rnd = random(7);
const between = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));

function loanFields(i: number): LoanFields {
  const start = new Date(Date.UTC(2005 + between(0, 20), between(0, 11), between(1, 28)))
    .toISOString()
    .slice(0, 10);
  const months = i % 50 === 0 ? 600 : between(1, 360);
  const gst = rnd() < 0.2;
  return {
    bankId: between(1, 30),
    loanTypeId: between(1, 11),
    accountNumber: `AC${String(100000 + i * 7919).slice(0, 9)}${between(10, 99)}`,
    shortDetail: null,
    principalAmount: between(100, 100_000_000) * 100,
    interestRate: between(100, 50_000) / 1000,
    isInterestRateYearly: rnd() < 0.9,
    duration: months,
    isDurationYearly: false,
    startDate: start,
    processingFee: between(0, 10_000) * 100,
    hasGst: gst,
    gstPercentage: gst ? 18 : 0,
    emisAutoDebited: true,
    processingFeeGst: true,
  };
}

const toNew = (userId: string, event: DomainEvent, at: string): NewEvent => ({
  id: randomUUID(),
  type: event.type,
  data: event.data,
  metadata: { userId, correlationId: randomUUID(), causationId: null, recordedAt: at, schemaVersion: 1 },
});

/** Appends `count` loans for the user, 8 at a time, each created a minute after the previous. */
async function appendLoans(t: TestApp, userId: string, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const loanId = randomUUID();
      const at = new Date(NOW.getTime() - (count - i) * 60_000).toISOString();
      const events = loanDecider.decide(
        { type: 'CreateLoan', data: { loanId, userId, fields: loanFields(i), now: at } },
        loanDecider.initialState(),
      );
      await t.platform.eventStore.appendToStream(
        loanStreamId(loanId),
        events.map((e) => toNew(userId, e, at)),
        { expectedVersion: 'no_stream' },
      );
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))] ?? Number.NaN;
}

function report(name: string, times: number[], sample = '') {
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 0.5);
  const p95 = percentile(times, 0.95);
  console.log(
    `${name.padEnd(48)} p50 ${p50.toFixed(2).padStart(7)} ms   p95 ${p95.toFixed(2).padStart(7)} ms   ${sample}`,
  );
}

type Scenario = { name: string; url: string | (() => string) };

async function measureGet(t: TestApp, userId: string, scenario: Scenario) {
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
    if (i === 0) {
      const body = response.json();
      const total = body.meta?.pagination?.total_items;
      sample =
        total !== undefined
          ? `${body.data.length} rows of ${total}`
          : body.data.schedule
            ? `${body.data.schedule.length} rows`
            : body.data.total_loans !== undefined
              ? `${body.data.total_loans} loans, ${body.data.active_loans} active`
              : '';
    }
  }
  report(scenario.name, times, sample);
}

async function main() {
  let clockMs = NOW.getTime();
  const t = await createTestApp({
    clock: () => {
      clockMs += 1;
      return new Date(clockMs);
    },
  });
  try {
    const userId = randomUUID();
    console.log(
      `Kosh loans bench: PostgreSQL, ${MAIN_LOANS} loans for one user, ${OTHER_USERS}×${OTHER_LOANS} for others`,
    );
    await seedCatalog(t.platform.eventStore, NOW);
    let started = performance.now();
    await appendLoans(t, userId, MAIN_LOANS);
    for (let u = 0; u < OTHER_USERS; u++) await appendLoans(t, randomUUID(), OTHER_LOANS);
    console.log(
      `appended ${MAIN_LOANS + OTHER_USERS * OTHER_LOANS} loans in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const { name } of allProjections) {
      started = performance.now();
      const result = await t.platform.runner.catchUp(name);
      console.log(
        `catch-up ${name}: ${result.events} events in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    const { rows } = await t.platform.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM loan_schedule_rows',
    );
    console.log(`schedule rows: ${rows[0]?.n}`);
    await t.platform.db.query('VACUUM ANALYZE');

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/loans?limit=50',
      headers: await t.signedInHeader(userId),
    });
    const ids = (list.json().data as { id: string; duration: number }[]).map((l) => l.id);
    const longLoan = (
      await t.platform.db.query<{ id: string }>(
        'SELECT id::text AS id FROM loans WHERE user_id = $1 AND duration = 600 LIMIT 1',
        [userId],
      )
    ).rows[0]?.id;
    const searches = ['AC1', 'hdfc', 'home loan', 'state bank', '50000', 'credit card', 'zzz'];
    let s = 0;
    const scenarios: Scenario[] = [
      { name: 'list, default (created_at DESC, 10)', url: '/api/loans' },
      { name: 'list, limit 50', url: '/api/loans?limit=50' },
      { name: 'list, page 20 of 10', url: '/api/loans?page=20' },
      { name: 'list, sort principal_amount ASC', url: '/api/loans?sortBy=principal_amount&sortOrder=ASC' },
      { name: 'list, sort interest_rate DESC', url: '/api/loans?sortBy=interest_rate' },
      { name: 'list, sort start_date ASC', url: '/api/loans?sortBy=start_date&sortOrder=ASC' },
      { name: 'list, sort end_date DESC', url: '/api/loans?sortBy=end_date' },
      { name: 'list, sort account_number ASC', url: '/api/loans?sortBy=account_number&sortOrder=ASC' },
      { name: 'list, sort bank_name ASC', url: '/api/loans?sortBy=bank_name&sortOrder=ASC' },
      { name: 'list, filter bank 12', url: '/api/loans?filter_bank_id=12' },
      {
        name: 'list, filter bank + type, sort principal',
        url: '/api/loans?filter_bank_id=1&filter_loan_type_id=1&sortBy=principal_amount',
      },
      {
        name: 'search, rotating 7 terms',
        url: () => `/api/loans?search=${encodeURIComponent(searches[s++ % searches.length] ?? '')}`,
      },
      {
        name: 'search "hdfc", sort bank_name, limit 50',
        url: '/api/loans?search=hdfc&sortBy=bank_name&limit=50',
      },
      { name: 'search principal digits "1234"', url: '/api/loans?search=1234' },
      { name: 'stats', url: '/api/loans/stats' },
      { name: 'one loan', url: () => `/api/loans/${ids[s++ % ids.length]}` },
      { name: 'amortization, 600 months', url: `/api/loans/${longLoan}/amortization` },
      { name: 'banks (default 50)', url: '/api/banks' },
      { name: 'loan types', url: '/api/loans/types' },
    ];
    for (const scenario of scenarios) await measureGet(t, userId, scenario);

    // Commands: append + wait until loans, schedules (and the ledger) include the write.
    const headers = await t.signedInHeader(userId);
    const body = {
      bank_id: 1,
      loan_type_id: 1,
      account_number: 'BENCH0001',
      principal_amount: 5000000,
      interest_rate: 8.5,
      is_interest_rate_yearly: 1,
      duration: 50,
      is_duration_yearly: 1,
      start_date: '2025-01-15',
      has_gst: 1,
      gst_percentage: 18,
    };
    const creates: number[] = [];
    for (let i = 0; i < 50; i++) {
      const begun = performance.now();
      const res = await t.app.inject({ method: 'POST', url: '/api/loans', headers, payload: body });
      creates.push(performance.now() - begun);
      if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
    }
    report('POST /api/loans (600 months, GST)', creates);
    const regenerates: number[] = [];
    for (let i = 0; i < 50; i++) {
      const begun = performance.now();
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/loans/${longLoan}/amortization/regenerate`,
        headers,
      });
      regenerates.push(performance.now() - begun);
      if (res.statusCode !== 200) throw new Error(`regenerate: ${res.statusCode} ${res.body}`);
    }
    report('POST regenerate (600 months)', regenerates);

    // The pure maths.
    const terms = {
      principalAmount: 1_000_000_000,
      interestRate: 9.25,
      isInterestRateYearly: true,
      duration: 600,
      isDurationYearly: false,
      startDate: '2026-01-31',
      hasGst: true,
      gstPercentage: 18,
    };
    for (let i = 0; i < 50; i++) generateSchedule(terms);
    const generation: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const begun = performance.now();
      generateSchedule(terms);
      generation.push(performance.now() - begun);
    }
    report('generateSchedule, 600 months (pure)', generation);
  } finally {
    await t.close();
  }
}

await main();
