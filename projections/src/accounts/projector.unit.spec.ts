import type { TransactionEvent } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { evolveAccountTransaction } from './projector';

const transactionId = '3f1c2b8e-1d2a-4c1b-9a51-7a0c6d1e2f30';
const userId = 'u-1';
const accountId = '4a1c2b8e-1d2a-4c1b-9a51-7a0c6d1e2f31';
const fields = {
  notes: 'Rent',
  transactionType: 'D' as const,
  transactionDate: '2025-03-03',
  amount: 1200_00,
};
const at = (event: TransactionEvent, streamVersion: number) => ({ ...event, streamVersion });

const recorded = at(
  { type: 'TransactionRecorded', data: { transactionId, userId, ...fields, accountId, recordedAt: 'T1' } },
  1,
);
const movedOut = at(
  {
    type: 'TransactionUpdated',
    data: {
      transactionId,
      userId,
      changes: { accountId: null },
      previous: { ...fields, accountId },
      updatedAt: 'T2',
    },
  },
  2,
);

describe('a transaction in an account register', () => {
  it('is a signed entry while in an account, and a tombstone after it leaves', () => {
    const row = evolveAccountTransaction(null, recorded);
    expect(row).toEqual({
      id: transactionId,
      userId,
      accountId,
      entryDate: '2025-03-03',
      amount: -1200_00,
      notes: 'Rent',
      createdAt: 'T1',
      version: 1,
    });
    const out = evolveAccountTransaction(row, movedOut);
    expect(out).toMatchObject({ accountId: null, version: 2 });
    // The first event delivered again after the move changes nothing.
    expect(evolveAccountTransaction(out, recorded)).toBe(out);
  });

  it('has no row for a transaction never in an account', () => {
    const none = at(
      { type: 'TransactionRecorded', data: { transactionId, userId, ...fields, recordedAt: 'T1' } },
      1,
    );
    expect(evolveAccountTransaction(null, none)).toBeNull();
  });
});
