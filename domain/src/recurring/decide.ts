import type { Decider } from '../shared/decider';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { changedKeys } from '../shared/field-table';
import { assertNever, type Command } from '../shared/messages';
import {
  RECURRING_MESSAGES,
  recurringAmountOf,
  recurringNotesOf,
  validateRecurringDetails,
} from '../validation/recurring';
import type { RecurringEvent } from './events';
import { RECURRING_FIELDS, type RecurringDetails } from './fields';
import { isOccurrence } from './schedule';
import { evolveRecurring, initialRecurringState, type RecurringState, recurringDetailsOf } from './state';

type Ids = { recurringId: string; userId: string; now: string };

export type CreateRecurring = Command<'CreateRecurring', RecurringDetails & Ids>;
export type UpdateRecurring = Command<'UpdateRecurring', RecurringDetails & Ids>;
export type DeleteRecurring = Command<'DeleteRecurring', Ids>;
/** `occurrenceDate`: a date the schedule falls on (else 422). */
export type SkipOccurrence = Command<'SkipOccurrence', Ids & { occurrenceDate: string }>;
/** Amount (rupees text or number) and notes as sent; validated here like the entry's own. */
export type ChangeOccurrence = Command<
  'ChangeOccurrence',
  Ids & { occurrenceDate: string; amount: unknown; notes: unknown }
>;
export type RestoreOccurrence = Command<'RestoreOccurrence', Ids & { occurrenceDate: string }>;

export type RecurringCommand =
  | CreateRecurring
  | UpdateRecurring
  | DeleteRecurring
  | SkipOccurrence
  | ChangeOccurrence
  | RestoreOccurrence;

function validated(data: RecurringDetails): RecurringDetails {
  const details = recurringDetailsOf(data);
  const errors = validateRecurringDetails(details);
  if (errors.length > 0) throw new ValidationError(errors);
  return details;
}

/** The owner's live entry; anyone else's, a deleted one or a missing one is "not found". */
function owned(state: RecurringState, userId: string) {
  if (state.status !== 'active' || state.userId !== userId)
    throw new NotFoundError(RECURRING_MESSAGES.recurringNotFound);
  return state;
}

/** The occurrence date, checked against the entry's schedule. */
function occurrenceOf(details: RecurringDetails, date: string): string {
  if (!date)
    throw new ValidationError([{ field: 'occurrence_date', message: RECURRING_MESSAGES.dateRequired }]);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !isOccurrence(details, date))
    throw new ValidationError([{ field: 'occurrence_date', message: RECURRING_MESSAGES.notAnOccurrence }]);
  return date;
}

export function decideRecurring(command: RecurringCommand, state: RecurringState): RecurringEvent[] {
  const { type, data } = command;
  const ids = { recurringId: data.recurringId, userId: data.userId };
  switch (type) {
    case 'CreateRecurring': {
      if (state.status !== 'none') throw new ConflictError('Recurring entry already exists');
      return [{ type: 'RecurringEntryCreated', data: { ...ids, ...validated(data), createdAt: data.now } }];
    }
    case 'UpdateRecurring': {
      const current = owned(state, data.userId);
      const next = validated(data);
      const changed = changedKeys(RECURRING_FIELDS, current.details, next);
      if (changed.length === 0) return [];
      const changes: Partial<RecurringDetails> = Object.fromEntries(changed.map((key) => [key, next[key]]));
      return [
        {
          type: 'RecurringEntryUpdated',
          data: { ...ids, changes, previous: current.details, updatedAt: data.now },
        },
      ];
    }
    case 'DeleteRecurring': {
      const current = owned(state, data.userId);
      return [
        { type: 'RecurringEntryDeleted', data: { ...ids, previous: current.details, deletedAt: data.now } },
      ];
    }
    case 'SkipOccurrence': {
      const current = owned(state, data.userId);
      const occurrenceDate = occurrenceOf(current.details, data.occurrenceDate);
      if (current.exceptions[occurrenceDate]?.kind === 'skipped') return [];
      return [{ type: 'RecurringOccurrenceSkipped', data: { ...ids, occurrenceDate, recordedAt: data.now } }];
    }
    case 'ChangeOccurrence': {
      const current = owned(state, data.userId);
      const occurrenceDate = occurrenceOf(current.details, data.occurrenceDate);
      const amount = recurringAmountOf(data.amount);
      const notes = recurringNotesOf(data.notes);
      const errors = [
        ...(typeof amount === 'number' ? [] : [{ field: 'amount', message: amount.error }]),
        ...(typeof notes === 'string' ? [] : [{ field: 'notes', message: notes.error }]),
      ];
      if (errors.length > 0 || typeof amount !== 'number' || typeof notes !== 'string')
        throw new ValidationError(errors);
      const before = current.exceptions[occurrenceDate];
      if (before?.kind === 'changed' && before.amount === amount && before.notes === notes) return [];
      return [
        {
          type: 'RecurringOccurrenceChanged',
          data: { ...ids, occurrenceDate, amount, notes, recordedAt: data.now },
        },
      ];
    }
    case 'RestoreOccurrence': {
      const current = owned(state, data.userId);
      const occurrenceDate = occurrenceOf(current.details, data.occurrenceDate);
      if (!current.exceptions[occurrenceDate]) return [];
      return [
        { type: 'RecurringOccurrenceRestored', data: { ...ids, occurrenceDate, recordedAt: data.now } },
      ];
    }
    default:
      return assertNever(type);
  }
}

export const recurringDecider: Decider<RecurringState, RecurringCommand, RecurringEvent> = {
  initialState: initialRecurringState,
  evolve: evolveRecurring,
  decide: decideRecurring,
};

/**
 * What one occurrence posts (its amount and notes after a change), or null when skipped.
 * Pure: used by the poster, the upcoming list and the cash-flow forecast alike.
 */
export function occurrenceValues(
  details: Pick<RecurringDetails, 'amount' | 'notes'>,
  exceptions: Readonly<Record<string, { kind: string; amount?: number; notes?: string }>>,
  date: string,
): { amount: number; notes: string; changed: boolean } | null {
  const exception = exceptions[date];
  if (exception?.kind === 'skipped') return null;
  if (exception?.kind === 'changed' && exception.amount !== undefined && exception.notes !== undefined)
    return { amount: exception.amount, notes: exception.notes, changed: true };
  return { amount: details.amount, notes: details.notes, changed: false };
}
