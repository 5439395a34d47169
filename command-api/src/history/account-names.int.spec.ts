import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../testing/clock';
import { createTestApp, type TestApp } from '../testing/test-app';

type Entry = { type: string; summary: string; changes: { field: string; from: unknown; to: unknown }[] };

/** Issue 30: History names accounts (transactions in one, transfers, imports) by their names, never their ids. */
describe('History names accounts', () => {
  const clock = testClock('2025-03-20T04:00:00.000Z', { step: 1000 });
  let t: TestApp;
  const owner = randomUUID();

  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(async () => {
    await t?.close();
  });

  const open = async (name: string) => {
    const res = await t.as(owner).post('/api/accounts', {
      name,
      kind: 'savings',
      opening_balance: '1000',
      opening_date: '2025-03-01',
    });
    expect(res.status).toBe(201);
    return res.body.data.account.id as string;
  };

  it('as each account was named when the event was recorded', async () => {
    const savings = await open('HDFC Savings');
    const wallet = await open('Paytm Wallet');
    const recorded = await t.as(owner).post('/api/transactions', {
      transaction_type: 'D',
      transaction_date: '2025-03-05',
      amount: 250,
      notes: 'Groceries',
      account_id: savings,
    });
    expect(recorded.status).toBe(201);
    const id = recorded.body.data.transaction.id;
    const moved = await t.as(owner).put(`/api/transactions/${id}`, {
      transaction_type: 'D',
      transaction_date: '2025-03-05',
      amount: 250,
      notes: 'Groceries',
      account_id: wallet,
    });
    expect(moved.status).toBe(200);
    const transfer = await t.as(owner).post('/api/transfers', {
      from_account_id: savings,
      to_account_id: wallet,
      amount: 500,
      transfer_date: '2025-03-06',
      notes: 'Top up',
    });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(201);
    // Renamed afterwards: what was recorded before keeps the name it had.
    const renamed = await t.as(owner).put(`/api/accounts/${savings}`, {
      name: 'HDFC Salary',
      kind: 'savings',
      opening_balance: '1000',
      opening_date: '2025-03-01',
    });
    expect(renamed.status).toBe(200);
    await t.as(owner).delete(`/api/transfers/${transfer.body.data.transfer.id}`);

    expect(await t.caughtUp(['history'])).toBe(true);
    const res = await t.as(owner).get('/api/history?limit=100');
    const entries = res.body.data.entries as Entry[];
    const of = (type: string) => entries.find((e) => e.type === type) as Entry;
    expect(of('TransactionRecorded').changes).toContainEqual({
      field: 'Account',
      from: null,
      to: 'HDFC Savings',
    });
    expect(of('TransactionUpdated').changes).toEqual([
      { field: 'Account', from: 'HDFC Savings', to: 'Paytm Wallet' },
    ]);
    expect(of('TransferRecorded').summary).toBe(
      'Transfer of ₹500.00 from HDFC Savings to Paytm Wallet recorded',
    );
    expect(of('TransferRecorded').changes).toContainEqual({
      field: 'From Account',
      from: null,
      to: 'HDFC Savings',
    });
    expect(of('TransferDeleted').summary).toBe(
      'Transfer of ₹500.00 from HDFC Salary to Paytm Wallet deleted',
    );
    const text = JSON.stringify(entries.map((e) => [e.summary, e.changes]));
    expect(text).not.toContain(savings);
    expect(text).not.toContain(wallet);
  });
});
