import { randomUUID } from 'node:crypto';
import { RECURRING_FIELDS } from '@kosh/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { checkRoundTrip, roundTripBodies } from '../../testing/round-trip';
import { createTestApp, type TestApp } from '../../testing/test-app';

/**
 * Every field declared in `RECURRING_FIELDS` goes in through the API, comes out of GET, survives
 * an edit, a rebuild of every read model and an as-of replay, and shows in History with its label.
 */
const clock = testClock('2026-01-10T04:00:00.000Z');
let t: TestApp;
const alice = randomUUID();

beforeAll(async () => {
  t = await createTestApp({ clock });
});

afterAll(async () => {
  await t?.close();
});

describe('every recurring entry field, end to end', () => {
  it('goes in, comes out, survives an edit, a rebuild and an as-of replay, and shows in History', async () => {
    const account = async (name: string) => {
      const opened = await t.as(alice).post('/api/accounts', {
        name,
        kind: 'savings',
        opening_balance: 0,
        opening_date: '2025-01-01',
      });
      expect(opened.status).toBe(201);
      return opened.body.data.account.id as string;
    };
    const tree = await t.as(alice).get('/api/categories');
    const idOf = (name: string) =>
      (tree.body.data.categories as { id: string; name: string }[]).find((c) => c.name === name)
        ?.id as string;
    // Start dates after today, so nothing is posted while the test edits.
    const bodies = roundTripBodies(RECURRING_FIELDS, {
      transactionType: ['D', 'C'],
      amount: [1500.25, 99999.5],
      notes: ['Round trip one', 'Round trip two'],
      payee: ['Landlord', 'Employer'],
      accountId: [await account('Salary account'), await account('Household account')],
      categoryId: [idOf('Rent'), idOf('Salary')],
      frequency: ['monthly', 'quarterly'],
      dayOfMonth: [5, 31],
      startDate: ['2026-02-01', '2026-03-01'],
      endDate: ['2027-01-31', '2028-02-29'],
    });
    await checkRoundTrip(t, clock, t.as(alice), RECURRING_FIELDS, bodies, {
      create: async (api, body) => {
        const created = await api.post('/api/recurring', body);
        expect(created.status).toBe(201);
        return created.body.data.recurring.id;
      },
      edit: (api, id, body) => api.put(`/api/recurring/${id}`, body),
      // GET of one entry has no as_of: the list of then holds it.
      read: async (api, id, asOf) => {
        if (!asOf) return (await api.get(`/api/recurring/${id}`)).body.data.recurring;
        const list = await api.get(`/api/recurring?as_of=${encodeURIComponent(asOf)}`);
        return list.body.data.recurring.find((row: { id: string }) => row.id === id);
      },
      history: (api, id) => api.get(`/api/history?stream=recurring:${id}&limit=100`),
      created: 'RecurringEntryCreated',
      edited: 'RecurringEntryUpdated',
    });
  });
});
