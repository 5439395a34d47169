import { randomUUID } from 'node:crypto';
import { PATTERN_MESSAGES } from '@kosh/domain/rule-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { rebuildEverything } from '../../testing/round-trip';
import { snapshotTables } from '../../testing/snapshot';
import { createTestApp, type TestApp } from '../../testing/test-app';

/** Issue 31 items 2 and 7: rules as events, applied to existing entries in one event, bad patterns, isolation. */
describe.each(['postgres', 'embedded'] as const)('rules (%s)', (mode) => {
  const clock = testClock('2026-02-01T04:00:00.000Z');
  let t: TestApp;
  const alice = randomUUID();
  const bob = randomUUID();
  let groceries: string;
  let dining: string;

  beforeAll(async () => {
    t = await createTestApp({ clock, mode });
    const tree = (await t.as(alice).get('/api/categories')).body.data.categories as {
      id: string;
      name: string;
    }[];
    groceries = tree.find((c) => c.name === 'Groceries')?.id as string;
    dining = tree.find((c) => c.name === 'Dining out')?.id as string;
  });
  afterAll(async () => {
    await t?.close();
  });

  const record = async (notes: string, amount: number, type = 'D') => {
    const answer = await t.as(alice).post('/api/transactions', {
      notes,
      transaction_type: type,
      transaction_date: '2026-01-20',
      amount,
    });
    expect(answer.status).toBe(201);
    return answer.body.data.transaction.id as string;
  };
  const book = async (id: string) => (await t.as(alice).get(`/api/transactions/${id}`)).body.data.transaction;

  it('refuses a pattern that is not valid or could run away, and every other bad field, with 422 and no event', async () => {
    const cases: [Record<string, unknown>, { field: string; message: string }[]][] = [
      [
        { name: 'x', match_pattern: '(swiggy', category_id: dining },
        [{ field: 'match_pattern', message: PATTERN_MESSAGES.invalid }],
      ],
      [
        { name: 'x', match_pattern: '(a+)+$', category_id: dining },
        [{ field: 'match_pattern', message: PATTERN_MESSAGES.runaway }],
      ],
      [
        { name: 'x', match_pattern: '(\\w+\\s?)*$', category_id: dining },
        [{ field: 'match_pattern', message: PATTERN_MESSAGES.runaway }],
      ],
      [
        { name: 'x', match_pattern: '(?<=a)b', category_id: dining },
        [{ field: 'match_pattern', message: PATTERN_MESSAGES.invalid }],
      ],
      [
        { name: 'x', match_pattern: 'a'.repeat(201), category_id: dining },
        [{ field: 'match_pattern', message: PATTERN_MESSAGES.tooLong }],
      ],
      [
        { name: 'x', match_text: 'a', amount_min: 10, amount_max: 1, category_id: dining },
        [{ field: 'amount_max', message: 'Amount to must not be less than amount from' }],
      ],
      [
        { name: 'x', category_id: dining },
        [
          {
            field: 'match_text',
            message: 'Give at least one condition: text, pattern, amount, account or type',
          },
        ],
      ],
      [
        { name: 'x', match_text: 'a', category_id: randomUUID() },
        [{ field: 'category_id', message: 'Category not found' }],
      ],
      [
        { name: 'x', match_text: 'a', account_id: randomUUID(), payee: 'P' },
        [{ field: 'account_id', message: 'Account not found' }],
      ],
    ];
    for (const [body, errors] of cases) {
      const answer = await t.as(alice).post('/api/rules', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.errors).toEqual(errors);
    }
    expect((await t.as(alice).get('/api/rules')).body.data.rules).toEqual([]);
  });

  it('previews with dry_run, then changes every match in one event; the book follows', async () => {
    const a = await record('UPI/SWIGGY/998877 dinner', 450);
    const b = await record('Swiggy instamart', 1200);
    const c = await record('Rent for January', 25000);
    const d = await record('swiggy refund', 450, 'C');
    const created = await t.as(alice).post('/api/rules', {
      name: 'Food delivery',
      match_pattern: '^(upi/)?swig+y',
      amount_max: 1000,
      transaction_type: 'D',
      category_id: dining,
      payee: 'Swiggy',
    });
    expect(created.status).toBe(201);
    const rule = created.body.data.rule;
    expect(rule).toMatchObject({ match_pattern: '^(upi/)?swig+y', amount_max: 1000, category_id: dining });

    const dry = await t.as(alice).post(`/api/rules/${rule.id}/apply`, { dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ dry_run: true, changed: 1 });
    expect(dry.body.data.changes[0]).toMatchObject({
      transaction_id: a,
      category_id: dining,
      payee: 'Swiggy',
      previous_category_id: null,
    });
    expect((await book(a)).category_id).toBeNull();

    // Widen it: any amount. The preview now has both debits, never the credit or the rent.
    const edited = await t.as(alice).put(`/api/rules/${rule.id}`, { ...rule, amount_max: null });
    expect(edited.status).toBe(200);
    const version = (await t.platform.eventStore.readStream(`rule-${rule.id}`)).version;
    const applied = await t.as(alice).post(`/api/rules/${rule.id}/apply`, {});
    expect(applied.status).toBe(200);
    expect(applied.body.data.changes.map((x: { transaction_id: string }) => x.transaction_id).sort()).toEqual(
      [a, b].sort(),
    );
    const stream = await t.platform.eventStore.readStream(`rule-${rule.id}`);
    expect(stream.version).toBe(version + 1);
    expect(stream.events.at(-1)?.type).toBe('RuleApplied');
    expect(await book(a)).toMatchObject({ category_id: dining, payee: 'Swiggy' });
    expect(await book(b)).toMatchObject({ category_id: dining, payee: 'Swiggy' });
    expect((await book(c)).category_id).toBeNull();
    expect((await book(d)).category_id).toBeNull();
    // Applying again changes nothing and records nothing.
    const again = await t.as(alice).post(`/api/rules/${rule.id}/apply`, {});
    expect(again.body.data.changed).toBe(0);
    expect((await t.platform.eventStore.readStream(`rule-${rule.id}`)).version).toBe(version + 1);

    // A merge after the rule moves what the rule set.
    const merged = await t.as(alice).post(`/api/categories/${dining}/merge`, { into_id: groceries });
    expect(merged.status).toBe(200);
    expect((await book(a)).category_id).toBe(groceries);
    const stale = await t.as(alice).post(`/api/rules/${rule.id}/apply`, { dry_run: true });
    expect(stale.status).toBe(422);

    const history = await t.as(alice).get(`/api/history?stream=rule:${rule.id}&limit=10`);
    expect(history.status).toBe(200);
    expect(JSON.stringify(history.body)).toContain(
      'Rule Food delivery applied to existing entries: 2 transactions changed',
    );
  });

  it("answers 404 for another user's rule", async () => {
    const [rule] = (await t.as(alice).get('/api/rules')).body.data.rules;
    expect((await t.as(bob).get(`/api/rules/${rule.id}`)).status).toBe(404);
    expect(
      (await t.as(bob).put(`/api/rules/${rule.id}`, { name: 'x', match_text: 'a', payee: 'b' })).status,
    ).toBe(404);
    expect((await t.as(bob).post(`/api/rules/${rule.id}/apply`, { dry_run: true })).status).toBe(404);
    expect((await t.as(bob).delete(`/api/rules/${rule.id}`)).status).toBe(404);
    expect((await t.as(bob).get('/api/rules/nope')).status).toBe(404);
    expect((await t.as(bob).get('/api/rules')).body.data.rules).toEqual([]);
  });

  it('gives the same rules, categories and transactions after a rebuild', async () => {
    await t.caughtUp(['categories', 'transactions', 'rules', 'history']);
    const tables = { rules: 'id', categories: 'id', transactions: 'id' };
    const before = await snapshotTables(t.platform.db, tables);
    await rebuildEverything(t);
    expect(await snapshotTables(t.platform.db, tables)).toEqual(before);
  });
});
