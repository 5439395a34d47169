import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

/**
 * Commands wait only for the read models their answers read; the history read model is caught up
 * by job processes. Here no job process runs (KOSH_ROLE=api, as an API beside workers that are
 * slow or down): a History read, an as-of answer and the account export still show the caller's
 * own writes, because they wait for history themselves.
 */
describe('History shows your own writes on an API process without jobs', () => {
  let t: TestApp;
  const alice = randomUUID();

  beforeAll(async () => {
    t = await createTestApp({ env: { KOSH_ROLE: 'api' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists an account opened and a transaction recorded at once, and answers as of now with them', async () => {
    const opened = await t.as(alice).post('/api/accounts', {
      name: 'HDFC Savings',
      kind: 'savings',
      bank_name: 'HDFC Bank',
      last_four: '1234',
      opening_balance: '10000.50',
      opening_date: '2025-03-01',
    });
    expect(opened.status, opened.text).toBe(201);
    const accountId = opened.body.data.account.id as string;
    const recorded = await t.as(alice).post('/api/transactions', {
      notes: 'Tea',
      transaction_type: 'D',
      transaction_date: '2026-02-03',
      amount: 20,
      account_id: accountId,
    });
    expect(recorded.status, recorded.text).toBe(201);
    const transactionId = recorded.body.data.transaction.id as string;

    const timeline = await t.as(alice).get('/api/history');
    expect(timeline.status, timeline.text).toBe(200);
    const types = (timeline.body.data.entries as { type: string }[]).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['AccountOpened', 'TransactionRecorded']));

    const item = await t.as(alice).get(`/api/transactions/${transactionId}/history`);
    expect(item.status, item.text).toBe(200);
    expect((item.body.data.entries as { type: string }[]).map((e) => e.type)).toContain(
      'TransactionRecorded',
    );

    // An as-of answer replays history: the account is there as of now.
    const asOf = await t.as(alice).get(`/api/accounts?as_of=${encodeURIComponent(new Date().toISOString())}`);
    expect(asOf.status, asOf.text).toBe(200);
    expect(JSON.stringify(asOf.body.data)).toContain(accountId);
  });
});
