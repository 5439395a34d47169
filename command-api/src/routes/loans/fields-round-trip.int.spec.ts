import { randomUUID } from 'node:crypto';
import { LOAN_FIELDS } from '@kosh/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { checkRoundTrip, roundTripBodies } from '../../testing/round-trip';
import { createTestApp, type TestApp } from '../../testing/test-app';

/**
 * Issue 29 item 2: every field declared in `LOAN_FIELDS` goes in through the API, comes out of
 * GET, survives an edit, a rebuild of every read model and an as-of replay, and shows in History
 * with its label. A new field is covered by iterating the table; the loan's own rules need the
 * pairs below (an edit changes every field).
 */
const bodies = roundTripBodies(LOAN_FIELDS, {
  bankId: [1, 2],
  loanTypeId: [1, 2],
  accountNumber: ['RT0000001', 'RT0000002'],
  shortDetail: ['Round trip one', 'Round trip two'],
  principalAmount: [2500000, 2600000.5],
  processingFee: [10000, 12000],
  interestRate: [8.5, 0.75],
  isInterestRateYearly: [1, 0],
  duration: [20, 180],
  isDurationYearly: [1, 0],
  startDate: ['2025-03-15', '2025-04-10'],
  endDate: ['2045-03-15', '2040-04-10'],
  hasGst: [1, 0],
  gstPercentage: [18, 0],
  emisAutoDebited: [0, 1],
  processingFeeGst: [0, 1],
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

describe('every loan field, end to end', () => {
  it('goes in, comes out, survives an edit, a rebuild and an as-of replay, and shows in History', async () => {
    await checkRoundTrip(t, clock, t.as(alice), LOAN_FIELDS, bodies, {
      create: async (api, body) => {
        const created = await api.post('/api/loans', body);
        expect(created.status).toBe(201);
        return created.body.data.loan.id;
      },
      edit: (api, id, body) => api.put(`/api/loans/${id}`, body),
      read: async (api, id, asOf) =>
        (await api.get(`/api/loans/${id}${asOf ? `?as_of=${encodeURIComponent(asOf)}` : ''}`)).body.data.loan,
      history: (api, id) => api.get(`/api/loans/${id}/history?limit=100`),
      created: 'LoanCreated',
      edited: 'LoanUpdated',
    });
  });
});
