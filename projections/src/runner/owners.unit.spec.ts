import type { RecordedEvent } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { changedBy } from './owners';

const event = (streamId: string, userId: string | null): RecordedEvent =>
  ({
    type: 'X',
    data: {},
    id: streamId,
    streamId,
    streamVersion: 1,
    position: '1',
    metadata: { userId, correlationId: 'c', causationId: null, recordedAt: '', schemaVersion: 1 },
  }) as RecordedEvent;

describe('changedBy (whose change counts a batch moves)', () => {
  it("counts a user's events for that user alone, once each, sorted", () => {
    expect(changedBy([event('txn-1', 'u2'), event('loan-1', 'u1'), event('txn-2', 'u2')])).toEqual({
      shared: false,
      users: ['u1', 'u2'],
    });
  });

  it('counts the catalog, audit grants, e-mail reservations and ownerless events as shared', () => {
    for (const e of [
      event('bank-3', 'admin'),
      event('loantype-2', 'admin'),
      event('audit-g1', 'owner'),
      event('audit-g1-reads', 'auditor'),
      event('email-abc', 'u1'),
      event('bank-4', null),
    ]) {
      expect(changedBy([e]).shared, e.streamId).toBe(true);
    }
    expect(changedBy([event('txn-1', 'u1'), event('bank-3', 'admin')])).toEqual({
      shared: true,
      users: ['u1'],
    });
  });

  it('counts a user stream for the user it is named after, whoever recorded the event', () => {
    expect(changedBy([event('user-u9', 'admin')])).toEqual({ shared: false, users: ['admin', 'u9'] });
    expect(changedBy([event('erasure-u9', 'u9')])).toEqual({ shared: false, users: ['u9'] });
  });
});
