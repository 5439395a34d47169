/**
 * Statement parse benchmark (issue 30): `npm run bench:statement`.
 *
 * Generates an HDFC-layout CSV of 50,000 rows (preamble, quoted amounts with Indian grouping,
 * a quoted multi-line narration every 100 rows, trailer) and times, in the same run:
 * - baseline: decode the bytes and split them into lines and cells (no quotes, no checks);
 * - parse: the domain's StatementParser fed 64 KB chunks, rows counted and dropped (the streamed
 *   path an upload takes), with the heap sampled after each chunk;
 * - preview: parse and keep every row, then previewStatement (fingerprints, narrations,
 *   duplicates against 25,000 known fingerprints, running balance).
 * Best of BENCH_RUNS runs each. Not a test: figures only.
 *
 * Options (environment): BENCH_ROWS=50000  BENCH_RUNS=3
 */
import { performance } from 'node:perf_hooks';
import {
  classifyDuplicates,
  fingerprintKeys,
  parseStatement,
  previewStatement,
  StatementParser,
} from '@kosh/domain';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CHUNK = 64 * 1024;

const NARRATIONS = [
  'UPI-SWIGGY-swiggy@axisbank-UTIB0000553-{ref}-Payment',
  'NEFT CR-YESB0000001-ACME SOFTWARE PVT LTD-ASHA VERMA-YESBN1{ref}',
  'ACH D- BAJAJ FINANCE LTD-BFL{ref}',
  'POS 412345XXXXXX1234 BIG BAZAAR',
  'ATW-412345XXXXXX1234-S1ANBL12-BENGALURU',
];

function rupees(paise: number): string {
  const whole = Math.floor(paise / 100).toString();
  const last3 = whole.slice(-3);
  const rest = whole.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${rest ? `${rest},` : ''}${last3}.${String(paise % 100).padStart(2, '0')}`;
}

function generate(rows: number): string {
  const lines = [
    'HDFC BANK Ltd.,,,,,,',
    '"Account No : 50100123456789","IFSC : HDFC0000123",,,,,',
    'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
  ];
  let balance = 100_000_000_000;
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.UTC(2020, 0, 1) + Math.floor(i / 30) * 86_400_000);
    const date = `${String(day.getUTCDate()).padStart(2, '0')}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/${String(day.getUTCFullYear()).slice(2)}`;
    const ref = String(527_400_000_000 + i);
    const credit = i % 5 === 1;
    const amount = 2000 + ((i * 7919) % 500_000);
    balance += credit ? amount : -amount;
    let narration = NARRATIONS[i % NARRATIONS.length]!.replace('{ref}', ref);
    if (i % 100 === 0) narration = `"${narration}\nKORAMANGALA BLR"`;
    const debit = credit ? '' : `"${rupees(amount)}"`;
    const deposit = credit ? `"${rupees(amount)}"` : '';
    lines.push(`${date},${narration},${ref},${date},${debit},${deposit},"${rupees(balance)}"`);
  }
  lines.push(',,,,,,', 'STATEMENT SUMMARY :-,,,,,,', '"Generated On: 16/04/24 10:15:01",,,,,,');
  return `${lines.join('\r\n')}\r\n`;
}

function best(label: string, run: () => number | undefined): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - started);
  }
  console.log(`${label.padEnd(58)} ${fastest.toFixed(0).padStart(6)} ms`);
  return fastest;
}

const text = generate(ROWS);
const bytes = new TextEncoder().encode(text);
console.log(`statement: ${ROWS} rows, ${(bytes.length / 1024 / 1024).toFixed(1)} MB, best of ${RUNS}`);

const baseline = best('baseline: decode + split lines and cells', () => {
  let cells = 0;
  for (const line of new TextDecoder().decode(bytes).split('\n')) cells += line.split(',').length;
  return cells;
});

let peakHeap = 0;
let counted = 0;
global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const parse = best('parse: StatementParser, 64 KB chunks, rows dropped', () => {
  const parser = new StatementParser();
  counted = 0;
  for (let at = 0; at < bytes.length; at += CHUNK) {
    counted += parser.push(bytes.subarray(at, at + CHUNK)).length;
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed - heapBefore);
  }
  counted += parser.end().length;
  return counted;
});

const { rows } = parseStatement(bytes);
const known = new Set(
  classifyDuplicates(rows.slice(0, ROWS / 2), new Set()).flatMap((verdict) =>
    verdict ? fingerprintKeys(verdict.fingerprint) : [],
  ),
);
let counts = {};
const preview = best('preview: parse all rows + previewStatement', () => {
  const parsed = parseStatement(bytes);
  const result = previewStatement({
    rows: parsed.rows,
    knownFingerprints: known,
    openingBalance: 100_000_000_000,
  });
  counts = { ...result.counts, balance: result.balance.status };
  return parsed.rows.length;
});

console.log(`rows read: ${counted}; preview: ${JSON.stringify(counts)}`);
console.log(
  `parse / baseline: ${(parse / baseline).toFixed(1)}x; preview / baseline: ${(preview / baseline).toFixed(1)}x`,
);
console.log(
  `heap growth while streaming (sampled per chunk, includes garbage not yet collected): ${(peakHeap / 1024 / 1024).toFixed(1)} MB for a ${(bytes.length / 1024 / 1024).toFixed(1)} MB file`,
);
