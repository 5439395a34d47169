import { randomUUID } from 'node:crypto';
import { ACCOUNT_FIELDS } from '@kosh/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { checkRoundTrip, labelsOf, roundTripBodies } from '../../testing/round-trip';
import { createTestApp, type TestApp } from '../../testing/test-app';

/**
 * Every field declared in `ACCOUNT_FIELDS` goes in through the API, comes out of GET, survives an
 * edit, a rebuild of every read model and an as-of replay, and shows in History with its label.
 * A catalog bank and a typed bank name exclude each other: the account is created with the
 * catalog's bank 1 and edited to a typed name, so the edit changes every field.
 */
const bodies = roundTripBodies(ACCOUNT_FIELDS, {
  bankId: [1, null],
  bankName: [null, 'Round Trip Bank'],
  lastFour: ['1234', '5678'],
});

const clock = testClock('2026-01-10T04:00:00.000Z');
let t: TestApp;
const alice = randomUUID();

beforeAll(async () => {
  t = await createTestApp({ clock });
});

afterAll(async () => {
  await t?.close();
});

describe('every account field, end to end', () => {
  it('goes in, comes out, survives an edit, a rebuild and an as-of replay, and shows in History', async () => {
    await checkRoundTrip(t, clock, t.as(alice), ACCOUNT_FIELDS, bodies, {
      create: async (api, body) => {
        const created = await api.post('/api/accounts', body);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        return created.body.data.account.id;
      },
      edit: (api, id, body) => api.put(`/api/accounts/${id}`, body),
      read: async (api, id, asOf) => {
        const answer = await api.get(
          `/api/accounts/${id}${asOf ? `?as_of=${encodeURIComponent(asOf)}` : ''}`,
        );
        const account = answer.body.data.account;
        // A catalog bank's name is answered in bank_name; the field itself holds no typed name then.
        return account.bank_id === null ? account : { ...account, bank_name: null };
      },
      history: (api, id) => api.get(`/api/history?stream=account:${id}`),
      created: 'AccountOpened',
      edited: 'AccountUpdated',
      createdLabels: labelsOf(ACCOUNT_FIELDS).filter((label) => label !== 'Bank Name'),
    });
  });
});
