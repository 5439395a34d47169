import { describe, expect, it } from 'vitest';
import {
  evolveTransactionRow,
  foldBatch,
  type TransactionRow,
  type VersionedTransactionEvent,
} from './projector';

const id = '3f1c2b8e-1d2a-4c1b-9a51-7a0c6d1e2f30';
const userId = 'user-a';
const fields = {
  notes: 'Salary',
  transactionType: 'C' as const,
  transactionDate: '2025-03-31',
  amount: 100_00,
};
const recorded: VersionedTransactionEvent = {
  type: 'TransactionRecorded',
  data: { transactionId: id, userId, ...fields, recordedAt: '2025-03-31T10:00:00.000Z' },
  streamVersion: 1,
};
const madeDebit: VersionedTransactionEvent = {
  type: 'TransactionUpdated',
  data: {
    transactionId: id,
    userId,
    changes: { transactionType: 'D', amount: 40_00 },
    previous: fields,
    updatedAt: '2025-04-01T09:00:00.000Z',
  },
  streamVersion: 2,
};
const deleted: VersionedTransactionEvent = {
  type: 'TransactionDeleted',
  data: {
    transactionId: id,
    userId,
    previous: { ...fields, transactionType: 'D', amount: 40_00 },
    deletedAt: 'x',
  },
  streamVersion: 3,
};

describe('transaction row fold', () => {
  it('records, applies changes and removes on delete', () => {
    const row = evolveTransactionRow(null, recorded);
    expect(row).toEqual({
      id,
      userId,
      ...fields,
      accountId: null,
      categoryId: null,
      payee: null,
      rawNarration: null,
      importId: null,
      createdAt: '2025-03-31T10:00:00.000Z',
      updatedAt: '2025-03-31T10:00:00.000Z',
      version: 1,
    });
    const updated = evolveTransactionRow(row, madeDebit);
    expect(updated).toMatchObject({ transactionType: 'D', amount: 40_00, notes: 'Salary', version: 2 });
    expect(updated?.createdAt).toBe('2025-03-31T10:00:00.000Z');
    expect(evolveTransactionRow(updated, deleted)).toBeNull();
  });

  it('ignores an event delivered twice', () => {
    const updated = [recorded, madeDebit].reduce(evolveTransactionRow, null as TransactionRow | null);
    expect(evolveTransactionRow(updated, madeDebit)).toBe(updated);
    expect(evolveTransactionRow(updated, recorded)).toBe(updated);
  });
});

describe('stats of a batch', () => {
  it('moves the amount from credits to debits when the type changes', () => {
    const first = foldBatch(new Map(), [recorded]);
    expect(first.statsDelta.get(userId)).toEqual({
      totalTransactions: 1,
      creditCount: 1,
      debitCount: 0,
      creditAmount: 100_00,
      debitAmount: 0,
    });
    const row = first.changed.get(id) as TransactionRow;
    const second = foldBatch(new Map([[id, row]]), [madeDebit]);
    expect(second.statsDelta.get(userId)).toEqual({
      totalTransactions: 0,
      creditCount: -1,
      debitCount: 1,
      creditAmount: -100_00,
      debitAmount: 40_00,
    });
  });

  it('nets a whole life in one batch to nothing, and a redelivered batch changes nothing', () => {
    const whole = foldBatch(new Map(), [recorded, madeDebit, deleted]);
    expect(whole.changed.size).toBe(0);
    expect(whole.statsDelta.size).toBe(0);
    const row = [recorded, madeDebit].reduce(evolveTransactionRow, null) as TransactionRow;
    const again = foldBatch(new Map([[id, row]]), [recorded, madeDebit]);
    expect(again.changed.size).toBe(0);
    expect(again.statsDelta.size).toBe(0);
  });
});
