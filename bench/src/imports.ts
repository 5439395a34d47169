/**
 * Statement import benchmark (issue 30 item 11): `npm run bench:imports`.
 *
 * Generates an HDFC-layout statement of 50,000 rows (about 6 MB), then through the whole Fastify
 * app (`app.inject`: multipart, auth, routes) times
 * - preview: POST /api/imports (read the file, fingerprints, typed entries, EMIs, balance check,
 *   the preview stored), target < 5 s;
 * - commit: POST /api/imports/{id}/commit: when it answered (it waits, bounded, for the book,
 *   the registers, the ledger and the fingerprints), and when every read model it changes (History
 *   too) holds every row, target < 15 s;
 * and beside them, in the same run, the same rows appended as plain transactions (one
 * TransactionRecorded per `txn-{id}` stream, 16 appends at a time, as the API writes them) until
 * the same read models hold them. Not a test: figures only.
 *
 * Options (environment): BENCH_ROWS=50000, BENCH_PLAIN=0 to leave out the plain appends,
 * BENCH_COMMIT=0 to stop after the preview.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createTestApp } from '@kosh/command-api/testing';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const NOW = new Date('2025-12-20T06:00:00.000Z');
/** Every read model an import changes: the book, the registers, the ledger, the fingerprints, History. */
const READ_MODELS = ['transactions', 'accounts', 'ledger', 'imports', 'history'];

const PAYEES = ['SWIGGY', 'ZOMATO', 'BIGBASKET', 'AMAZON', 'UBER', 'IRCTC', 'CHAIWALA', 'RELIANCE FRESH'];

/** An HDFC statement of `rows` rows over 2024–2025 with its running balance, and the rows. */
function statement(rows: number) {
  const lines = [
    'HDFC BANK Ltd.',
    'Statement of account',
    '',
    'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
  ];
  const plain: { date: string; amount: number; notes: string }[] = [];
  let balance = 100_000_000;
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < rows; i++) {
    const day = new Date(start + Math.floor((i / rows) * 700) * 86_400_000);
    const iso = day.toISOString().slice(0, 10);
    const ddmmyy = `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(2, 4)}`;
    const credit = i % 10 === 0;
    const paise = credit ? 2_500_000 + (i % 97) * 100 : 1_000 + ((i * 7919) % 500_000);
    balance += credit ? paise : -paise;
    const payee = PAYEES[i % PAYEES.length]!;
    const utr = String(500_000_000_000 + i);
    const narration = credit
      ? `NEFT CR-HDFC0000001-ACME PAYROLL LTD-SAL ${i}`
      : `UPI-${payee}-${payee.toLowerCase().replace(/\s/g, '')}@axisbank-UTIB0000000-${utr}-Payment`;
    const amount = (paise / 100).toFixed(2);
    lines.push(
      `${ddmmyy},${narration},${utr},${ddmmyy},${credit ? '' : amount},${credit ? amount : ''},${(balance / 100).toFixed(2)}`,
    );
    plain.push({ date: iso, amount: credit ? paise : -paise, notes: narration.slice(0, 255) });
  }
  return { text: `${lines.join('\r\n')}\r\n`, plain };
}

function multipart(fields: Record<string, string>, fileName: string, bytes: Buffer) {
  const boundary = `----kosh${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const t = await createTestApp({ clock: () => NOW, env: { RATE_LIMIT_ENABLED: 'false' } });
  try {
    const userId = randomUUID();
    const headers = await t.signedInHeader(userId);
    const account = await t.app.inject({
      method: 'POST',
      url: '/api/accounts',
      headers,
      payload: {
        name: 'Bench savings',
        kind: 'savings',
        bank_name: 'HDFC Bank',
        opening_balance: '1000000.00',
        opening_date: '2023-12-31',
      },
    });
    if (account.statusCode !== 201) throw new Error(account.body);
    const accountId = account.json().data.account.id as string;
    const { text, plain } = statement(ROWS);
    const bytes = Buffer.from(text);
    console.log(
      `Kosh import bench: PostgreSQL, one HDFC statement of ${ROWS} rows (${(bytes.length / 1048576).toFixed(1)} MB); load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${cpus().length} cores`,
    );

    const form = multipart({ account_id: accountId }, 'bench.csv', bytes);
    let started = performance.now();
    const preview = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    });
    const previewMs = performance.now() - started;
    if (preview.statusCode !== 201)
      throw new Error(`preview: ${preview.statusCode} ${preview.body.slice(0, 500)}`);
    const id = preview.json().data.id as string;
    const counts = preview.json().data.import.counts;
    console.log(`preview  answered ${seconds(previewMs)}  (target < 5 s)  counts ${JSON.stringify(counts)}`);

    if (process.env.BENCH_COMMIT === '0') return;
    started = performance.now();
    const commit = await t.app.inject({
      method: 'POST',
      url: `/api/imports/${id}/commit`,
      headers,
      payload: {},
    });
    if (commit.statusCode !== 200)
      throw new Error(`commit: ${commit.statusCode} ${commit.body.slice(0, 500)}`);
    const answered = performance.now() - started;
    await Promise.all(READ_MODELS.map((name) => t.platform.runner.catchUp(name)));
    const commitMs = performance.now() - started;
    console.log(`commit   answered ${seconds(answered)}  ${commit.json().message}`);
    console.log(
      `commit   read models caught up ${seconds(commitMs)}  (target < 15 s: ${READ_MODELS.join(', ')})`,
    );

    if (process.env.BENCH_PLAIN === '0') return;
    // The same rows as plain transactions, one stream each, in the same account (its register
    // folds them as it folded the import).
    const other = randomUUID();
    const metadata = {
      userId: other,
      correlationId: randomUUID(),
      causationId: null,
      recordedAt: NOW.toISOString(),
      schemaVersion: 1,
    };
    started = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < plain.length) {
        const row = plain[next++]!;
        const transactionId = randomUUID();
        await t.platform.eventStore.appendToStream(
          `txn-${transactionId}`,
          [
            {
              id: randomUUID(),
              type: 'TransactionRecorded',
              data: {
                transactionId,
                userId: other,
                notes: row.notes,
                transactionType: row.amount > 0 ? 'C' : 'D',
                transactionDate: row.date,
                amount: Math.abs(row.amount),
                accountId,
                recordedAt: NOW.toISOString(),
              },
              metadata,
            },
          ],
          { expectedVersion: 'no_stream' },
        );
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const appendedMs = performance.now() - started;
    await Promise.all(READ_MODELS.map((name) => t.platform.runner.catchUp(name)));
    const plainMs = performance.now() - started;
    console.log(
      `plain    read models caught up ${seconds(plainMs)}  (${ROWS} TransactionRecorded appends, 16 at a time: appended in ${seconds(appendedMs)}, read models caught up after)`,
    );
  } finally {
    await t.close();
  }
}

await main();
