import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { rebuildEverything } from '../../testing/round-trip';
import { createTestApp, type TestApp } from '../../testing/test-app';

/**
 * Issue 31: a transaction's own History holds the events of other streams that moved it to
 * another category (a rule applied to existing entries, a category merged), and only those that
 * moved it; a rebuild keeps them.
 */
describe("a transaction's History with its category moves", () => {
  let t: TestApp;
  const alice = randomUUID();
  const ids = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp({ clock: testClock('2026-02-20T04:00:00.000Z', { step: 1000 }) });
    for (const c of (await t.as(alice).get('/api/categories')).body.data.categories as {
      id: string;
      name: string;
    }[])
      ids.set(c.name, c.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  const record = async (notes: string) => {
    const res = await t.as(alice).post('/api/transactions', {
      notes,
      transaction_type: 'D',
      transaction_date: '2026-02-03',
      amount: 450,
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.transaction.id as string;
  };
  const typesIn = async (id: string) => {
    const res = await t.as(alice).get(`/api/transactions/${id}/history`);
    expect(res.status, res.text).toBe(200);
    return (res.body.data.entries as { type: string; stream: string }[]).map((e) => e.type);
  };

  it('lists the rule applied and the merge that moved it, newest first, and keeps them after a rebuild', async () => {
    const swiggy = await record('Swiggy order');
    const petrol = await record('Petrol');
    const rule = await t.as(alice).post('/api/rules', {
      name: 'Swiggy',
      match_pattern: 'swiggy',
      transaction_type: 'D',
      category_id: ids.get('Dining out'),
    });
    expect(rule.status, rule.text).toBe(201);
    const applied = await t.as(alice).post(`/api/rules/${rule.body.data.rule.id}/apply`, {});
    expect(applied.body.data.changed).toBe(1);
    const merged = await t
      .as(alice)
      .post(`/api/categories/${ids.get('Dining out')}/merge`, { into_id: ids.get('Groceries') });
    expect(merged.status, merged.text).toBe(200);
    await t.caughtUp(['history']);

    expect(await typesIn(swiggy)).toEqual(['CategoryMerged', 'RuleApplied', 'TransactionRecorded']);
    expect(await typesIn(petrol)).toEqual(['TransactionRecorded']);
    const entries = (await t.as(alice).get(`/api/transactions/${swiggy}/history`)).body.data.entries;
    expect(entries[1].summary).toContain('Rule Swiggy applied to existing entries');

    await rebuildEverything(t);
    expect((await t.as(alice).get(`/api/transactions/${swiggy}/history`)).body.data.entries).toEqual(entries);
  });
});
