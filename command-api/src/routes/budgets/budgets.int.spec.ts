import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { rebuildEverything } from '../../testing/round-trip';
import { createTestApp, type TestApp } from '../../testing/test-app';

type Budget = {
  id: string;
  category_id: string;
  category_name: string;
  parent_name: string | null;
  amount: number;
  rollover: boolean;
  start_month: string;
};
type Standing = Budget & {
  month_amount: number;
  carried: number;
  available: number;
  spent: number;
  remaining: number;
  overspent: boolean;
  percent_used: number;
};
type Status = {
  month: number;
  year: number;
  budgets: Standing[];
  totals: { available: number; spent: number; remaining: number };
  overspent_count: number;
};

/** Issue 31 items 3 and 7: budgets, their status with rollover, isolation, as-of, rebuild, History. */
describe.each(['postgres', 'embedded'] as const)('budgets (%s)', (mode) => {
  // January 2026 in India.
  const clock = testClock('2026-01-10T04:00:00.000Z', { step: 1000 });
  let t: TestApp;
  const alice = randomUUID();
  const bob = randomUUID();
  const ids = new Map<string, string>();
  let food: Budget;
  let rent: Budget;

  const debit = async (date: string, amount: number, category: string) => {
    const res = await t.as(alice).post('/api/transactions', {
      notes: `${category} spend`,
      transaction_type: 'D',
      transaction_date: date,
      amount,
      category_id: ids.get(category),
    });
    expect(res.status, res.text).toBe(201);
  };
  const status = async (query = '', user = alice) => {
    const res = await t.as(user).get(`/api/budgets/status${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data as Status;
  };
  const standing = (s: Status, name: string) => s.budgets.find((b) => b.category_name === name) as Standing;
  const eventCount = async () =>
    Number((await t.platform.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]?.n);

  beforeAll(async () => {
    t = await createTestApp({ mode, clock });
    const categories = (await t.as(alice).get('/api/categories')).body.data.categories as {
      id: string;
      name: string;
    }[];
    for (const c of categories) ids.set(c.name, c.id);
    await t.as(bob).get('/api/categories');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sets a budget per expense category, from this month', async () => {
    const res = await t
      .as(alice)
      .post('/api/budgets', { category_id: ids.get('Food'), amount: '10,000', rollover: true });
    expect(res.status, res.text).toBe(201);
    food = res.body.data.budget;
    expect(food).toMatchObject({
      category_name: 'Food',
      parent_name: null,
      amount: 10000,
      rollover: true,
      start_month: '2026-01',
    });
    rent = (await t.as(alice).post('/api/budgets', { category_id: ids.get('Rent'), amount: 25000 })).body.data
      .budget;
    expect(rent).toMatchObject({ category_name: 'Rent', parent_name: 'Home', rollover: false });
    const list = (await t.as(alice).get('/api/budgets')).body.data.budgets as Budget[];
    expect(list.map((b) => b.category_name)).toEqual(['Food', 'Rent']);
    expect((await t.as(alice).get(`/api/budgets/${food.id}`)).body.data.budget.amount).toBe(10000);
  });

  it('refuses bad input with 422 and appends nothing', async () => {
    const before = await eventCount();
    const cases: [Record<string, unknown>, { field: string; message: string }[]][] = [
      [
        { amount: 0, rollover: 'maybe' },
        [
          { field: 'category_id', message: 'Category is required' },
          { field: 'amount', message: 'Amount must be greater than 0' },
          { field: 'rollover', message: 'Rollover must be on or off' },
        ],
      ],
      [
        { category_id: ids.get('Salary'), amount: 5 },
        [{ field: 'category_id', message: 'Choose one of your expense categories' }],
      ],
      [
        { category_id: randomUUID(), amount: 5 },
        [{ field: 'category_id', message: 'Choose one of your expense categories' }],
      ],
      [
        { category_id: ids.get('Food'), amount: 5 },
        [{ field: 'category_id', message: 'This category already has a budget' }],
      ],
      [
        { category_id: ids.get('Fuel'), amount: '12.345' },
        [{ field: 'amount', message: 'Amount can have maximum 2 decimal places' }],
      ],
      [
        { category_id: ids.get('Fuel'), amount: 20_000_000 },
        [{ field: 'amount', message: 'Amount cannot exceed 1,00,00,000.00 a month' }],
      ],
    ];
    for (const [body, errors] of cases) {
      const res = await t.as(alice).post('/api/budgets', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors).toEqual(errors);
    }
    const fixed = await t
      .as(alice)
      .put(`/api/budgets/${food.id}`, { category_id: ids.get('Rent'), amount: 5 });
    expect(fixed.status).toBe(422);
    const badMonth = await t.as(alice).get('/api/budgets/status?month=13');
    expect(badMonth.status).toBe(422);
    expect(await eventCount()).toBe(before);
  });

  it("keeps another user's budget a 404, and their categories out of reach", async () => {
    for (const res of [
      await t.as(bob).get(`/api/budgets/${food.id}`),
      await t.as(bob).put(`/api/budgets/${food.id}`, { amount: 1 }),
      await t.as(bob).delete(`/api/budgets/${food.id}`),
      await t.as(alice).get('/api/budgets/not-a-uuid'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Budget not found');
    }
    const theirs = await t.as(bob).post('/api/budgets', { category_id: ids.get('Fuel'), amount: 100 });
    expect(theirs.status).toBe(422);
    expect((await status('', bob)).budgets).toEqual([]);
  });

  it('stands each budget against its category and subcategories; overspent is said plainly', async () => {
    await debit('2026-01-05', 6000, 'Groceries');
    await debit('2026-01-08', 1500.5, 'Dining out');
    await debit('2026-01-01', 26000, 'Rent');
    await debit('2025-12-20', 999, 'Groceries');
    const jan = await status();
    expect(jan).toMatchObject({ month: 1, year: 2026, overspent_count: 1 });
    expect(jan.budgets[0]?.category_name).toBe('Rent');
    expect(standing(jan, 'Rent')).toMatchObject({
      month_amount: 25000,
      available: 25000,
      spent: 26000,
      remaining: -1000,
      overspent: true,
      percent_used: 104,
    });
    expect(standing(jan, 'Food')).toMatchObject({
      carried: 0,
      available: 10000,
      spent: 7500.5,
      remaining: 2499.5,
    });
    expect(jan.totals).toEqual({ available: 35000, spent: 33500.5, remaining: 1499.5 });
  });

  it('rolls what is left into the next month, and a change counts from its month on', async () => {
    clock.set('2026-02-10T04:00:00.000Z');
    await debit('2026-02-03', 2000, 'Groceries');
    const feb = await status('?month=2&year=2026');
    expect(standing(feb, 'Food')).toMatchObject({ carried: 2499.5, available: 12499.5, spent: 2000 });
    expect(standing(feb, 'Rent')).toMatchObject({ carried: 0, available: 25000, spent: 0, overspent: false });
    const changed = await t.as(alice).put(`/api/budgets/${food.id}`, { amount: 8000, rollover: true });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.budget.amount).toBe(8000);
    const same = await eventCount();
    expect(
      (await t.as(alice).put(`/api/budgets/${food.id}`, { amount: '8000.00', rollover: 1 })).status,
    ).toBe(200);
    expect(await eventCount()).toBe(same);
    expect(standing(await status('?month=2&year=2026'), 'Food')).toMatchObject({
      month_amount: 8000,
      carried: 2499.5,
    });
    expect(standing(await status('?month=1&year=2026'), 'Food')).toMatchObject({ month_amount: 10000 });
  });

  it('answers as of an earlier instant, shows its events in History, and reads the same after a rebuild', async () => {
    const then = await status('?month=2&year=2026&as_of=2026-02-09');
    expect(standing(then, 'Food')).toMatchObject({ month_amount: 10000, spent: 0 });
    const history = await t.as(alice).get(`/api/history?stream=${encodeURIComponent(`budget:${food.id}`)}`);
    expect(history.status, history.text).toBe(200);
    const summaries = (history.body.data.entries ?? history.body.data.events ?? history.body.data).map(
      (e: { summary: string }) => e.summary,
    );
    expect(summaries).toEqual(
      expect.arrayContaining([
        'Budget of ₹10,000.00 a month set for Food',
        'Budget edited from 2026-02 (Monthly Amount)',
      ]),
    );
    const before = [await status('?month=2&year=2026'), (await t.as(alice).get('/api/budgets')).body.data];
    await rebuildEverything(t);
    expect([await status('?month=2&year=2026'), (await t.as(alice).get('/api/budgets')).body.data]).toEqual(
      before,
    );
  });

  it('deletes a budget', async () => {
    const res = await t.as(alice).delete(`/api/budgets/${rent.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe('Budget deleted successfully!');
    expect((await t.as(alice).get(`/api/budgets/${rent.id}`)).status).toBe(404);
    expect((await status()).budgets.map((b) => b.category_name)).toEqual(['Food']);
    // Its category may have a budget again.
    expect((await t.as(alice).post('/api/budgets', { category_id: ids.get('Rent'), amount: 1 })).status).toBe(
      201,
    );
  });
});
