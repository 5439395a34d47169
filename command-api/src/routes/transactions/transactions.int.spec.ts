import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { createTestApp, type TestApp } from '../../testing/test-app';

/** Each call a second later, so created_at orders the writes. */
const clock = testClock('2025-03-20T04:00:00.000Z', { step: 1000 });

let t: TestApp;
const alice = randomUUID();
const bob = randomUUID();

type Wire = {
  id: string;
  notes: string;
  transaction_type: 'C' | 'D';
  transaction_date: string;
  amount: number;
  created_at: string;
};

async function record(userId: string, notes: string, type: 'C' | 'D', date: string, amount: number | string) {
  const res = await t.as(userId).post('/api/transactions', {
    notes,
    transaction_type: type,
    transaction_date: date,
    amount,
  });
  expect(res.status).toBe(201);
  return res.body.data.transaction as Wire;
}

const list = async (userId: string, query = '') => {
  const res = await t.as(userId).get(`/api/transactions${query}`);
  expect(res.status).toBe(200);
  return res.body.data as {
    transactions: Wire[];
    pagination: {
      current_page: number;
      total_pages: number;
      total_items: number;
      has_prev: boolean;
      has_next: boolean;
    };
    filters: Record<string, unknown>;
  };
};
const stats = async (userId: string) => (await t.as(userId).get('/api/transactions/stats')).body.data.stats;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => {
  await t?.close();
});

describe('validation', () => {
  const valid = { notes: 'Groceries', transaction_type: 'D', transaction_date: '2025-03-01', amount: 250.5 };
  const errorsOf = async (patch: Record<string, unknown>, method: 'POST' | 'PUT' = 'POST', id = '') => {
    const res = await t.as(alice).send(method, `/api/transactions${id}`, { ...valid, ...patch });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, errorCode: 'VALIDATION_ERROR' });
    return res.body.errors;
  };

  it('answers 422 with every missing field and its message', async () => {
    const res = await t.as(alice).post('/api/transactions', {});
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: 'notes', message: 'Notes are required' },
      { field: 'transaction_type', message: 'Transaction type is required' },
      { field: 'transaction_date', message: 'Transaction date is required' },
      { field: 'amount', message: 'Amount must be greater than 0' },
    ]);
  });

  it('gives each rule its message, per field', async () => {
    expect(await errorsOf({ notes: '   ' })).toEqual([{ field: 'notes', message: 'Notes are required' }]);
    expect(await errorsOf({ notes: 'n'.repeat(256) })).toEqual([
      { field: 'notes', message: 'Notes must not exceed 255 characters' },
    ]);
    expect(await errorsOf({ transaction_type: '' })).toEqual([
      { field: 'transaction_type', message: 'Transaction type is required' },
    ]);
    expect(await errorsOf({ transaction_type: 'X' })).toEqual([
      { field: 'transaction_type', message: 'Invalid transaction type' },
    ]);
    expect(await errorsOf({ transaction_date: '' })).toEqual([
      { field: 'transaction_date', message: 'Transaction date is required' },
    ]);
    expect(await errorsOf({ transaction_date: '2025-02-30' })).toEqual([
      { field: 'transaction_date', message: 'Invalid transaction date' },
    ]);
    expect(await errorsOf({ amount: 0 })).toEqual([
      { field: 'amount', message: 'Amount must be greater than 0' },
    ]);
    expect(await errorsOf({ amount: -5 })).toEqual([
      { field: 'amount', message: 'Amount must be greater than 0' },
    ]);
    expect(await errorsOf({ amount: 10.005 })).toEqual([
      { field: 'amount', message: 'Amount can have maximum 2 decimal places' },
    ]);
    expect(await errorsOf({ amount: 10_000_000_000 })).toEqual([
      { field: 'amount', message: 'Amount cannot exceed 9,999,999,999.99' },
    ]);
  });

  it('validates an update the same way, and stores nothing that failed', async () => {
    const kept = await record(alice, 'Valid one', 'C', '2024-01-01', 1);
    expect(await errorsOf({ notes: '' }, 'PUT', `/${kept.id}`)).toEqual([
      { field: 'notes', message: 'Notes are required' },
    ]);
    expect((await t.as(alice).get(`/api/transactions/${kept.id}`)).body.data.transaction.notes).toBe(
      'Valid one',
    );
    await t.as(alice).delete(`/api/transactions/${kept.id}`);
  });
});

describe('one transaction', () => {
  it('is created, read, updated with If-Match and deleted, and only by its owner', async () => {
    const created = await record(alice, '  Freelance invoice  ', 'C', '2025-03-10', '12000.5');
    expect(created).toMatchObject({
      notes: 'Freelance invoice',
      transaction_type: 'C',
      transaction_date: '2025-03-10',
      amount: 12000.5,
    });
    expect(created.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const read = await t.as(alice).get(`/api/transactions/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.headers.etag).toBe('"1"');
    expect(read.body.data.transaction).toEqual(created);

    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { ...created, notes: 'mine now' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.as(bob).send(method, `/api/transactions/${created.id}`, body);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Transaction not found');
    }
    expect((await t.as(alice).get('/api/transactions/not-a-uuid')).status).toBe(404);
    expect((await t.as(alice).get(`/api/transactions/${randomUUID()}`)).status).toBe(404);

    const body = {
      notes: 'Freelance invoice (paid)',
      transaction_type: 'C',
      transaction_date: '2025-03-11',
      amount: 12500,
    };
    const updated = await t
      .as(alice)
      .put(`/api/transactions/${created.id}`, body, { headers: { 'if-match': '"1"' } });
    expect(updated.status).toBe(200);
    expect(updated.headers.etag).toBe('"2"');
    expect(updated.body.data.transaction).toMatchObject({ ...body, created_at: created.created_at });

    const stale = await t
      .as(alice)
      .put(`/api/transactions/${created.id}`, { ...body, amount: 1 }, { headers: { 'if-match': '"1"' } });
    expect(stale.status).toBe(409);
    const staleDelete = await t.as(alice).delete(`/api/transactions/${created.id}`, {
      headers: {
        'if-match': '"1"',
      },
    });
    expect(staleDelete.status).toBe(409);

    const deleted = await t.as(alice).delete(`/api/transactions/${created.id}`, {
      headers: {
        'if-match': '"2"',
      },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ success: true, message: 'Transaction deleted successfully!' });
    expect((await t.as(alice).get(`/api/transactions/${created.id}`)).status).toBe(404);
    expect((await t.as(alice).delete(`/api/transactions/${created.id}`)).status).toBe(404);
  });

  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/transactions' });
    expect(res.statusCode).toBe(401);
  });
});

describe('stats', () => {
  it('follow create, edit (including C to D) and delete', async () => {
    const carol = randomUUID();
    expect(await stats(carol)).toEqual({
      total_transactions: 0,
      credit_amount: 0,
      debit_amount: 0,
      net_amount: 0,
    });
    const salary = await record(carol, 'Salary', 'C', '2025-03-01', 85000);
    const rent = await record(carol, 'Rent', 'D', '2025-03-02', 25000.25);
    expect(await stats(carol)).toEqual({
      total_transactions: 2,
      credit_amount: 85000,
      debit_amount: 25000.25,
      net_amount: 59999.75,
    });
    await t.as(carol).put(`/api/transactions/${salary.id}`, {
      notes: 'Salary advance returned',
      transaction_type: 'D',
      transaction_date: '2025-03-01',
      amount: 1000.1,
    });
    expect(await stats(carol)).toEqual({
      total_transactions: 2,
      credit_amount: 0,
      debit_amount: 26000.35,
      net_amount: -26000.35,
    });
    await t.as(carol).delete(`/api/transactions/${rent.id}`);
    expect(await stats(carol)).toEqual({
      total_transactions: 1,
      credit_amount: 0,
      debit_amount: 1000.1,
      net_amount: -1000.1,
    });
  });
});

describe('list', () => {
  const dave = randomUUID();
  const byNotes: Record<string, Wire> = {};

  beforeAll(async () => {
    const rows: [string, 'C' | 'D', string, number][] = [
      ['Salary March', 'C', '2025-03-01', 85000],
      ['Rent', 'D', '2025-03-02', 25000],
      ['Groceries at 50% off', 'D', '2025-03-02', 1200.4],
      ['GROCERIES weekly', 'D', '2025-03-09', 980],
      ['Electricity_bill', 'D', '2025-02-15', 1450.75],
      ['Electricity bill', 'D', '2025-02-15', 1450.75],
      ['Dividend', 'C', '2025-02-28', 3200],
      ['Salary February', 'C', '2025-02-01', 85000],
      ['Fuel', 'D', '2025-01-31', 3000],
      ['Gift from Amma', 'C', '2025-01-15', 5000],
      ['Insurance premium', 'D', '2024-12-31', 18000],
      ['Bonus', 'C', '2024-12-20', 40000],
    ];
    for (const [notes, type, date, amount] of rows)
      byNotes[notes] = await record(dave, notes, type, date, amount);
    await record(bob, 'Bob salary', 'C', '2025-03-01', 1);
  });

  const notesOf = (data: { transactions: Wire[] }) => data.transactions.map((x) => x.notes);

  it('pages newest first by default, 10 a page, with the filters it applied', async () => {
    const first = await list(dave);
    expect(first.transactions).toHaveLength(10);
    expect(first.transactions[0]?.notes).toBe('GROCERIES weekly');
    expect(first.pagination).toEqual({
      current_page: 1,
      total_pages: 2,
      total_items: 12,
      has_prev: false,
      has_next: true,
    });
    expect(first.filters).toEqual({
      search: null,
      transaction_type: null,
      date_from: null,
      date_to: null,
      sort_by: 'transaction_date',
      sort_order: 'DESC',
    });
    const last = await list(dave, '?page=2');
    expect(notesOf(last)).toEqual(['Insurance premium', 'Bonus']);
    expect(last.pagination).toEqual({
      current_page: 2,
      total_pages: 2,
      total_items: 12,
      has_prev: true,
      has_next: false,
    });
    const beyond = await list(dave, '?page=7');
    expect(beyond.transactions).toEqual([]);
    expect(beyond.pagination).toEqual({
      current_page: 7,
      total_pages: 2,
      total_items: 12,
      has_prev: true,
      has_next: false,
    });
    const exact = await list(dave, '?limit=4&page=3');
    expect(exact.pagination).toMatchObject({ total_pages: 3, has_next: false, has_prev: true });
    expect(exact.transactions).toHaveLength(4);
  });

  it('breaks ties by created_at then id, so pages never overlap', async () => {
    const desc = await list(dave, '?limit=100');
    // Same date: the later-created first when descending.
    expect(notesOf(desc).indexOf('Groceries at 50% off')).toBeLessThan(notesOf(desc).indexOf('Rent'));
    expect(notesOf(desc).indexOf('Electricity bill')).toBeLessThan(notesOf(desc).indexOf('Electricity_bill'));
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) seen.push(...notesOf(await list(dave, `?limit=3&page=${page}`)));
    expect(seen).toEqual(notesOf(desc));
    const asc = await list(dave, '?limit=100&sort_order=ASC');
    expect(notesOf(asc)).toEqual([...notesOf(desc)].reverse());
  });

  it('sorts by amount, created_at and notes in both directions', async () => {
    const byAmount = await list(dave, '?sort_by=amount&sort_order=ASC&limit=3');
    expect(byAmount.transactions.map((x) => x.amount)).toEqual([980, 1200.4, 1450.75]);
    expect(notesOf(byAmount)[2]).toBe('Electricity_bill');
    const top = await list(dave, '?sort_by=amount&sort_order=DESC&limit=2');
    expect(notesOf(top)).toEqual(['Salary February', 'Salary March']);
    const created = await list(dave, '?sort_by=created_at&sort_order=asc&limit=2');
    expect(notesOf(created)).toEqual(['Salary March', 'Rent']);
    const newest = await list(dave, '?sort_by=created_at&limit=1');
    expect(notesOf(newest)).toEqual(['Bonus']);
    const notes = await list(dave, '?sort_by=notes&sort_order=ASC&limit=100');
    expect(notesOf(notes)).toHaveLength(12);
    expect(notes.transactions[0]?.notes).toBe('Bonus');
  });

  it('searches in every sort order, a word, a part of one or words with a space, alone or with a filter', async () => {
    // Each search takes another path (note words, trigram index, note pieces); sorted by
    // created_at the trigram path once selected that column twice and answered 500.
    const matching = (search: string, rows: Wire[]) =>
      rows.filter((x) => x.notes.toLowerCase().includes(search.toLowerCase())).map((x) => x.notes);
    const all = (await list(dave, '?limit=100')).transactions;
    for (const search of ['salary', 'SAL', 'salary m', 'bill', 'l', 'zz']) {
      for (const sortBy of ['transaction_date', 'amount', 'created_at', 'notes']) {
        for (const filter of ['', '&transaction_type=C']) {
          const query = `?search=${encodeURIComponent(search)}&sort_by=${sortBy}&limit=100${filter}`;
          const found = await list(dave, query);
          const want = matching(search, filter ? all.filter((x) => x.transaction_type === 'C') : all);
          expect(notesOf(found).sort(), query).toEqual(want.sort());
          expect(found.pagination.total_items, query).toBe(want.length);
        }
      }
    }
  });

  it('filters by type, by inclusive dates and by notes text, literally and case-insensitively', async () => {
    const credits = await list(dave, '?transaction_type=C&limit=100');
    expect(credits.transactions.every((x) => x.transaction_type === 'C')).toBe(true);
    expect(credits.pagination.total_items).toBe(5);
    const debits = await list(dave, '?transaction_type=D');
    expect(debits.pagination.total_items).toBe(7);

    const feb = await list(dave, '?date_from=2025-02-01&date_to=2025-02-28&limit=100');
    expect(notesOf(feb).sort()).toEqual([
      'Dividend',
      'Electricity bill',
      'Electricity_bill',
      'Salary February',
    ]);
    expect(feb.filters).toMatchObject({ date_from: '2025-02-01', date_to: '2025-02-28' });
    expect((await list(dave, '?date_from=2025-03-09')).pagination.total_items).toBe(1);
    expect((await list(dave, '?date_to=2024-12-20')).pagination.total_items).toBe(1);

    expect(notesOf(await list(dave, '?search=groceries')).sort()).toEqual([
      'GROCERIES weekly',
      'Groceries at 50% off',
    ]);
    expect(notesOf(await list(dave, '?search=50%25'))).toEqual(['Groceries at 50% off']);
    expect(notesOf(await list(dave, '?search=%25'))).toEqual(['Groceries at 50% off']);
    expect(notesOf(await list(dave, '?search=y_b'))).toEqual(['Electricity_bill']);
    expect(notesOf(await list(dave, '?search=_'))).toEqual(['Electricity_bill']);

    const combined = await list(
      dave,
      '?search=salary&transaction_type=C&date_from=2025-03-01&sort_by=amount',
    );
    expect(notesOf(combined)).toEqual(['Salary March']);
    expect(combined.filters).toEqual({
      search: 'salary',
      transaction_type: 'C',
      date_from: '2025-03-01',
      date_to: null,
      sort_by: 'amount',
      sort_order: 'DESC',
    });
    const pastTheEnd = await list(dave, '?search=groceries&page=3&limit=1');
    expect(pastTheEnd.transactions).toEqual([]);
    expect(pastTheEnd.pagination).toEqual({
      current_page: 3,
      total_pages: 2,
      total_items: 2,
      has_prev: true,
      has_next: false,
    });
    const none = await list(dave, '?search=nothing-like-this');
    expect(none.transactions).toEqual([]);
    expect(none.pagination).toEqual({
      current_page: 1,
      total_pages: 0,
      total_items: 0,
      has_prev: false,
      has_next: false,
    });
  });

  it('ignores empty values and answers 422 for bad ones, never a database error', async () => {
    const empty = await list(
      dave,
      '?page=&limit=&search=&transaction_type=&date_from=&date_to=&sort_by=&sort_order=',
    );
    expect(empty.pagination.total_items).toBe(12);
    const cases: [string, string][] = [
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['limit=101', 'limit'],
      ['limit=-1', 'limit'],
      ['transaction_type=X', 'transaction_type'],
      ['date_from=2025-02-30', 'date_from'],
      ['date_to=03/01/2025', 'date_to'],
      ['sort_by=id', 'sort_by'],
      ['sort_by=amount;DROP TABLE transactions', 'sort_by'],
      ['sort_order=UP', 'sort_order'],
    ];
    for (const [query, field] of cases) {
      const res = await t.as(dave).get(`/api/transactions?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });

  it("never shows another user's transactions", async () => {
    const bobs = await list(bob, '?limit=100');
    expect(notesOf(bobs)).toEqual(['Bob salary']);
    expect(notesOf(await list(dave, '?search=Bob'))).toEqual([]);
    expect(byNotes.Rent).toBeDefined();
    expect((await t.as(bob).get(`/api/transactions/${byNotes.Rent?.id}`)).status).toBe(404);
  });
});
