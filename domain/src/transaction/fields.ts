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
  /**
   * The account it belongs to (issue 30); null: none, as every transaction recorded before
   * accounts existed. An edit that leaves it out keeps it (the decider), null takes it out.
   */
  accountId: { wire: 'account_id', kind: 'ref', label: 'Account', nullable: true },
  /**
   * One of the user's categories (issue 31); null: none. Left out on an edit: kept. A merge or a
   * delete of the category moves it (the category's event; the transactions read model follows).
   */
  categoryId: { wire: 'category_id', kind: 'ref', label: 'Category', nullable: true },
  /** Who was paid or paid in (issue 31): trimmed, at most 100 characters; null: none. Left out on an edit: kept. */
  payee: { wire: 'payee', kind: 'text', label: 'Payee', nullable: true },
});

/** The validated values of a transaction (`TRANSACTION_FIELDS`), money in paise. */
export type TransactionFields = RecordOf<typeof TRANSACTION_FIELDS>;
