/**
 * Events of one statement import's stream (`import-{id}`, issue 30). A preview is not history:
 * only the commit and its undo are events. `ImportCommitted` carries every row it records, so
 * the batch lands in one append (the event store appends to one stream at a time): the
 * transaction book, the account registers and the ledger fold each row as the transaction it
 * records (`importedTransactionEvents`), and `ImportUndone` takes them all out again.
 */
import type { Paise } from '../money';
import type { DomainEvent } from '../shared/messages';
import type { TransactionFields, TransactionType } from '../validation/transaction';

/** One statement row the commit records as a transaction of the account. */
export type ImportedRow = {
  transactionId: string;
  /** 1-based line of the file. */
  line: number;
  transactionDate: string;
  transactionType: TransactionType;
  amount: Paise;
  /** Readable notes from the narration ("UPI · Swiggy · 527411112222"), at most 255 characters. */
  notes: string;
  /** The narration exactly as the bank wrote it. */
  rawNarration: string;
  /** The bank's reference, UTR or FITID, when the file has one. */
  reference: string | null;
  /** The row's fingerprint keys in its account (statement/fingerprint.ts `fingerprintKeys`). */
  fingerprints: string[];
  /** Issue 31: the category and payee the user kept for the row (a rule's proposal, or typed); absent: none. */
  categoryId?: string | null;
  payee?: string | null;
};

export type ImportCommitted = DomainEvent<
  'ImportCommitted',
  {
    importId: string;
    userId: string;
    accountId: string;
    fileName: string;
    format: string;
    preset: string | null;
    rows: ImportedRow[];
    /** Rows of the file left out (duplicates, skipped, errors). */
    skippedRows: number;
    /** The file's running balance disagreed and the user confirmed the commit anyway. */
    balanceMismatchConfirmed: boolean;
    committedAt: string;
  }
>;

export type ImportUndone = DomainEvent<
  'ImportUndone',
  { importId: string; userId: string; accountId: string; transactionIds: string[]; undoneAt: string }
>;

/**
 * An imported row edited or deleted like any transaction (its stream is the import's: the row has
 * no `txn-{id}` stream). The same data as `TransactionUpdated` / `TransactionDeleted`, and the
 * import: the read models fold them as those, at the import stream's version.
 */
export type ImportedTransactionUpdated = DomainEvent<
  'ImportedTransactionUpdated',
  {
    importId: string;
    transactionId: string;
    userId: string;
    changes: Partial<TransactionFields>;
    previous: TransactionFields;
    updatedAt: string;
  }
>;

export type ImportedTransactionDeleted = DomainEvent<
  'ImportedTransactionDeleted',
  { importId: string; transactionId: string; userId: string; previous: TransactionFields; deletedAt: string }
>;

export type ImportEvent =
  | ImportCommitted
  | ImportUndone
  | ImportedTransactionUpdated
  | ImportedTransactionDeleted;

export const IMPORT_EVENT_TYPES = [
  'ImportCommitted',
  'ImportUndone',
  'ImportedTransactionUpdated',
  'ImportedTransactionDeleted',
] as const satisfies readonly ImportEvent['type'][];

export const importStreamId = (importId: string): string => `import-${importId}`;
