import { fieldTable, type RecordOf } from '../shared/field-table';

/**
 * What a user records about a transaction, declared once (see `fieldTable`), in the order
 * History lists them. Money in paise.
 */
export const TRANSACTION_FIELDS = fieldTable({
  transactionType: { wire: 'transaction_type', kind: 'code', values: ['C', 'D'], label: 'Type' },
  /** YYYY-MM-DD. */
  transactionDate: { wire: 'transaction_date', kind: 'date', label: 'Date' },
  amount: { wire: 'amount', kind: 'money', label: 'Amount' },
  /** Trimmed, at most 255 characters. */
  notes: { wire: 'notes', kind: 'text', label: 'Notes' },
});

/** The validated values of a transaction (`TRANSACTION_FIELDS`), money in paise. */
export type TransactionFields = RecordOf<typeof TRANSACTION_FIELDS>;
