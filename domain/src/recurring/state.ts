import { pickFields, withAbsent } from '../shared/field-table';
import { assertNever } from '../shared/messages';
import type { RecurringEvent } from './events';
import { RECURRING_FIELDS, type RecurringDetails } from './fields';

/** What the user said about one occurrence: not posted, or posted with other values. */
export type OccurrenceException =
  | Readonly<{ kind: 'skipped' }>
  | Readonly<{ kind: 'changed'; amount: number; notes: string }>;

export type RecurringState =
  | { status: 'none' }
  | {
      status: 'active' | 'deleted';
      recurringId: string;
      userId: string;
      details: RecurringDetails;
      /** By occurrence date. */
      exceptions: Readonly<Record<string, OccurrenceException>>;
      createdAt: string;
    };

export const initialRecurringState = (): RecurringState => ({ status: 'none' });

/** Only the declared fields of an event or command, absent optional ones as null. */
export const recurringDetailsOf = (data: RecurringDetails): RecurringDetails =>
  withAbsent(RECURRING_FIELDS, pickFields(RECURRING_FIELDS, data));

function withException(state: RecurringState, date: string, exception: OccurrenceException | null) {
  if (state.status === 'none') return state;
  const { [date]: _, ...rest } = state.exceptions;
  return { ...state, exceptions: exception ? { ...rest, [date]: exception } : rest };
}

export function evolveRecurring(state: RecurringState, event: RecurringEvent): RecurringState {
  const { type, data } = event;
  switch (type) {
    case 'RecurringEntryCreated':
      return {
        status: 'active',
        recurringId: data.recurringId,
        userId: data.userId,
        details: recurringDetailsOf(data),
        exceptions: {},
        createdAt: data.createdAt,
      };
    case 'RecurringEntryUpdated':
      return state.status === 'none' ? state : { ...state, details: { ...state.details, ...data.changes } };
    case 'RecurringEntryDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
    case 'RecurringOccurrenceSkipped':
      return withException(state, data.occurrenceDate, { kind: 'skipped' });
    case 'RecurringOccurrenceChanged':
      return withException(state, data.occurrenceDate, {
        kind: 'changed',
        amount: data.amount,
        notes: data.notes,
      });
    case 'RecurringOccurrenceRestored':
      return withException(state, data.occurrenceDate, null);
    default:
      return assertNever(type);
  }
}
