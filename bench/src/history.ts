/**
 * History benchmark (issue 14): `npm run bench:history`.
 *
 * One user with 100,000 transactions recorded over ten years (each event's instant in log order)
 * and 10 loans, on PostgreSQL (a fresh database on DATABASE_URL's server), events written
 * straight into the log in batched inserts, then projected. Prints p50/p95 through the whole
 * Fastify app (`app.inject`) of: a timeline page (first and deep pages), the as-of ledger at
 * random instants, and the time to stream the export of every event. Not a test: figures only.
 *
 * Options (environment): BENCH_TRANSACTIONS=100000  BENCH_CALLS=200  BENCH_ASOF_CALLS=20
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { seedCatalog } from '@kosh/command-api';
import { createTestApp } from '@kosh/command-api/testing';
import { type DomainEvent, loanDecider, loanStreamId, transactionStreamId } from '@kosh/domain';
import { random } from './support/random';

const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 100_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const ASOF_CALLS = Number(process.env.BENCH_ASOF_CALLS ?? 20);
const NOW = new Date('2026-01-20T06:00:00.000Z');
const FIRST = Date.UTC(2016, 0, 1, 4);
const SPAN = NOW.getTime() - FIRST - 86_400_000;

const rnd = random(14);

const metadata = (userId: string, at: number) => ({
  userId,
  correlationId: randomUUID(),
  causationId: null,
  recordedAt: new Date(at).toISOString(),
  schemaVersion: 1,
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))] ?? Number.NaN;
}

async function main() {
  const t = await createTestApp({ clock: () => NOW });
  try {
    const userId = randomUUID();
    const headers = await t.signedInHeader(userId);
    await seedCatalog(t.platform.eventStore, NOW);
    console.log(`Kosh history bench: PostgreSQL, ${TRANSACTIONS} transactions and 10 loans for one user`);

    // Loans first (their instants early in the ten years), then the transactions in order.
    for (let i = 0; i < 10; i++) {
      const loanId = randomUUID();
      const at = FIRST + i * 86_400_000;
      const now = new Date(at).toISOString();
      const fields = {
        bankId: 1 + i,
        loanTypeId: 1 + (i % 5),
        accountNumber: `AC${100000 + i}`,
        shortDetail: null,
        principalAmount: (5 + i * 9) * 100_000_00,
        interestRate: 7.5 + i * 0.5,
        isInterestRateYearly: true,
        duration: [240, 60, 36, 120, 84, 180, 24, 48, 300, 12][i] ?? 60,
        isDurationYearly: false,
        startDate: '2016-02-01',
        processingFee: 0,
        hasGst: i % 3 === 0,
        gstPercentage: i % 3 === 0 ? 18 : 0,
        emisAutoDebited: true,
        processingFeeGst: true,
      };
      const events: DomainEvent[] = loanDecider.decide(
        { type: 'CreateLoan', data: { loanId, userId, fields, now } },
        loanDecider.initialState(),
      );
      await t.platform.eventStore.appendToStream(
        loanStreamId(loanId),
        events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: metadata(userId, at) })),
        { expectedVersion: 'no_stream' },
      );
    }
    const seedStarted = performance.now();
    for (let from = 0; from < TRANSACTIONS; from += 2000) {
      const rows = [];
      for (let i = from; i < Math.min(TRANSACTIONS, from + 2000); i++) {
        const at = FIRST + 20 * 86_400_000 + Math.floor((i / TRANSACTIONS) * SPAN);
        const transactionId = randomUUID();
        const credit = rnd() < 0.2;
        rows.push({
          id: randomUUID(),
          stream: transactionStreamId(transactionId),
          type: 'TransactionRecorded',
          data: {
            transactionId,
            userId,
            notes: `${credit ? 'Salary' : 'Groceries'} #${i}`,
            transactionType: credit ? 'C' : 'D',
            transactionDate: new Date(at).toISOString().slice(0, 10),
            amount: 1_000 + Math.floor(rnd() * 2_000_000),
            recordedAt: new Date(at).toISOString(),
          },
          metadata: metadata(userId, at),
        });
      }
      await t.platform.db.query(
        `INSERT INTO events (event_id, stream_id, stream_version, type, data, metadata)
         SELECT r.id, r.stream, 1, r.type, r.data, r.metadata
           FROM jsonb_to_recordset($1::jsonb) AS r(id text, stream text, type text, data jsonb, metadata jsonb)`,
        [JSON.stringify(rows)],
      );
    }
    console.log(
      `seeded ${TRANSACTIONS} transaction events (per-user chain kept by the trigger) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    for (const name of ['transactions', 'ledger', 'loans', 'schedules', 'history', 'catalog', 'users']) {
      const started = performance.now();
      const result = await t.platform.runner.catchUp(name);
      console.log(
        `catch-up ${name}: ${result.events} events in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    await t.platform.db.query('VACUUM ANALYZE');
    console.log(`load ${loadavg()[0]?.toFixed(1)} (the machine is shared)`);

    const time = async (url: string, calls: number) => {
      const times: number[] = [];
      for (let i = 0; i < Math.min(5, calls); i++) await t.app.inject({ method: 'GET', url, headers });
      for (let i = 0; i < calls; i++) {
        const started = performance.now();
        const response = await t.app.inject({ method: 'GET', url, headers });
        times.push(performance.now() - started);
        if (response.statusCode !== 200)
          throw new Error(`${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
      }
      times.sort((a, b) => a - b);
      return `${percentile(times, 0.5).toFixed(1).padStart(8)} ${percentile(times, 0.95).toFixed(1).padStart(8)}`;
    };
    const first = await t.app.inject({ method: 'GET', url: '/api/history?limit=20', headers });
    const positions = await t.platform.db.query<{ position: string }>(
      'SELECT position FROM history_events WHERE user_id = $1 ORDER BY position',
      [userId],
    );
    const deep = positions.rows[Math.floor(positions.rows.length / 2)]?.position ?? '';
    console.log(`\nms                                          p50      p95   (calls)`);
    console.log(
      `timeline, first page (20)            ${await time('/api/history?limit=20', CALLS)}   (${CALLS})`,
    );
    console.log(
      `timeline, page in the middle (cursor) ${await time(`/api/history?limit=20&cursor=${deep}`, CALLS)}   (${CALLS})`,
    );
    console.log(
      `timeline, one type (LoanCreated)     ${await time('/api/history?limit=20&type=LoanCreated', CALLS)}   (${CALLS})`,
    );
    if (first.statusCode !== 200) throw new Error(first.body);
    for (const [label, at] of [
      ['as-of ledger, end of 2016', '2016-12-31'],
      ['as-of ledger, mid 2021', '2021-06-30'],
      ['as-of ledger, yesterday', '2026-01-19'],
    ] as const) {
      const month = Number(at.slice(5, 7));
      const year = Number(at.slice(0, 4));
      console.log(
        `${label.padEnd(37)}${await time(`/api/ledger?month=${month}&year=${year}&as_of=${at}`, ASOF_CALLS)}   (${ASOF_CALLS})`,
      );
    }
    console.log(
      `live ledger, same month               ${await time('/api/ledger?month=1&year=2026', CALLS)}   (${CALLS})`,
    );

    const started = performance.now();
    const exported = await t.app.inject({ method: 'GET', url: '/api/export/history', headers });
    const seconds = (performance.now() - started) / 1000;
    const lines = exported.body.split('\n').length - 1;
    console.log(
      `\nexport: ${lines} lines (${(exported.body.length / 1e6).toFixed(1)} MB) in ${seconds.toFixed(2)} s`,
    );
  } finally {
    await t.close();
  }
}

await main();
