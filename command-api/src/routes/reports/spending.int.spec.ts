import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { loanInput } from '../../testing/fixtures';
import { rebuildEverything } from '../../testing/round-trip';
import { createTestApp, type TestApp } from '../../testing/test-app';

type Row = {
  id: string | null;
  name: string;
  amount: number;
  own_amount: number;
  count: number;
  share: number;
  children: Omit<Row, 'children'>[];
};
type Report = {
  period: { kind: string; from: string; to: string; label: string };
  total: number;
  categories: Row[];
};

/** Issue 31 item 6: spending by category over a month, a financial year and any range. */
describe.each(['postgres', 'embedded'] as const)('spending report (%s)', (mode) => {
  const clock = testClock('2026-02-20T04:00:00.000Z', { step: 1000 });
  let t: TestApp;
  const alice = randomUUID();
  const bob = randomUUID();
  const ids = new Map<string, string>();
  let emi = 0;

  const report = async (query = '', user = alice) => {
    const res = await t.as(user).get(`/api/reports/spending${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data as Report;
  };
  const debit = async (notes: string, date: string, amount: number, category: string | null) => {
    const res = await t.as(alice).post('/api/transactions', {
      notes,
      transaction_type: 'D',
      transaction_date: date,
      amount,
      category_id: category === null ? null : ids.get(category),
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.transaction.id as string;
  };

  beforeAll(async () => {
    t = await createTestApp({ mode, clock });
    const categories = (await t.as(alice).get('/api/categories')).body.data.categories as {
      id: string;
      name: string;
    }[];
    for (const c of categories) ids.set(c.name, c.id);
    await debit('Big Bazaar', '2026-02-03', 2500.5, 'Groceries');
    await debit('Pizza', '2026-02-07', 800, 'Dining out');
    await debit('Snacks', '2026-02-08', 99.5, 'Food');
    await debit('Flat rent', '2026-02-01', 25000, 'Rent');
    await debit('Cash', '2026-02-10', 300, null);
    await debit('Last year groceries', '2025-05-10', 1000, 'Groceries');
    // A credit is never spending.
    await t.as(alice).post('/api/transactions', {
      notes: 'Salary',
      transaction_type: 'C',
      transaction_date: '2026-02-01',
      amount: 90000,
      category_id: ids.get('Salary'),
    });
    // A loan whose February EMI is matched to a debit: counted once, under Loan EMI.
    const loan = await t.as(alice).post(
      '/api/loans',
      loanInput({
        principal_amount: 120000,
        interest_rate: 12,
        duration: 12,
        is_duration_yearly: 0,
        start_date: '2026-01-05',
        end_date: '2027-01-05',
      }),
    );
    const loanId = loan.body.data.loan.id as string;
    emi = (await t.as(alice).get(`/api/loans/${loanId}/amortization`)).body.data.schedule[0].emi;
    const paid = await debit('EMI debit', '2026-02-05', emi, 'Shopping');
    const match = await t.as(alice).post(`/api/loans/${loanId}/emis/1/payment`, { transaction_id: paid });
    expect(match.status, match.text).toBe(201);
    await t.as(bob).post('/api/transactions', {
      notes: 'Bob',
      transaction_type: 'D',
      transaction_date: '2026-02-03',
      amount: 5,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("rolls the month's debits up the tree, loan payments under Loan EMI, a matched debit once", async () => {
    const feb = await report();
    expect(feb.period).toEqual({
      kind: 'month',
      from: '2026-02-01',
      to: '2026-02-28',
      label: 'February 2026',
    });
    const total = Math.round((2500.5 + 800 + 99.5 + 25000 + 300 + emi) * 100) / 100;
    expect(feb.total).toBe(total);
    const byName = new Map(feb.categories.map((r) => [r.name, r]));
    expect(byName.get('Food')).toMatchObject({ amount: 3400, own_amount: 99.5, count: 3 });
    expect(byName.get('Food')?.children.map((c) => [c.name, c.amount])).toEqual([
      ['Groceries', 2500.5],
      ['Dining out', 800],
    ]);
    expect(byName.get('Home')?.children.map((c) => c.name)).toEqual(['Rent']);
    expect(byName.get('Loan EMI')).toMatchObject({ amount: emi, count: 1 });
    expect(byName.get('Uncategorised')).toMatchObject({ id: null, amount: 300 });
    expect(byName.has('Lifestyle')).toBe(false);
    expect(feb.categories[0]?.name).toBe('Home');
    expect(feb.categories[0]?.share).toBe(Math.round((25000 / total) * 1000) / 10);
    // The same total as the ledger's debits of the month.
    const ledger = (await t.as(alice).get('/api/ledger?month=2&year=2026')).body.data;
    expect(feb.total).toBe(ledger.summary.totalDebit);
  });

  it("groups the ledger's sides by category on asking, and keeps the spec's view by default", async () => {
    const plain = (await t.as(alice).get('/api/ledger?month=2&year=2026')).body.data;
    expect(plain.debit.groups).toBeUndefined();
    const res = await t.as(alice).get('/api/ledger?month=2&year=2026&group_by=category');
    expect(res.status, res.text).toBe(200);
    const { debit, credit } = res.body.data;
    expect(debit.transactions).toEqual(plain.debit.transactions);
    const groups = debit.groups as { name: string; total: number; entryIds: string[] }[];
    expect(groups.map((g) => [g.name, g.total, g.entryIds.length])).toEqual([
      ['Home › Rent', 25000, 1],
      ['Loan EMI', emi, 1],
      ['Food › Groceries', 2500.5, 1],
      ['Food › Dining out', 800, 1],
      ['Uncategorised', 300, 1],
      ['Food', 99.5, 1],
    ]);
    expect(credit.groups.map((g: { name: string }) => g.name)).toEqual(['Salary']);
    const bad = await t.as(alice).get('/api/ledger?group_by=payee');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: 'group_by', message: 'Group by must be category, or empty' }]);
  });

  it('covers a financial year (April to March) and any range', async () => {
    const fy = await report('?fy=2025');
    expect(fy.period).toMatchObject({ kind: 'financial-year', from: '2025-04-01', to: '2026-03-31' });
    const food = fy.categories.find((r) => r.name === 'Food');
    expect(food?.children.find((c) => c.name === 'Groceries')?.amount).toBe(3500.5);
    const range = await report('?from=2026-02-06&to=2026-02-09');
    expect(range.categories.map((r) => [r.name, r.amount])).toEqual([['Food', 899.5]]);
    // March: nothing spent yet but the EMI the ledger debits on its date.
    expect((await report('?month=3&year=2026')).categories.map((r) => [r.name, r.amount])).toEqual([
      ['Loan EMI', emi],
    ]);
  });

  it('moves with a category merge, and answers as of before it', async () => {
    clock.advance(60_000);
    const before = clock().toISOString();
    clock.advance(60_000);
    const merged = await t
      .as(alice)
      .post(`/api/categories/${ids.get('Dining out')}/merge`, { into_id: ids.get('Groceries') });
    expect(merged.status, merged.text).toBe(200);
    const food = (await report()).categories.find((r) => r.name === 'Food');
    expect(food?.children.map((c) => [c.name, c.amount])).toEqual([['Groceries', 3300.5]]);
    const then = await report(`?as_of=${encodeURIComponent(before)}`);
    const foodThen = then.categories.find((r) => r.name === 'Food');
    expect(foodThen?.amount).toBe(3400);
  });

  it('exports the same lines as CSV', async () => {
    const csv = await t.as(alice).get('/api/reports/spending.csv?from=2026-02-06&to=2026-02-09');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toBe(
      'attachment; filename="spending-2026-02-06-to-2026-02-09.csv"',
    );
    expect(csv.text.split('\r\n')).toEqual([
      '\uFEFFCategory,Parent,Amount,Share,Entries',
      'Food,,899.50,100.0%,2',
      'Groceries,Food,800.00,88.9%,1',
      'Total,,899.50,100.0%,2',
      '',
    ]);
  });

  it("refuses a bad period with 422 and never shows another user's spending", async () => {
    const bad = await t.as(alice).get('/api/reports/spending?from=2026-02-10&to=2026-02-01');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: 'to', message: 'To must be on or after From' }]);
    const fy = await t.as(alice).get('/api/reports/spending.csv?fy=26');
    expect(fy.status).toBe(422);
    const bobs = await report('', bob);
    expect(bobs.total).toBe(5);
  });

  it('reads the same after every read model is rebuilt', async () => {
    const before = await report('?fy=2025');
    await rebuildEverything(t);
    expect(await report('?fy=2025')).toEqual(before);
  });
});
