/**
 * The signed export of a big statement import: `npm run bench:import-export`.
 *
 * One user, one account and one `ImportCommitted` of 50,000 rows appended straight into the log
 * (PostgreSQL, a fresh database), projected; then GET /api/export/history streamed (the
 * import's line is read from the log alone and written before the next: queries.ts
 * `exportEventData`). Prints the time, the file's size, the import line's size, the process's
 * heap and RSS growth while streaming, and verifies the file. Not a test: figures only.
 *
 * Options (environment): BENCH_IMPORT_ROWS=50000
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { createTestApp } from '@kosh/command-api/testing';
import { accountStreamId, importStreamId, verifyExport } from '@kosh/domain';
import { nodeExportCrypto } from '../../command-api/src/history/verify-export';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 50_000);
const NOW = new Date('2026-05-01T06:00:00.000Z');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const t = await createTestApp({ clock: () => NOW });
  const dir = await mkdtemp(join(tmpdir(), 'kosh-bench-import-'));
  try {
    const userId = randomUUID();
    const headers = await t.signedInHeader(userId);
    const metadata = () => ({
      userId,
      correlationId: randomUUID(),
      causationId: null,
      recordedAt: NOW.toISOString(),
      schemaVersion: 1,
    });
    const accountId = randomUUID();
    await t.platform.eventStore.appendToStream(
      accountStreamId(accountId),
      [
        {
          id: randomUUID(),
          type: 'AccountOpened',
          data: {
            accountId,
            userId,
            name: 'HDFC Savings',
            kind: 'savings',
            openingBalance: 0,
            openingDate: '2026-01-01',
          },
          metadata: metadata(),
        },
      ],
      { expectedVersion: 'no_stream' },
    );
    const importId = randomUUID();
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      transactionId: randomUUID(),
      line: i + 2,
      transactionDate: `2026-04-${String(1 + (i % 28)).padStart(2, '0')}`,
      transactionType: i % 3 ? 'D' : 'C',
      amount: 100 + (i % 9973),
      notes: `UPI · Shop ${i} · ${400000 + i}`,
      rawNarration: `UPI-SHOP ${i}-${400000 + i}@okhdfc`,
      reference: String(400000 + i).padStart(16, '0'),
      fingerprints: [`fp-${i}`],
    }));
    await t.platform.eventStore.appendToStream(
      importStreamId(importId),
      [
        {
          id: randomUUID(),
          type: 'ImportCommitted',
          data: {
            importId,
            userId,
            accountId,
            fileName: 'april.csv',
            format: 'hdfc',
            preset: 'hdfc',
            rows,
            skippedRows: 0,
            balanceMismatchConfirmed: true,
            committedAt: NOW.toISOString(),
          },
          metadata: metadata(),
        },
      ],
      { expectedVersion: 'no_stream' },
    );
    const deadline = Date.now() + 300_000;
    for (;;) {
      const { rows: seen } = await t.platform.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM history_events WHERE user_id = $1 AND type = 'ImportCommitted'`,
        [userId],
      );
      if ((seen[0]?.n ?? 0) > 0) break;
      if (Date.now() > deadline) throw new Error('history never caught up');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    rows.length = 0;
    global.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const rss0 = process.memoryUsage().rss;
    let heapPeak = heap0;
    let rssPeak = rss0;
    const file = join(dir, 'export.jsonl');
    const out = createWriteStream(file);
    const started = performance.now();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/export/history',
      headers,
      payloadAsStream: true,
    });
    let largestChunk = 0;
    for await (const chunk of res.stream() as Readable) {
      largestChunk = Math.max(largestChunk, (chunk as Buffer).length);
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      const { heapUsed, rss } = process.memoryUsage();
      heapPeak = Math.max(heapPeak, heapUsed);
      rssPeak = Math.max(rssPeak, rss);
    }
    await new Promise((resolve) => out.end(resolve));
    const ms = performance.now() - started;
    const size = (await stat(file)).size;
    const text = await readFile(file, 'utf8');
    const verified = await verifyExport(text, nodeExportCrypto);
    console.log(
      `Kosh export of a ${ROWS}-row import (PostgreSQL): ${Math.round(ms)} ms, file ${mb(size)}, ` +
        `largest chunk (the import's line) ${mb(largestChunk)}; while streaming heap +${mb(heapPeak - heap0)}, ` +
        `RSS +${mb(rssPeak - rss0)}; verify-export: ${verified.ok ? `OK, ${verified.count} events, ${verified.recomputed} links recomputed` : `FAILED at line ${verified.line}: ${verified.reason}`}`,
    );
  } finally {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
