import { randomUUID } from 'node:crypto';
import { PROFILE_FIELDS } from '@kosh/domain';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { userFixture } from '../../testing/fixtures';
import { checkRoundTrip, roundTripBodies } from '../../testing/round-trip';
import { createTestApp, type TestApp } from '../../testing/test-app';

/**
 * Issue 29 item 2 for the profile: every field declared in `PROFILE_FIELDS` is edited through
 * the API, comes out of GET, survives a rebuild of every read model, and shows in History with
 * its label. The account exists from sign-up (its first values are the fixture's), and the
 * users read model has no as-of reads: the replay checked is that of the rebuild.
 */
const bodies = roundTripBodies(PROFILE_FIELDS, {
  firstName: ['Test', 'Asha'],
  lastName: ['User', 'Rao'],
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

describe('every profile field, end to end', () => {
  it('is edited, comes out, survives the same edit again and a rebuild, and shows in History', async () => {
    const { email } = userFixture(alice);
    await checkRoundTrip(t, clock, t.as(alice), PROFILE_FIELDS, bodies, {
      create: null,
      // The address stays: a new one is applied only once its link is opened.
      edit: (api, _id, body) => api.put('/api/auth/profile', { ...body, email }),
      read: async (api) => (await api.get('/api/auth/profile')).body.data.user,
      history: (api) => api.get('/api/history?stream=profile&limit=100'),
      created: 'UserRegistered',
      edited: 'ProfileUpdated',
    });
  });
});
