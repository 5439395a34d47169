import { transactionDecider, transactionStreamId, userDecider } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { now, registerUser, seededCatalog, transactionId, userId } from '../runner/testing/fixtures';
import { readModelSpec, recordedStream } from '../runner/testing/read-model-spec';
import { historyProjection } from './projector';

const ROWS = 'SELECT user_id, stream_id, stream_version, type, data FROM history_events ORDER BY position';

const events = () => [
  ...seededCatalog(),
  ...recordedStream(userDecider, `user-${userId}`, null).decide(registerUser),
  ...recordedStream(transactionDecider, transactionStreamId(transactionId), userId).decide({
    type: 'RecordTransaction',
    data: {
      transactionId,
      userId,
      notes: 'Rent',
      transactionType: 'D',
      transactionDate: '2026-01-05',
      amount: 2500000,
      now,
    },
  }),
];

describe('history read model in PostgreSQL', () => {
  const spec = readModelSpec(historyProjection);

  it("keeps each user's own events without their secrets, and not the seeded catalog", async () => {
    await spec.apply(events());
    expect(await spec.rows(ROWS)).toEqual([
      {
        user_id: userId,
        stream_id: `user-${userId}`,
        stream_version: 1,
        type: 'UserRegistered',
        data: { userId, firstName: 'Asha', lastName: 'Rao', email: 'asha@example.in', registeredAt: now },
      },
      {
        user_id: userId,
        stream_id: `user-${userId}`,
        stream_version: 2,
        type: 'EmailVerificationRequested',
        data: { userId, email: 'asha@example.in', expiresAt: '2026-01-11T10:00:00.000Z', requestedAt: now },
      },
      {
        user_id: userId,
        stream_id: transactionStreamId(transactionId),
        stream_version: 1,
        type: 'TransactionRecorded',
        data: expect.objectContaining({ transactionId, notes: 'Rent', amount: 2500000 }),
      },
    ]);
  });

  it('lands an event delivered twice once', async () => {
    const counts = await spec.landsOnce(events());
    expect(counts).toEqual([3]);
  });
});
