import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { waitUntil } from '../../testing/wait-until';

type Recurring = {
  id: string;
  next_occurrence: string | null;
  version: number;
  notes: string;
  category_id: string | null;
};
type Occurrence = { recurring_id: string; date: string; status: string; amount: number; notes: string };
type Transaction = {
  id: string;
  notes: string;
  transaction_date: string;
  amount: number;
  category_id: string | null;
  payee: string | null;
};

const rent = {
  transaction_type: 'D',
  amount: '25000',
  notes: 'Rent',
  payee: 'Landlord',
  frequency: 'monthly',
  day_of_month: 20,
  start_date: '2026-01-01',
};

/**
 * Recurring entries over the API (issue 31, item 4), on PostgreSQL and embedded: CRUD, 422s that
 * append nothing, another user's entry a 404, the occurrence posted once by the workers (the
 * reactor's job at creation, the repeated scan after), catch-up after downtime within 92 days,
 * skip and change one occurrence, History and the cash-flow forecast.
 */
describe.each(['postgres', 'embedded'] as const)('recurring entries (%s)', (mode) => {
  // 09:30 India time on 20 March 2026.
  const clock = testClock('2026-03-20T04:00:00.000Z');
  let t: TestApp;
  const alice = randomUUID();
  const bob = randomUUID();
  let entry: Recurring;

  const eventCount = async () =>
    Number(
      (await t.platform.db.query<{ n: string }>('SELECT count(*)::text AS n FROM events')).rows[0]?.n ?? 0,
    );
  const rentTransactions = async (): Promise<Transaction[]> => {
    const res = await t.as(alice).get('/api/transactions?limit=100');
    return (res.body.data.transactions as Transaction[]).filter((x) => x.notes.startsWith('Rent'));
  };
  /** One run of the repeated scan, as the queue's schedule runs it, and its effect on the book. */
  const scan = async () => {
    await t.platform.queue.enqueue('recurring:post', {}, { jobId: 'recurring:post' });
  };

  beforeAll(async () => {
    t = await createTestApp({ mode, clock });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates an entry and posts the occurrence due today once, not the ones before it was created', async () => {
    const categories = (await t.as(alice).get('/api/categories')).body.data.categories as {
      id: string;
      name: string;
    }[];
    const rentCategory = categories.find((c) => c.name === 'Rent');
    expect(rentCategory).toBeDefined();
    const bobs = (await t.as(bob).get('/api/categories')).body.data.categories as { id: string }[];
    const foreign = await t.as(alice).post('/api/recurring', { ...rent, category_id: bobs[0]?.id });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual([{ field: 'category_id', message: 'Category not found' }]);
    const res = await t.as(alice).post('/api/recurring', { ...rent, category_id: rentCategory?.id });
    expect(res.status).toBe(201);
    entry = res.body.data.recurring;
    expect(entry).toMatchObject({ amount: 25000, frequency: 'monthly', day_of_month: 20, payee: 'Landlord' });
    await waitUntil(async () => (await rentTransactions()).length === 1, { timeout: 20_000 });
    await scan();
    await scan();
    await t.caughtUp(['transactions', 'recurring']);
    const posted = await rentTransactions();
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({
      transaction_date: '2026-03-20',
      amount: 25000,
      category_id: entry.category_id,
      payee: 'Landlord',
    });
    await t.caughtUp(['history']);
    const posting = await t.as(alice).get(`/api/history?stream=transaction:${posted[0]?.id}`);
    expect(posting.body.data.entries.map((e: { summary: string }) => e.summary)).toEqual([
      'Debit of ₹25,000.00 recorded by a recurring entry (2026-03-20)',
    ]);
    await waitUntil(async () => {
      const one = await t.as(alice).get(`/api/recurring/${entry.id}`);
      return one.body.data.recurring.next_occurrence === '2026-04-20';
    });
  });

  it('refuses bad input with per-field messages and appends nothing', async () => {
    const before = await eventCount();
    const res = await t.as(alice).post('/api/recurring', {
      ...rent,
      amount: '-5',
      frequency: 'weekly',
      day_of_month: 32,
      start_date: '2026-02-30',
      notes: '',
      account_id: 'nope',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      ['account_id', 'amount', 'day_of_month', 'frequency', 'notes', 'start_date'].sort(),
    );
    const end = await t.as(alice).post('/api/recurring', { ...rent, end_date: '2025-12-31' });
    expect(end.status).toBe(422);
    expect(end.body.errors).toEqual([
      { field: 'end_date', message: 'End date must be on or after the start date' },
    ]);
    const skip = await t.as(alice).post(`/api/recurring/${entry.id}/occurrences/2026-04-21/skip`);
    expect(skip.status).toBe(422);
    expect(await eventCount()).toBe(before);
  });

  it("answers 404 for another user's entry, whatever the request", async () => {
    const asBob = t.as(bob);
    const before = await eventCount();
    expect((await asBob.get(`/api/recurring/${entry.id}`)).status).toBe(404);
    expect((await asBob.put(`/api/recurring/${entry.id}`, rent)).status).toBe(404);
    expect((await asBob.delete(`/api/recurring/${entry.id}`)).status).toBe(404);
    expect((await asBob.post(`/api/recurring/${entry.id}/occurrences/2026-04-20/skip`)).status).toBe(404);
    expect(
      (await asBob.put(`/api/recurring/${entry.id}/occurrences/2026-04-20`, { amount: 1, notes: 'x' }))
        .status,
    ).toBe(404);
    expect((await asBob.get('/api/recurring')).body.data.recurring).toEqual([]);
    expect((await asBob.get('/api/recurring/not-a-uuid')).status).toBe(404);
    expect(await eventCount()).toBe(before);
  });

  it('skips one occurrence and changes another; the upcoming list says so', async () => {
    const skip = await t.as(alice).post(`/api/recurring/${entry.id}/occurrences/2026-05-20/skip`);
    expect(skip.status).toBe(200);
    const change = await t.as(alice).put(`/api/recurring/${entry.id}/occurrences/2026-06-20`, {
      amount: '26000.50',
      notes: 'Rent (revised)',
    });
    expect(change.status).toBe(200);
    const upcoming = await t.as(alice).get('/api/recurring/upcoming?days=100');
    const mine = (upcoming.body.data.occurrences as Occurrence[]).filter((o) => o.recurring_id === entry.id);
    expect(mine.map((o) => [o.date, o.status, o.amount])).toEqual([
      ['2026-03-20', 'posted', 25000],
      ['2026-04-20', 'due', 25000],
      ['2026-05-20', 'skipped', 25000],
      ['2026-06-20', 'changed', 26000.5],
    ]);
    expect((await t.as(alice).get('/api/recurring/upcoming?days=0')).status).toBe(422);
  });

  it('forecasts the cash flow of the next three months, as JSON and CSV, and as of an earlier day', async () => {
    const res = await t.as(alice).get('/api/reports/cash-flow');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ from: '2026-03-20', to: '2026-05-31' });
    // March's is posted, May's skipped: April's alone is still to come.
    expect(res.body.data.months).toEqual([
      { month: '2026-03', inflow: 0, outflow: 0, net: 0, cumulative_net: 0 },
      { month: '2026-04', inflow: 0, outflow: 25000, net: -25000, cumulative_net: -25000 },
      { month: '2026-05', inflow: 0, outflow: 0, net: 0, cumulative_net: -25000 },
    ]);
    const csv = await t.as(alice).get('/api/reports/cash-flow?format=csv');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.text).toContain('2026-04-20,Recurring,Rent (Landlord),,25000.00');
    const bad = await t.as(alice).get('/api/reports/cash-flow?format=xml');
    expect(bad.status).toBe(422);
    const asOf = await t.as(alice).get('/api/reports/cash-flow?as_of=2026-03-19');
    expect(asOf.status).toBe(200);
    // The day before, the entry did not exist yet.
    expect(asOf.body.data.items).toEqual([]);
  });

  it('posts what came due while no worker ran, back to 92 days, on the next run', async () => {
    // On 25 July, no run since March: 20 April is more than 92 days back and 20 May skipped, so
    // neither is posted; 20 June (changed) and 20 July are, each once.
    clock.set('2026-07-25T04:00:00.000Z');
    await scan();
    await waitUntil(async () => (await rentTransactions()).length === 3, { timeout: 20_000 });
    clock.set('2026-08-20T04:00:00.000Z');
    await scan();
    await scan();
    await waitUntil(async () => (await rentTransactions()).length === 4, { timeout: 20_000 });
    const dates = (await rentTransactions()).map((x) => [x.transaction_date, x.amount, x.notes]).sort();
    expect(dates).toEqual([
      ['2026-03-20', 25000, 'Rent'],
      ['2026-06-20', 26000.5, 'Rent (revised)'],
      ['2026-07-20', 25000, 'Rent'],
      ['2026-08-20', 25000, 'Rent'],
    ]);
  });

  it('edits and deletes the entry; History tells each event', async () => {
    const one = await t.as(alice).get(`/api/recurring/${entry.id}`);
    const edit = await t.as(alice).put(
      `/api/recurring/${entry.id}`,
      { ...rent, category_id: entry.category_id, amount: '27000' },
      {
        headers: { 'if-match': one.headers.etag as string },
      },
    );
    expect(edit.status).toBe(200);
    expect(edit.body.data.recurring.amount).toBe(27000);
    const removed = await t.as(alice).delete(`/api/recurring/${entry.id}`);
    expect(removed.status).toBe(200);
    expect((await t.as(alice).get(`/api/recurring/${entry.id}`)).status).toBe(404);
    await t.caughtUp(['history']);
    const history = await t.as(alice).get(`/api/history?stream=recurring:${entry.id}`);
    expect(history.status).toBe(200);
    const summaries = history.body.data.entries.map((e: { summary: string }) => e.summary);
    expect(summaries).toEqual(
      expect.arrayContaining([
        'Recurring debit Rent of ₹25,000.00 created',
        'Occurrence of 2026-05-20 skipped',
        'Occurrence of 2026-06-20 changed to ₹26,000.50',
        'Recurring entry edited (Amount)',
        'Recurring entry Rent deleted',
      ]),
    );
  });

  it('rebuilds the recurring read model to the same rows', async () => {
    const digest = async () => {
      const out: string[] = [];
      for (const table of ['recurring_entries', 'recurring_postings']) {
        const { rows } = await t.platform.db.query<{ d: string }>(
          `SELECT count(*)::text || ':' || md5(coalesce(string_agg(x::text, ',' ORDER BY x::text), '')) AS d FROM "${table}" x`,
        );
        out.push(`${table} ${rows[0]?.d}`);
      }
      return out;
    };
    await t.caughtUp(['recurring']);
    const live = await digest();
    await t.platform.runner.rebuild('recurring');
    expect(await digest()).toEqual(live);
    expect(live[1]).toMatch(/^recurring_postings 4:/);
  });
});
