import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * The as-of ledger of one month replays only the transactions ever dated in that month
 * (history/queries.ts, userEventsOfMonthUpTo). A transaction moving into and out of a month by
 * edits, and one deleted, must still be in or out of it exactly as they were at each instant.
 */

let now = Date.parse('2025-06-01T04:00:00.000Z');
const clock = () => new Date(now);
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
});

afterAll(async () => {
  await t?.close();
});

it('answers each month as of each step, across edits that move a transaction between months', async () => {
  const user = randomUUID();
  const entry = (date: string, amount: number) => ({
    notes: 'Moving rent',
    transaction_type: 'D',
    transaction_date: date,
    amount,
  });
  const months = [
    '/api/ledger?month=2&year=2025',
    '/api/ledger?month=3&year=2025',
    '/api/ledger?month=4&year=2025',
  ];
  const steps: { at: string; answers: Map<string, unknown> }[] = [];
  const step = async (command: () => Promise<{ status: number }>) => {
    now += 60_000;
    expect((await command()).status).toBeLessThan(300);
    const answers = new Map<string, unknown>();
    for (const url of months) answers.set(url, (await t.as(user).get(url)).body);
    steps.push({ at: new Date(now).toISOString(), answers });
  };

  const moving = await t.as(user).post('/api/transactions', entry('2025-02-10', 500));
  const id = moving.body.data.transaction.id as string;
  steps.push({ at: new Date(now).toISOString(), answers: new Map() });
  await step(() => t.as(user).put(`/api/transactions/${id}`, entry('2025-03-12', 500)));
  await step(() => t.as(user).put(`/api/transactions/${id}`, { ...entry('2025-03-12', 750) }));
  await step(() => t.as(user).put(`/api/transactions/${id}`, entry('2025-04-01', 750)));
  let gone = '';
  await step(async () => {
    const answer = await t.as(user).post('/api/transactions', entry('2025-03-20', 90));
    gone = answer.body.data.transaction.id;
    return answer;
  });
  await step(() => t.as(user).delete(`/api/transactions/${gone}`));
  expect(await t.caughtUp(['history'])).toBe(true);

  // March held the moving entry from the first edit to the third, at ₹500 then ₹750.
  const march = (i: number) =>
    steps[i]?.answers.get(months[1] as string) as { data: { debit: { total: number } } };
  expect(march(1).data.debit.total).toBe(500);
  expect(march(2).data.debit.total).toBe(750);
  expect(march(3).data.debit.total).toBe(0);
  expect(march(4).data.debit.total).toBe(90);
  expect(march(5).data.debit.total).toBe(0);
  for (const { at, answers } of steps.slice(1)) {
    for (const [url, live] of answers) {
      const asOf = (await t.as(user).get(`${url}&as_of=${encodeURIComponent(at)}`)).body;
      expect({ url, at, asOf }).toEqual({ url, at, asOf: live });
    }
  }
});
