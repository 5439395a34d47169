import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { snapshotTables } from '../../testing/snapshot';
import { createTestApp, type TestApp } from '../../testing/test-app';

const clock = testClock('2025-03-20T04:00:00.000Z', { step: 1000 });

let t: TestApp;
const alice = randomUUID();
const bob = randomUUID();

type Account = { id: string; name: string; balance: number; entry_count: number; bank_name: string | null };
type Entry = {
  kind: string;
  id: string | null;
  date: string;
  notes: string;
  amount: number;
  balance: number;
};

const valid = {
  name: 'HDFC Savings',
  kind: 'savings',
  bank_name: 'HDFC Bank',
  last_four: '1234',
  opening_balance: '10000.50',
  opening_date: '2025-03-01',
};

async function open(userId: string, patch: Record<string, unknown> = {}) {
  const res = await t.as(userId).post('/api/accounts', { ...valid, ...patch });
  expect(res.status).toBe(201);
  return res.body.data.account as Account;
}

async function eventCount(): Promise<number> {
  const { rows } = await t.platform.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
  return rows[0]?.n ?? 0;
}

const register = async (userId: string, id: string, query = '') => {
  const res = await t.as(userId).get(`/api/accounts/${id}/register${query}`);
  expect(res.status).toBe(200);
  return res.body.data as { account: Account; entries: Entry[]; pagination: { total_items: number } };
};

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => {
  await t?.close();
});

describe('accounts', () => {
  it('opens an account and lists it with its balance', async () => {
    const account = await open(alice);
    expect(account).toMatchObject({
      name: 'HDFC Savings',
      kind: 'savings',
      bank_id: null,
      bank_name: 'HDFC Bank',
      last_four: '1234',
      opening_balance: 10000.5,
      opening_date: '2025-03-01',
      balance: 10000.5,
      entry_count: 0,
    });
    const list = await t.as(alice).get('/api/accounts');
    expect(list.body.data.accounts.map((a: Account) => a.id)).toContain(account.id);
    const one = await t.as(alice).get(`/api/accounts/${account.id}`);
    expect(one.body.data.account.balance).toBe(10000.5);
  });

  it('takes a bank of the catalog and shows its name', async () => {
    const banks = await t.as(alice).get('/api/banks?limit=1');
    const bank = banks.body.data[0] as { id: number; bank_name: string };
    const account = await open(alice, { bank_id: bank.id, bank_name: null, name: 'Catalog bank' });
    expect(account).toMatchObject({ bank_id: bank.id, bank_name: bank.bank_name });
  });

  it('allows a negative opening balance only for a credit card', async () => {
    const card = await open(alice, { name: 'Card', kind: 'credit-card', opening_balance: -2500 });
    expect(card.balance).toBe(-2500);
    const res = await t.as(alice).post('/api/accounts', { ...valid, opening_balance: -1 });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: 'opening_balance', message: 'Opening balance can be negative only for a credit card' },
    ]);
  });

  it('answers 422 per field and appends nothing on bad input', async () => {
    const before = await eventCount();
    const res = await t.as(alice).post('/api/accounts', {
      name: ' ',
      kind: 'locker',
      bank_id: 999999,
      last_four: '12a4',
      opening_balance: '1.234',
      opening_date: '2025-02-30',
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, errorCode: 'VALIDATION_ERROR' });
    expect(res.body.errors).toEqual([
      { field: 'name', message: 'Account name is required' },
      { field: 'kind', message: 'Account type must be savings, current, credit-card, cash or wallet' },
      { field: 'last_four', message: 'Last four digits must be exactly 4 digits' },
      {
        field: 'opening_balance',
        message: 'Opening balance must be an amount with at most 2 decimal places',
      },
      { field: 'opening_date', message: 'Invalid opening balance date' },
    ]);
    const unknownBank = await t
      .as(alice)
      .post('/api/accounts', { ...valid, bank_name: null, bank_id: 999999 });
    expect(unknownBank.status).toBe(422);
    expect(unknownBank.body.errors).toEqual([{ field: 'bank_id', message: 'Please select a valid bank' }]);
    expect(await eventCount()).toBe(before);
  });

  it('records only what changed; a no-op edit records nothing', async () => {
    const account = await open(alice, { name: 'Edit me' });
    const before = await eventCount();
    const same = await t.as(alice).put(`/api/accounts/${account.id}`, { ...valid, name: 'Edit me' });
    expect(same.status).toBe(200);
    expect(await eventCount()).toBe(before);
    const renamed = await t.as(alice).put(`/api/accounts/${account.id}`, { ...valid, name: 'Renamed' });
    expect(renamed.body.data.account.name).toBe('Renamed');
    const { rows } = await t.platform.db.query<{ data: { changes: unknown } }>(
      `SELECT data FROM events WHERE stream_id = $1 AND type = 'AccountUpdated'`,
      [`account-${account.id}`],
    );
    expect(rows.map((r) => r.data.changes)).toEqual([{ name: 'Renamed' }]);
    await t.caughtUp(['history']);
    const history = await t.as(alice).get(`/api/history?stream=account:${account.id}`);
    expect(history.status).toBe(200);
    const summaries = (history.body.data.entries ?? history.body.data).map(
      (e: { summary: string }) => e.summary,
    );
    expect(summaries).toEqual(expect.arrayContaining(['Account Edit me opened', 'Account edited (Name)']));
  });

  it("answers 404 for another user's account, on every route", async () => {
    const account = await open(alice, { name: 'Private' });
    const as = t.as(bob);
    await as.get('/api/accounts'); // signs Bob up (his own events) before counting
    const before = await eventCount();
    expect((await as.get(`/api/accounts/${account.id}`)).status).toBe(404);
    expect((await as.get(`/api/accounts/${account.id}/register`)).status).toBe(404);
    expect((await as.get(`/api/accounts/${account.id}/register.csv`)).status).toBe(404);
    expect((await as.put(`/api/accounts/${account.id}`, valid)).status).toBe(404);
    expect((await as.delete(`/api/accounts/${account.id}`)).status).toBe(404);
    expect((await as.get('/api/accounts')).body.data.accounts).toEqual([]);
    expect((await as.get('/api/accounts/not-a-uuid')).status).toBe(404);
    expect(await eventCount()).toBe(before);
  });

  it('deletes an empty account, and refuses one with transactions (409)', async () => {
    const empty = await open(alice, { name: 'Empty' });
    const res = await t.as(alice).delete(`/api/accounts/${empty.id}`);
    expect(res.status).toBe(200);
    expect((await t.as(alice).get(`/api/accounts/${empty.id}`)).status).toBe(404);

    const used = await open(alice, { name: 'Used' });
    await t.as(alice).post('/api/transactions', {
      notes: 'Tea',
      transaction_type: 'D',
      transaction_date: '2025-03-02',
      amount: 20,
      account_id: used.id,
    });
    const refused = await t.as(alice).delete(`/api/accounts/${used.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, errorCode: 'ACCOUNT_NOT_EMPTY' });
  });
});

describe('transactions in accounts', () => {
  it('puts a transaction in an account, filters the book by it, and keeps "no account" working', async () => {
    const account = await open(alice, { name: 'Book filter', opening_balance: 1000 });
    const inAccount = await t.as(alice).post('/api/transactions', {
      notes: 'Salary',
      transaction_type: 'C',
      transaction_date: '2025-03-05',
      amount: 500,
      account_id: account.id,
    });
    expect(inAccount.status).toBe(201);
    expect(inAccount.body.data.transaction.account_id).toBe(account.id);
    const none = await t.as(alice).post('/api/transactions', {
      notes: 'Cash tea',
      transaction_type: 'D',
      transaction_date: '2025-03-05',
      amount: 10,
    });
    expect(none.body.data.transaction.account_id).toBeNull();

    const filtered = await t.as(alice).get(`/api/transactions?account_id=${account.id}`);
    expect(filtered.body.data.transactions.map((x: { notes: string }) => x.notes)).toEqual(['Salary']);
    expect(filtered.body.data.pagination.total_items).toBe(1);
    const noAccount = await t.as(alice).get('/api/transactions?account_id=none&limit=100');
    const noAccountNotes = noAccount.body.data.transactions.map((x: { notes: string }) => x.notes);
    expect(noAccountNotes).toContain('Cash tea');
    expect(noAccountNotes).not.toContain('Salary');
    const bad = await t.as(alice).get('/api/transactions?account_id=savings');
    expect(bad.status).toBe(422);

    expect((await register(alice, account.id)).account.balance).toBe(1500);
    // An edit that leaves account_id out keeps it; null takes the transaction out.
    const id = inAccount.body.data.transaction.id;
    const edit = { notes: 'Salary', transaction_type: 'C', transaction_date: '2025-03-05', amount: 600 };
    expect((await t.as(alice).put(`/api/transactions/${id}`, edit)).body.data.transaction.account_id).toBe(
      account.id,
    );
    expect((await register(alice, account.id)).account.balance).toBe(1600);
    await t.as(alice).put(`/api/transactions/${id}`, { ...edit, account_id: null });
    expect((await register(alice, account.id)).account.balance).toBe(1000);
  });

  it("refuses another user's account as a 422 on account_id, appending nothing", async () => {
    const bobs = await open(bob, { name: 'Bob savings' });
    const before = await eventCount();
    const res = await t.as(alice).post('/api/transactions', {
      notes: 'Sneaky',
      transaction_type: 'D',
      transaction_date: '2025-03-05',
      amount: 10,
      account_id: bobs.id,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'account_id', message: 'Account not found' }]);
    expect(await eventCount()).toBe(before);
  });
});

describe('transfers and the register', () => {
  let savings: Account;
  let wallet: Account;
  let transferId: string;

  beforeAll(async () => {
    savings = await open(alice, {
      name: 'Transfer savings',
      opening_balance: 5000,
      opening_date: '2025-03-01',
    });
    wallet = await open(alice, {
      name: 'Transfer wallet',
      kind: 'wallet',
      bank_name: null,
      opening_balance: 0,
    });
    await t.as(alice).post('/api/transactions', {
      notes: 'Rent',
      transaction_type: 'D',
      transaction_date: '2025-03-03',
      amount: 1200,
      account_id: savings.id,
    });
  });

  it('records one event shown as a leg in each register, with running balances', async () => {
    const stats = (await t.as(alice).get('/api/transactions/stats')).body.data.stats;
    const ledger = (await t.as(alice).get('/api/ledger?year=2025&month=3')).body.data.summary;
    const before = await eventCount();
    const res = await t.as(alice).post('/api/transfers', {
      from_account_id: savings.id,
      to_account_id: wallet.id,
      amount: '300.25',
      transfer_date: '2025-03-04',
      notes: 'Top up',
    });
    expect(res.status).toBe(201);
    transferId = res.body.data.transfer.id;
    expect(await eventCount()).toBe(before + 1);

    const out = await register(alice, savings.id);
    expect(out.entries).toEqual([
      expect.objectContaining({ kind: 'opening', date: '2025-03-01', amount: 5000, balance: 5000 }),
      expect.objectContaining({ kind: 'transaction', notes: 'Rent', amount: -1200, balance: 3800 }),
      expect.objectContaining({ kind: 'transfer_out', id: transferId, amount: -300.25, balance: 3499.75 }),
    ]);
    expect(out.entries[2]).toMatchObject({ counterpart_account_name: 'Transfer wallet' });
    const into = await register(alice, wallet.id);
    expect(into.entries.at(-1)).toMatchObject({ kind: 'transfer_in', amount: 300.25, balance: 300.25 });
    expect(into.account.balance).toBe(300.25);
    const newestFirst = await register(alice, savings.id, '?sort_order=DESC&limit=1');
    expect(newestFirst.entries).toEqual([
      expect.objectContaining({ kind: 'transfer_out', balance: 3499.75 }),
    ]);
    expect(newestFirst.pagination.total_items).toBe(3);

    // Never income or expense: the book's totals and the ledger are as they were.
    expect((await t.as(alice).get('/api/transactions/stats')).body.data.stats).toEqual(stats);
    const ledgerAfter = await t.as(alice).get('/api/ledger?year=2025&month=3');
    expect(ledgerAfter.body.data.summary).toEqual(ledger);
    expect(JSON.stringify(ledgerAfter.body.data)).not.toContain('Top up');
    const transfers = await t.as(alice).get('/api/transfers');
    expect(transfers.body.data.transfers.map((x: { id: string }) => x.id)).toEqual([transferId]);
  });

  it('answers the balance on a date and as of an instant', async () => {
    const onDate = await t.as(alice).get(`/api/accounts/${savings.id}?date=2025-03-03`);
    expect(onDate.body.data.account.balance).toBe(3800);
    const beforeOpening = await t.as(alice).get(`/api/accounts/${savings.id}?date=2025-02-28`);
    expect(beforeOpening.body.data.account.balance).toBe(0);
    // The clock has moved one second per call since; an instant before the transfer was recorded.
    const { rows } = await t.platform.db.query<{ at: string }>(
      `SELECT (metadata->>'recordedAt') AS at FROM events WHERE type = 'TransferRecorded' AND stream_id = $1`,
      [`transfer-${transferId}`],
    );
    const justBefore = new Date(new Date(rows[0]?.at as string).getTime() - 1).toISOString();
    const asOf = await t.as(alice).get(`/api/accounts/${savings.id}/register?as_of=${justBefore}`);
    expect(asOf.status).toBe(200);
    expect(asOf.body.data.account.balance).toBe(3800);
    expect(asOf.body.data.entries.map((e: Entry) => e.kind)).toEqual(['opening', 'transaction']);
    const bad = await t.as(alice).get(`/api/accounts/${savings.id}?date=2025-13-01`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: 'date', message: 'Date must be a valid date (YYYY-MM-DD)' }]);
  });

  it('exports the register as CSV with a BOM and ISO dates', async () => {
    const res = await t.as(alice).get(`/api/accounts/${savings.id}/register.csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.text.startsWith('\uFEFFDate,Details,Kind,Withdrawal,Deposit,Balance\r\n')).toBe(true);
    const lines = res.text.trim().split('\r\n');
    expect(lines.slice(1)).toEqual([
      '2025-03-01,Opening balance,Opening balance,,,5000.00',
      '2025-03-03,Rent,Transaction,1200.00,,3800.00',
      '2025-03-04,Top up · to Transfer wallet,Transfer out,300.25,,3499.75',
    ]);
  });

  it('refuses bad transfers per field and appends nothing', async () => {
    const bobs = await open(bob, { name: 'Bob target' });
    const before = await eventCount();
    const same = await t.as(alice).post('/api/transfers', {
      from_account_id: savings.id,
      to_account_id: savings.id,
      amount: 0,
      transfer_date: 'soon',
    });
    expect(same.status).toBe(422);
    expect(same.body.errors).toEqual([
      { field: 'to_account_id', message: 'To account must differ from the from account' },
      { field: 'amount', message: 'Amount must be greater than 0' },
      { field: 'transfer_date', message: 'Invalid transfer date' },
    ]);
    const foreign = await t.as(alice).post('/api/transfers', {
      from_account_id: savings.id,
      to_account_id: bobs.id,
      amount: 1,
      transfer_date: '2025-03-05',
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual([{ field: 'to_account_id', message: 'Account not found' }]);
    expect(await eventCount()).toBe(before);
  });

  it("deletes a transfer (both legs); another user's transfer is a 404", async () => {
    expect((await t.as(bob).delete(`/api/transfers/${transferId}`)).status).toBe(404);
    expect((await t.as(bob).get(`/api/transfers/${transferId}`)).status).toBe(404);
    const res = await t.as(alice).delete(`/api/transfers/${transferId}`);
    expect(res.status).toBe(200);
    expect((await register(alice, wallet.id)).account.balance).toBe(0);
    expect((await register(alice, savings.id)).account.balance).toBe(3800);
    expect((await t.as(alice).delete(`/api/transfers/${transferId}`)).status).toBe(404);
  });

  it('rebuilds the accounts read model to the same rows', async () => {
    const tables = {
      accounts: 'id',
      account_transactions: 'id',
      account_transfers: 'id',
      transactions: 'id',
    };
    const snapshot = () => snapshotTables(t.platform.db, tables);
    const before = await snapshot();
    expect(before.account_transfers).toHaveLength(1);
    for (const name of ['accounts', 'transactions']) {
      expect((await t.platform.runner.rebuild(name)).processed).toBeGreaterThan(0);
    }
    expect(await snapshot()).toEqual(before);
  }, 60_000);
});
