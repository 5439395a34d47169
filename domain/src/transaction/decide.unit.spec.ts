import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { DeciderSpecification } from '../testing/decider-specification';
import type { TransactionFields } from '../validation/transaction';
import { transactionDecider } from './decide';
import type { TransactionEvent } from './events';

const given = DeciderSpecification.for(transactionDecider);

const transactionId = '3f1c2b8e-1d2a-4c1b-9a51-7a0c6d1e2f30';
const userId = 'b7e1a4c2-5f6d-4e3a-8b9c-0d1e2f3a4b5c';
const fields: TransactionFields = {
  notes: 'Salary',
  transactionType: 'C',
  transactionDate: '2025-03-31',
  amount: 8_500_000,
};
/** A transaction recorded before accounts existed, as the decider reads it back: in no account. */
const asStored: TransactionFields = { ...fields, accountId: null, categoryId: null, payee: null };
const recorded: TransactionEvent = {
  type: 'TransactionRecorded',
  data: { transactionId, userId, ...fields, recordedAt: '2025-03-31T10:00:00.000Z' },
};

describe('RecordTransaction', () => {
  it('records a new transaction with trimmed notes', () => {
    given([])
      .when({
        type: 'RecordTransaction',
        data: { transactionId, userId, ...fields, notes: '  Salary ', now: '2025-03-31T10:00:00.000Z' },
      })
      .then([recorded]);
  });

  it('rejects a second record with the same id', () => {
    given([recorded])
      .when({
        type: 'RecordTransaction',
        data: { transactionId, userId, ...fields, now: '2025-04-01T00:00:00Z' },
      })
      .thenThrows(ConflictError);
  });

  it('rejects invalid fields with per-field messages', () => {
    given([])
      .when({
        type: 'RecordTransaction',
        data: {
          transactionId,
          userId,
          notes: '   ',
          transactionType: 'X' as 'C',
          transactionDate: '2025-02-30',
          amount: 0,
          now: '2025-04-01T00:00:00Z',
        },
      })
      .thenThrows(ValidationError, (error) =>
        expect(error.errors).toEqual([
          { field: 'notes', message: 'Notes are required' },
          { field: 'transaction_type', message: 'Invalid transaction type' },
          { field: 'transaction_date', message: 'Invalid transaction date' },
          { field: 'amount', message: 'Amount must be greater than 0' },
        ]),
      );
  });
});

describe('UpdateTransaction', () => {
  const update = (changes: Partial<typeof fields>, who = userId) => ({
    type: 'UpdateTransaction' as const,
    data: { transactionId, userId: who, ...fields, ...changes, now: '2025-04-02T08:00:00.000Z' },
  });

  it('records only what changed, with the values before', () => {
    given([recorded])
      .when(update({ transactionType: 'D', amount: 100 }))
      .then([
        {
          type: 'TransactionUpdated',
          data: {
            transactionId,
            userId,
            changes: { transactionType: 'D', amount: 100 },
            previous: asStored,
            updatedAt: '2025-04-02T08:00:00.000Z',
          },
        },
      ]);
  });

  it('produces nothing when nothing changed', () => {
    given([recorded]).when(update({})).then([]);
  });

  it('folds earlier updates into the values before', () => {
    const firstUpdate: TransactionEvent = {
      type: 'TransactionUpdated',
      data: {
        transactionId,
        userId,
        changes: { amount: 5 },
        previous: fields,
        updatedAt: '2025-04-01T00:00:00Z',
      },
    };
    given([recorded, firstUpdate])
      .when(update({ notes: 'Bonus', amount: 5 }))
      .then([
        {
          type: 'TransactionUpdated',
          data: {
            transactionId,
            userId,
            changes: { notes: 'Bonus' },
            previous: { ...asStored, amount: 5 },
            updatedAt: '2025-04-02T08:00:00.000Z',
          },
        },
      ]);
  });

  it("treats another user's, a deleted or a missing transaction as not found", () => {
    given([recorded]).when(update({}, 'someone-else')).thenThrows(NotFoundError);
    given([]).when(update({})).thenThrows(NotFoundError);
    const deleted: TransactionEvent = {
      type: 'TransactionDeleted',
      data: { transactionId, userId, previous: fields, deletedAt: '2025-04-01T00:00:00Z' },
    };
    given([recorded, deleted]).when(update({})).thenThrows(NotFoundError);
  });

  it('validates the new values', () => {
    given([recorded])
      .when(update({ notes: 'x'.repeat(256) }))
      .thenThrows(ValidationError, (error) =>
        expect(error.errors).toEqual([{ field: 'notes', message: 'Notes must not exceed 255 characters' }]),
      );
  });
});

describe('DeleteTransaction', () => {
  const remove = (who = userId) => ({
    type: 'DeleteTransaction' as const,
    data: { transactionId, userId: who, now: '2025-04-03T00:00:00.000Z' },
  });

  it('deletes, keeping the values it had', () => {
    given([recorded])
      .when(remove())
      .then([
        {
          type: 'TransactionDeleted',
          data: { transactionId, userId, previous: asStored, deletedAt: '2025-04-03T00:00:00.000Z' },
        },
      ]);
  });

  it("refuses another user's or an already deleted transaction", () => {
    given([recorded]).when(remove('intruder')).thenThrows(NotFoundError);
    given([
      recorded,
      {
        type: 'TransactionDeleted',
        data: { transactionId, userId, previous: fields, deletedAt: '2025-04-03T00:00:00Z' },
      },
    ])
      .when(remove())
      .thenThrows(NotFoundError);
  });
});
