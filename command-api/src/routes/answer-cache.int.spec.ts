import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../commands/seed-catalog';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * The ledger month and the amortization schedule are served from a cache of their serialised
 * answers, tagged with the read model's checkpoint: an ETag, 304 on If-None-Match, and a write
 * that changes the answer changes the ETag (read-your-writes kept), on both stores.
 */
describe.each(['postgres', 'embedded'] as const)('cached large reads (%s)', (mode) => {
  let t: TestApp;
  let instant = Date.parse('2025-03-20T06:00:00.000Z');
  const clock = () => {
    instant += 1000;
    return new Date(instant);
  };
  const alice = randomUUID();
  const bob = randomUUID();

  async function call(
    userId: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options: { body?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    const response = await t.app.inject({
      method,
      url,
      headers: { ...(await t.signedInHeader(userId)), ...options.headers },
      ...(options.body ? { payload: options.body } : {}),
    });
    return { status: response.statusCode, etag: response.headers.etag as string, body: response.body };
  }

  const record = async (userId: string, notes: string, date: string) => {
    const res = await call(userId, 'POST', '/api/transactions', {
      body: { notes, transaction_type: 'D', transaction_date: date, amount: 250.75 },
    });
    expect(res.status).toBe(201);
    return JSON.parse(res.body).data.transaction.id as string;
  };

  beforeAll(async () => {
    t = await createTestApp({ mode, clock });
    const position = await seedCatalog(t.platform.eventStore, new Date('2025-01-01T00:00:00.000Z'));
    await t.platform.afterAppend(position ?? '', ['catalog', 'ledger']);
    await record(alice, 'Rent', '2025-03-05');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ledger month: ETag, 304 while unchanged, a new answer and ETag after a write', async () => {
    const url = '/api/ledger?month=3&year=2025';
    const first = await call(alice, 'GET', url);
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await call(alice, 'GET', url);
    expect(again).toEqual(first);
    expect(
      JSON.parse(again.body).data.debit.transactions.map((e: { particulars: string }) => e.particulars),
    ).toEqual(['Rent']);

    const notModified = await call(alice, 'GET', url, { headers: { 'if-none-match': first.etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.etag).toBe(first.etag);
    // A strong form of the same tag, or one in a list, matches too (weak comparison).
    const strong = first.etag.replace(/^W\//, '');
    expect((await call(alice, 'GET', url, { headers: { 'if-none-match': `"x", ${strong}` } })).status).toBe(
      304,
    );

    // Another month, another user: their own answers, never this one's.
    const april = await call(alice, 'GET', '/api/ledger?month=4&year=2025', {
      headers: { 'if-none-match': first.etag },
    });
    expect(april.status).toBe(200);
    const bobs = await call(bob, 'GET', url, { headers: { 'if-none-match': first.etag } });
    expect(bobs.status).toBe(200);
    expect(JSON.parse(bobs.body).data.debit.transactions).toEqual([]);

    // The write answers after the ledger has it, so the very next read shows it.
    await record(alice, 'Groceries', '2025-03-10');
    const changed = await call(alice, 'GET', url, { headers: { 'if-none-match': first.etag } });
    expect(changed.status).toBe(200);
    expect(changed.etag).not.toBe(first.etag);
    const debits = JSON.parse(changed.body).data.debit;
    expect(debits.transactions.map((e: { particulars: string }) => e.particulars)).toEqual([
      'Rent',
      'Groceries',
    ]);
    expect(debits.total).toBe(501.5);

    // Deleting is a write too.
    const id = await record(alice, 'Mistake', '2025-03-11');
    const withMistake = await call(alice, 'GET', url);
    expect(withMistake.body).toContain('Mistake');
    expect((await call(alice, 'DELETE', `/api/transactions/${id}`)).status).toBe(200);
    const after = await call(alice, 'GET', url, { headers: { 'if-none-match': withMistake.etag } });
    expect(after.status).toBe(200);
    expect(after.body).not.toContain('Mistake');
  });

  it('amortization: ETag, 304 while unchanged, the new version after a regeneration, 404 once deleted', async () => {
    const created = await call(alice, 'POST', '/api/loans', {
      body: {
        bank_id: 1,
        loan_type_id: 1,
        account_number: 'HL00012345',
        short_detail: null,
        principal_amount: 2500000,
        interest_rate: 8.5,
        is_interest_rate_yearly: 1,
        duration: 20,
        is_duration_yearly: 1,
        start_date: '2025-03-15',
        end_date: '2045-03-15',
        processing_fee: 0,
        has_gst: 0,
        gst_percentage: 0,
      },
    });
    expect(created.status, created.body).toBe(201);
    const loanId = JSON.parse(created.body).data.loan.id as string;
    const url = `/api/loans/${loanId}/amortization`;

    const first = await call(alice, 'GET', url);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).data.summary.version).toBe(1);
    expect(await call(alice, 'GET', url)).toEqual(first);
    expect((await call(alice, 'GET', url, { headers: { 'if-none-match': first.etag } })).status).toBe(304);
    // A large answer is gzipped when the client takes it (browsers do): the same answer, the same tag.
    const zipped = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...(await t.signedInHeader(alice)), 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    expect(zipped.headers.etag).toBe(first.etag);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(first.body);
    const refused = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...(await t.signedInHeader(alice)), 'accept-encoding': 'gzip;q=0, identity' },
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(first.body);
    // Not another user's, whatever the ETag.
    expect((await call(bob, 'GET', url, { headers: { 'if-none-match': first.etag } })).status).toBe(404);

    const regenerated = await call(alice, 'POST', `${url}/regenerate`);
    expect(regenerated.status).toBe(200);
    const next = await call(alice, 'GET', url, { headers: { 'if-none-match': first.etag } });
    expect(next.status).toBe(200);
    expect(next.etag).not.toBe(first.etag);
    expect(JSON.parse(next.body).data.summary.version).toBe(2);

    expect((await call(alice, 'DELETE', `/api/loans/${loanId}`)).status).toBe(200);
    expect((await call(alice, 'GET', url, { headers: { 'if-none-match': next.etag } })).status).toBe(404);
  });
});
