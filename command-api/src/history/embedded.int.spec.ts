import { randomUUID } from 'node:crypto';
import { verifyExport } from '@kosh/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { nodeExportCrypto } from './verify-export';

/** The same features on PGlite (embedded mode): temporary tables, the export's streaming reads. */
let now = Date.parse('2026-03-01T06:00:00.000Z');
const clock = () => new Date(now);
let t: TestApp;
const user = randomUUID();

beforeAll(async () => {
  t = await createTestApp({ mode: 'embedded', clock });
});

afterAll(async () => {
  await t?.close();
});

it('answers as of an instant, shows the timeline and exports a verifiable file', async () => {
  const headers = await t.signedInHeader(user);
  const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers })).json();
  now += 60_000;
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/transactions',
    headers,
    payload: { notes: 'Rent', transaction_type: 'D', transaction_date: '2026-03-01', amount: 25000 },
  });
  expect(created.statusCode).toBe(201);
  const at = new Date(now).toISOString();
  const live = await get('/api/ledger');
  now += 60_000;
  const second = await t.app.inject({
    method: 'POST',
    url: '/api/transactions',
    headers,
    payload: { notes: 'Salary', transaction_type: 'C', transaction_date: '2026-03-01', amount: 90000 },
  });
  expect(await t.platform.afterAppend(String(second.headers['x-event-position']), ['history'])).toBe(true);
  expect((await get(`/api/ledger?as_of=${encodeURIComponent(at)}`)).data).toEqual(live.data);
  expect((await get('/api/ledger')).data.summary.totalCredit).toBe(90000);

  const timeline = await get('/api/history?type=TransactionRecorded');
  expect(timeline.data.entries.map((e: { summary: string }) => e.summary)).toContain(
    'Debit of ₹25,000.00 recorded',
  );

  const key = (await get('/api/export/public-key')).data.public_key;
  const exported = await t.app.inject({ method: 'GET', url: '/api/export/history', headers });
  expect(await verifyExport(exported.body, nodeExportCrypto, key)).toMatchObject({ ok: true });
});
