/**
 * Events of one transaction's stream (`txn-{id}`). Money is in paise. Each event carries the
 * owner and enough of the values before it so a read model can fold it without reading others
 * (stats subtract the old amount, the ledger moves an entry between months).
 */
import type { DomainEvent } from '../shared/messages';
import type { TransactionFields } from '../validation/transaction';

export type TransactionRecorded = DomainEvent<
  'TransactionRecorded',
  TransactionFields & {
    transactionId: string;
    userId: string;
    /** ISO-8601 UTC instant; the wire's `created_at`. */
    recordedAt: string;
    /** Issue 30: a row of a statement import carries the bank's narration as written, and its import. */
    rawNarration?: string;
    importId?: string;
    /** Issue 31: an occurrence of a recurring entry, posted by the workers (its scheduled date). */
    recurringId?: string;
    occurrenceDate?: string;
  }
>;

export type TransactionUpdated = DomainEvent<
  'TransactionUpdated',
  {
    transactionId: string;
    userId: string;
    /** The new values of the fields that changed, and only those. */
    changes: Partial<TransactionFields>;
    /** Every field as it was before this update. */
    previous: TransactionFields;
    updatedAt: string;
  }
>;

export type TransactionDeleted = DomainEvent<
  'TransactionDeleted',
  {
    transactionId: string;
    userId: string;
    /** Every field as it was when deleted. */
    previous: TransactionFields;
    deletedAt: string;
  }
>;

export type TransactionEvent = TransactionRecorded | TransactionUpdated | TransactionDeleted;

export const TRANSACTION_EVENT_TYPES = [
  'TransactionRecorded',
  'TransactionUpdated',
  'TransactionDeleted',
] as const satisfies readonly TransactionEvent['type'][];

export const transactionStreamId = (transactionId: string): string => `txn-${transactionId}`;
