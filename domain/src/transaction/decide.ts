import type { Decider } from '../shared/decider';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { changedKeys, pickFields } from '../shared/field-table';
import { assertNever, type Command } from '../shared/messages';
import { type TransactionFields, validateTransactionFields } from '../validation/transaction';
import type { TransactionEvent } from './events';
import { TRANSACTION_FIELDS } from './fields';
import { evolve, initialState, type TransactionState } from './state';

/** `now` (ISO-8601 UTC) and the new id come in with the command: the domain has no clock. */
export type RecordTransaction = Command<
  'RecordTransaction',
  TransactionFields & { transactionId: string; userId: string; now: string }
>;
export type UpdateTransaction = Command<
  'UpdateTransaction',
  TransactionFields & { transactionId: string; userId: string; now: string }
>;
export type DeleteTransaction = Command<
  'DeleteTransaction',
  { transactionId: string; userId: string; now: string }
>;

export type TransactionCommand = RecordTransaction | UpdateTransaction | DeleteTransaction;

export const TRANSACTION_NOT_FOUND = 'Transaction not found';

const fieldsOf = (data: TransactionFields): TransactionFields => pickFields(TRANSACTION_FIELDS, data);

function validated(data: TransactionFields): TransactionFields {
  const fields = fieldsOf(data);
  const errors = validateTransactionFields(fields);
  if (errors.length > 0) throw new ValidationError(errors);
  const payee = typeof fields.payee === 'string' ? fields.payee.trim() || null : fields.payee;
  return { ...fields, notes: fields.notes.trim(), ...(payee !== undefined && { payee }) };
}

/** The owner's live transaction; anyone else's, a deleted one or a missing one is "not found". */
function owned(state: TransactionState, userId: string) {
  if (state.status !== 'recorded' || state.userId !== userId) throw new NotFoundError(TRANSACTION_NOT_FOUND);
  return state;
}

export function decide(command: TransactionCommand, state: TransactionState): TransactionEvent[] {
  const { type, data } = command;
  switch (type) {
    case 'RecordTransaction': {
      if (state.status !== 'none') throw new ConflictError('Transaction already exists');
      // Optional fields are stored only when set: an event without one reads as null (withAbsent).
      const { accountId, categoryId, payee, ...rest } = validated(data);
      const fields = {
        ...rest,
        ...(accountId && { accountId }),
        ...(categoryId && { categoryId }),
        ...(payee && { payee }),
      };
      return [
        {
          type: 'TransactionRecorded',
          data: { transactionId: data.transactionId, userId: data.userId, ...fields, recordedAt: data.now },
        },
      ];
    }
    case 'UpdateTransaction': {
      const current = owned(state, data.userId);
      const next = validated(data);
      // Every declared field is compared: an edit that changes none records nothing.
      // An edit that does not name the account (category, payee) keeps it; null takes it out.
      const after = {
        ...next,
        accountId: next.accountId === undefined ? (current.fields.accountId ?? null) : next.accountId,
        categoryId: next.categoryId === undefined ? (current.fields.categoryId ?? null) : next.categoryId,
        payee: next.payee === undefined ? (current.fields.payee ?? null) : next.payee,
      };
      const changed = changedKeys(TRANSACTION_FIELDS, current.fields, after);
      if (changed.length === 0) return [];
      const changes: Partial<TransactionFields> = Object.fromEntries(changed.map((key) => [key, after[key]]));
      return [
        {
          type: 'TransactionUpdated',
          data: {
            transactionId: data.transactionId,
            userId: data.userId,
            changes,
            previous: current.fields,
            updatedAt: data.now,
          },
        },
      ];
    }
    case 'DeleteTransaction': {
      const current = owned(state, data.userId);
      return [
        {
          type: 'TransactionDeleted',
          data: {
            transactionId: data.transactionId,
            userId: data.userId,
            previous: current.fields,
            deletedAt: data.now,
          },
        },
      ];
    }
    default:
      return assertNever(type);
  }
}

export const transactionDecider: Decider<TransactionState, TransactionCommand, TransactionEvent> = {
  initialState,
  evolve,
  decide,
};
