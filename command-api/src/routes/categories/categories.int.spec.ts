import { randomUUID } from 'node:crypto';
import { CATEGORY_SEEDS } from '@kosh/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { userFixture } from '../../testing/fixtures';
import { rebuildEverything } from '../../testing/round-trip';
import { snapshotTables } from '../../testing/snapshot';
import { createTestApp, type TestApp } from '../../testing/test-app';

type Wire = {
  id: string;
  name: string;
  kind: string;
  parent_id: string | null;
  system: boolean;
  transaction_count: number;
};

/** Issue 31 items 1 and 7: the category tree, its merges and deletes, a cycle refused, isolation. */
describe.each(['postgres', 'embedded'] as const)('categories (%s)', (mode) => {
  const clock = testClock('2026-02-01T04:00:00.000Z');
  let t: TestApp;
  const alice = randomUUID();
  const bob = randomUUID();

  beforeAll(async () => {
    t = await createTestApp({ clock, mode });
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = async (user = alice): Promise<Wire[]> => {
    const answer = await t.as(user).get('/api/categories');
    expect(answer.status).toBe(200);
    return answer.body.data.categories;
  };
  const byName = async (name: string, user = alice) => {
    const found = (await list(user)).find((c) => c.name === name);
    expect(found, name).toBeDefined();
    return found as Wire;
  };
  const spend = async (categoryId: string | null, notes = 'Spent') => {
    const answer = await t.as(alice).post('/api/transactions', {
      notes,
      transaction_type: 'D',
      transaction_date: '2026-01-15',
      amount: 250,
      category_id: categoryId,
      payee: 'Corner shop',
    });
    expect(answer.status).toBe(201);
    return answer.body.data.transaction as { id: string; category_id: string | null; payee: string | null };
  };
  const categoryOf = async (id: string) =>
    (await t.as(alice).get(`/api/transactions/${id}`)).body.data.transaction.category_id as string | null;

  it('seeds the household set once per user, the system Loan EMI among them', async () => {
    const [first, again] = [await list(), await list()];
    expect(first).toHaveLength(CATEGORY_SEEDS.length);
    expect(again.map((c) => c.id)).toEqual(first.map((c) => c.id));
    const groceries = first.find((c) => c.name === 'Groceries') as Wire;
    expect(first.find((c) => c.id === groceries.parent_id)?.name).toBe('Food');
    expect(first.find((c) => c.name === 'Loan EMI')).toMatchObject({ system: true, kind: 'expense' });
    expect(first.find((c) => c.name === 'Salary')).toMatchObject({ kind: 'income', parent_id: null });
    // Another user has their own tree: none of the ids are shared.
    const bobs = await list(bob);
    expect(bobs.some((c) => first.some((a) => a.id === c.id))).toBe(false);
  });

  it('adds, renames and moves; refuses a cycle, a third level and a bad name with 422 and records nothing', async () => {
    const added = await t
      .as(alice)
      .post('/api/categories', { name: 'Pets', kind: 'expense', parent_id: null });
    expect(added.status).toBe(201);
    const pets = added.body.data.category as Wire;
    const vet = await t.as(alice).post('/api/categories', { name: 'Vet', parent_id: pets.id });
    expect(vet.status).toBe(201);
    expect(vet.body.data.category).toMatchObject({ kind: 'expense', parent_id: pets.id });
    const vetId = vet.body.data.category.id as string;

    const before = await t.platform.eventStore.readStream(`categories-${alice}`);
    const refusals: [Record<string, unknown>, string, string][] = [
      [
        { parent_id: vetId },
        'parent_id',
        'A category cannot be moved under itself or one of its own subcategories',
      ],
      [
        { parent_id: (await byName('Groceries')).id },
        'parent_id',
        'A category cannot be moved under itself or one of its own subcategories',
      ],
      [{ name: '' }, 'name', 'Name is required'],
      [{ name: 'x'.repeat(61) }, 'name', 'Name must not exceed 60 characters'],
      [{ name: 'food' }, 'name', 'A category with this name already exists here'],
      [
        { parent_id: (await byName('Salary')).id },
        'parent_id',
        'A subcategory must be of the same kind as its parent',
      ],
    ];
    // The cycle first: Pets under its own Vet.
    for (const [body, field, message] of refusals.slice(0, 1)) {
      const answer = await t.as(alice).put(`/api/categories/${pets.id}`, body);
      expect(answer.status).toBe(422);
      expect(answer.body.errors).toEqual([{ field, message }]);
    }
    // Pets has a subcategory: under Food it would make a third level.
    const third = await t
      .as(alice)
      .put(`/api/categories/${pets.id}`, { parent_id: (await byName('Food')).id });
    expect(third.status).toBe(422);
    expect(third.body.errors).toEqual([
      { field: 'parent_id', message: 'Categories have two levels: a subcategory cannot hold subcategories' },
    ]);
    const underChild = await t.as(alice).post('/api/categories', { name: 'Deep', parent_id: vetId });
    expect(underChild.status).toBe(422);
    for (const [body, field, message] of refusals.slice(2)) {
      const answer = await t.as(alice).put(`/api/categories/${pets.id}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.errors).toEqual([{ field, message }]);
    }
    const after = await t.platform.eventStore.readStream(`categories-${alice}`);
    expect(after.version).toBe(before.version);

    const renamed = await t
      .as(alice)
      .put(`/api/categories/${vetId}`, { name: 'Vet & care', parent_id: null });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.category).toMatchObject({ name: 'Vet & care', parent_id: null });
  });

  it('merges and deletes, moving every transaction in one event; the book follows', async () => {
    const dining = await byName('Dining out');
    const groceries = await byName('Groceries');
    const fuel = await byName('Fuel');
    const a = await spend(dining.id, 'Dinner');
    const b = await spend(dining.id, 'Lunch');
    const c = await spend(fuel.id, 'Petrol');
    expect(a).toMatchObject({ category_id: dining.id, payee: 'Corner shop' });
    expect((await byName('Dining out')).transaction_count).toBe(2);
    // History names the category, not its id.
    await t.caughtUp(['history']);
    const history = await t.as(alice).get(`/api/history?stream=transaction:${a.id}&limit=10`);
    expect(JSON.stringify(history.body)).toContain('{"field":"Category","from":null,"to":"Dining out"}');

    const version = (await t.platform.eventStore.readStream(`categories-${alice}`)).version;
    const merged = await t.as(alice).post(`/api/categories/${dining.id}/merge`, { into_id: groceries.id });
    expect(merged.status).toBe(200);
    expect((await t.platform.eventStore.readStream(`categories-${alice}`)).version).toBe(version + 1);
    expect(await categoryOf(a.id)).toBe(groceries.id);
    expect(await categoryOf(b.id)).toBe(groceries.id);
    expect((await list()).some((x) => x.id === dining.id)).toBe(false);

    const income = await byName('Salary');
    const wrongKind = await t.as(alice).delete(`/api/categories/${fuel.id}?move_to=${income.id}`);
    expect(wrongKind.status).toBe(422);
    expect(wrongKind.body.errors).toEqual([
      { field: 'move_to', message: 'Choose a category of the same kind' },
    ]);
    const deleted = await t.as(alice).delete(`/api/categories/${fuel.id}?move_to=${groceries.id}`);
    expect(deleted.status).toBe(200);
    expect(await categoryOf(c.id)).toBe(groceries.id);

    const emi = await byName('Loan EMI');
    const system = await t.as(alice).delete(`/api/categories/${emi.id}`);
    expect(system.status).toBe(422);
    const parent = await t.as(alice).delete(`/api/categories/${(await byName('Home')).id}`);
    expect(parent.status).toBe(422);
    expect(parent.body.errors).toEqual([{ field: 'id', message: 'Move or delete its subcategories first' }]);

    // A transaction edited after the merge keeps the category it was moved to.
    const edited = await t.as(alice).put(`/api/transactions/${a.id}`, {
      notes: 'Dinner out',
      transaction_type: 'D',
      transaction_date: '2026-01-15',
      amount: 250,
    });
    expect(edited.status).toBe(200);
    expect(await categoryOf(a.id)).toBe(groceries.id);

    // The book's category filter: one category, or none.
    const inGroceries = await t.as(alice).get(`/api/transactions?limit=100&category_id=${groceries.id}`);
    expect(inGroceries.body.data.transactions.map((x: { id: string }) => x.id).sort()).toEqual(
      [a.id, b.id, c.id].sort(),
    );
    expect(inGroceries.body.data.pagination.total_items).toBe(3);
    expect(inGroceries.body.data.filters.category_id).toBe(groceries.id);
    const none = await t.as(alice).get('/api/transactions?limit=100&category_id=none');
    expect(none.body.data.transactions.some((x: { id: string }) => [a.id, b.id, c.id].includes(x.id))).toBe(
      false,
    );
    const bad = await t.as(alice).get('/api/transactions?category_id=food');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { field: 'category_id', message: "Category must be a category's id or none" },
    ]);
  });

  it("answers 404 for another user's category and 422 for a transaction naming it", async () => {
    const bobs = await byName('Groceries', bob);
    expect((await t.as(alice).put(`/api/categories/${bobs.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await t.as(alice).delete(`/api/categories/${bobs.id}`)).status).toBe(404);
    expect((await t.as(alice).post(`/api/categories/${bobs.id}/merge`, { into_id: bobs.id })).status).toBe(
      404,
    );
    expect((await t.as(alice).put('/api/categories/not-a-uuid', { name: 'x' })).status).toBe(404);
    const body = { notes: 'Sneaky', transaction_type: 'D', transaction_date: '2026-01-15', amount: 1 };
    const theirs = await t.as(alice).post('/api/transactions', { ...body, category_id: bobs.id });
    expect(theirs.status).toBe(422);
    expect(theirs.body.errors).toEqual([{ field: 'category_id', message: 'Category not found' }]);
    const long = await t.as(alice).post('/api/transactions', { ...body, payee: 'p'.repeat(101) });
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual([{ field: 'payee', message: 'Payee must not exceed 100 characters' }]);
  });

  it('puts a debit matched to an EMI in the system Loan EMI category, and takes it out when released', async () => {
    const loan = await t.as(alice).post('/api/loans', {
      bank_id: 12,
      loan_type_id: 1,
      account_number: 'HL77701234',
      principal_amount: 1000000,
      interest_rate: 9,
      is_interest_rate_yearly: 1,
      duration: 5,
      is_duration_yearly: 1,
      start_date: '2024-01-15',
      processing_fee: 0,
      has_gst: 0,
      gst_percentage: 0,
    });
    expect(loan.status, JSON.stringify(loan.body)).toBe(201);
    const loanId = loan.body.data.loan.id as string;
    const debit = await t.as(alice).post('/api/transactions', {
      notes: 'HDFC EMI',
      transaction_type: 'D',
      transaction_date: '2024-04-16',
      amount: 20758.36,
    });
    const paid = debit.body.data.transaction.id as string;
    const matched = await t.as(alice).post(`/api/loans/${loanId}/emis/3/payment`, { transaction_id: paid });
    expect(matched.status, JSON.stringify(matched.body)).toBe(201);
    await t.caughtUp(['transactions']);
    const emi = await byName('Loan EMI');
    expect(await categoryOf(paid)).toBe(emi.id);
    const schedule = await t.as(alice).get(`/api/loans/${loanId}/amortization`);
    const row = (
      schedule.body.data.schedule as { kind: string; payment_number: number; mark_ids: string[] }[]
    ).find((r) => r.kind === 'emi' && r.payment_number === 3);
    const undo = await t.as(alice).delete(`/api/loans/${loanId}/marks/${row?.mark_ids[0]}`);
    expect(undo.status).toBe(200);
    await t.caughtUp(['transactions']);
    expect(await categoryOf(paid)).toBeNull();
  });

  it("shows an auditor the owner's categories and never seeds an unseeded tree on their read", async () => {
    const carol = randomUUID();
    await t.as(carol).get('/api/transactions');
    for (const [owner, expected] of [
      [alice, true],
      [carol, false],
    ] as const) {
      const granted = await t
        .as(owner)
        .post('/api/audit-grants', { email: userFixture(bob).email, expires_at: '2026-12-31' });
      expect(granted.status).toBe(201);
      const read = await t.as(bob).get('/api/categories', { headers: { 'x-kosh-account': owner } });
      expect(read.status).toBe(200);
      expect(read.body.data.categories.length > 0).toBe(expected);
    }
    expect((await t.platform.eventStore.readStream(`categories-${carol}`)).version).toBe(0);
    const write = await t
      .as(bob)
      .post('/api/categories', { name: 'X', kind: 'expense' }, { headers: { 'x-kosh-account': alice } });
    expect(write.status).toBe(403);
  });

  it('gives the same categories and transactions after a rebuild', async () => {
    await t.caughtUp(['categories', 'transactions', 'history']);
    const tables = { categories: 'id', transactions: 'id', transaction_system_categories: 'user_id, key' };
    const before = await snapshotTables(t.platform.db, tables);
    await rebuildEverything(t);
    expect(await snapshotTables(t.platform.db, tables)).toEqual(before);
  });
});
