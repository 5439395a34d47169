import { randomUUID } from 'node:crypto';
import { verifyExport } from '@kosh/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testClock } from '../testing/clock';
import { createTestApp, type TestApp } from '../testing/test-app';
import { nodeExportCrypto } from './verify-export';

/** The same features on PGlite (embedded mode): temporary tables, the export's streaming reads. */
const clock = testClock('2026-03-01T06:00:00.000Z');
let t: TestApp;
const user = randomUUID();

beforeAll(async () => {
  t = await createTestApp({ mode: 'embedded', clock });
});

afterAll(async () => {
  await t?.close();
});

it('answers as of an instant, shows the timeline and exports a verifiable file', async () => {
  const asUser = t.as(user);
  const get = async (url: string) => (await asUser.get(url)).body;
  clock.advance(60_000);
  const created = await asUser.post('/api/transactions', {
    notes: 'Rent',
    transaction_type: 'D',
    transaction_date: '2026-03-01',
    amount: 25000,
  });
  expect(created.status).toBe(201);
  const at = clock().toISOString();
  const live = await get('/api/ledger');
  clock.advance(60_000);
  const second = await asUser.post('/api/transactions', {
    notes: 'Salary',
    transaction_type: 'C',
    transaction_date: '2026-03-01',
    amount: 90000,
  });
  expect(await t.platform.afterAppend(String(second.headers['x-event-position']), ['history'])).toBe(true);
  expect((await get(`/api/ledger?as_of=${encodeURIComponent(at)}`)).data).toEqual(live.data);
  expect((await get('/api/ledger')).data.summary.totalCredit).toBe(90000);

  const timeline = await get('/api/history?type=TransactionRecorded');
  expect(timeline.data.entries.map((e: { summary: string }) => e.summary)).toContain(
    'Debit of ₹25,000.00 recorded',
  );

  const key = (await get('/api/export/public-key')).data.public_key;
  const exported = await asUser.get('/api/export/history');
  expect(await verifyExport(exported.text, nodeExportCrypto, key)).toMatchObject({ ok: true });
});
