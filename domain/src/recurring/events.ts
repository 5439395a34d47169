/**
 * Events of one recurring entry's stream (`recurring-{id}`, issue 31). Money in paise. An update
 * carries the values before, so History shows what changed without reading earlier events. An
 * occurrence is posted as a transaction on its own stream (see `recurringTransactionId` in the
 * workers): the entry's stream records only what the user said.
 */
import type { DomainEvent } from '../shared/messages';
import type { RecurringDetails } from './fields';

type Owner = { recurringId: string; userId: string };

export type RecurringEntryCreated = DomainEvent<
  'RecurringEntryCreated',
  RecurringDetails & Owner & { createdAt: string }
>;

export type RecurringEntryUpdated = DomainEvent<
  'RecurringEntryUpdated',
  Owner & {
    /** The new values of the fields that changed, and only those. */
    changes: Partial<RecurringDetails>;
    /** Every field as it was before this update. */
    previous: RecurringDetails;
    updatedAt: string;
  }
>;

export type RecurringEntryDeleted = DomainEvent<
  'RecurringEntryDeleted',
  Owner & { previous: RecurringDetails; deletedAt: string }
>;

/** One occurrence (by its scheduled date) is not posted. */
export type RecurringOccurrenceSkipped = DomainEvent<
  'RecurringOccurrenceSkipped',
  Owner & { occurrenceDate: string; recordedAt: string }
>;

/** One occurrence is posted with another amount or notes. */
export type RecurringOccurrenceChanged = DomainEvent<
  'RecurringOccurrenceChanged',
  Owner & { occurrenceDate: string; amount: number; notes: string; recordedAt: string }
>;

/** A skipped or changed occurrence goes back to the entry's own values. */
export type RecurringOccurrenceRestored = DomainEvent<
  'RecurringOccurrenceRestored',
  Owner & { occurrenceDate: string; recordedAt: string }
>;

export type RecurringEvent =
  | RecurringEntryCreated
  | RecurringEntryUpdated
  | RecurringEntryDeleted
  | RecurringOccurrenceSkipped
  | RecurringOccurrenceChanged
  | RecurringOccurrenceRestored;

export const RECURRING_EVENT_TYPES = [
  'RecurringEntryCreated',
  'RecurringEntryUpdated',
  'RecurringEntryDeleted',
  'RecurringOccurrenceSkipped',
  'RecurringOccurrenceChanged',
  'RecurringOccurrenceRestored',
] as const satisfies readonly RecurringEvent['type'][];

export const recurringStreamId = (recurringId: string): string => `recurring-${recurringId}`;
