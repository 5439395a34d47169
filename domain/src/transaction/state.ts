import { assertNever } from '../shared/messages';
import type { TransactionFields } from '../validation/transaction';
import type { TransactionEvent } from './events';

export type TransactionState =
  | { status: 'none' }
  | {
      status: 'recorded';
      transactionId: string;
      userId: string;
      fields: TransactionFields;
      recordedAt: string;
    }
  | { status: 'deleted'; transactionId: string; userId: string };

export const initialState = (): TransactionState => ({ status: 'none' });

export function evolve(state: TransactionState, event: TransactionEvent): TransactionState {
  const { type, data } = event;
  switch (type) {
    case 'TransactionRecorded': {
      const {
        transactionId,
        userId,
        recordedAt,
        notes,
        transactionType,
        transactionDate,
        amount,
        accountId,
      } = data;
      return {
        status: 'recorded',
        transactionId,
        userId,
        recordedAt,
        fields: { notes, transactionType, transactionDate, amount, ...(accountId && { accountId }) },
      };
    }
    case 'TransactionUpdated':
      return state.status === 'recorded' ? { ...state, fields: { ...state.fields, ...data.changes } } : state;
    case 'TransactionDeleted':
      return { status: 'deleted', transactionId: data.transactionId, userId: data.userId };
    default:
      return assertNever(type);
  }
}
