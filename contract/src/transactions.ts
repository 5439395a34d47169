import type { TRANSACTION_FIELDS, WireNames, WireOf } from '@kosh/domain';
import { type Static, Type } from 'typebox';
import { MessageResponse, orNull, PageInfo, success } from './envelope';
import { AsOfParam, IdParams, Loose, QueryText } from './request';

/**
 * Spec sections 3 and 7 (Transactions), wire names in snake_case. Body and query fields are
 * loose at the schema level so that a bad value gets the spec's own per-field message
 * (domain/src/validation/transaction.ts, command-api/src/routes/transactions/list-query.ts),
 * never a generic one.
 */
export const TransactionBody = Type.Object({
  notes: Type.Optional(
    Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()], { description: 'At most 255 characters' }),
  ),
  transaction_type: Loose("'C' (credit) or 'D' (debit)"),
  transaction_date: Loose('YYYY-MM-DD'),
  amount: Loose('Rupees, more than 0, at most 2 decimals, at most 9,999,999,999.99'),
  account_id: Loose('One of your accounts, or null for none; left out on an edit: unchanged'),
  category_id: Loose(
    'One of your categories (GET /api/categories), or null for none; left out on an edit: unchanged',
  ),
  payee: Loose('Who was paid or paid in, at most 100 characters, or null; left out on an edit: unchanged'),
});
export type TransactionBody = Static<typeof TransactionBody>;
// Every declared transaction field is taken in (TRANSACTION_FIELDS): a field missing here does not compile.
TransactionBody.properties satisfies Record<WireNames<typeof TRANSACTION_FIELDS>, unknown>;

export const TransactionListQuery = Type.Object({
  page: QueryText('1-based page (default 1)'),
  limit: QueryText('Rows per page, 1 to 100 (default 10)'),
  search: QueryText('Case-insensitive text in notes; % and _ match themselves'),
  transaction_type: QueryText('C or D'),
  date_from: QueryText('YYYY-MM-DD, inclusive'),
  date_to: QueryText('YYYY-MM-DD, inclusive'),
  sort_by: QueryText('transaction_date (default), amount, created_at or notes'),
  sort_order: QueryText('ASC or DESC (default)'),
  account_id: QueryText("An account's id, or none: the transactions in no account"),
  category_id: QueryText("A category's id, or none: the uncategorised transactions"),
  as_of: AsOfParam,
});
export type TransactionListQuery = Static<typeof TransactionListQuery>;

export const TransactionParams = IdParams;

export const WireTransaction = Type.Object({
  id: Type.String(),
  notes: Type.String(),
  transaction_type: Type.Unsafe<'C' | 'D'>({ type: 'string', enum: ['C', 'D'] }),
  transaction_date: Type.String({ description: 'YYYY-MM-DD' }),
  amount: Type.Number({ description: 'Rupees, two decimals' }),
  account_id: orNull('string', { description: 'Its account, or null' }),
  category_id: orNull('string', { description: 'Its category, or null' }),
  payee: orNull('string', { description: 'Its payee, or null' }),
  created_at: Type.String({ description: 'ISO-8601 UTC' }),
  updated_at: Type.String({ description: 'ISO-8601 UTC' }),
});
export type WireTransaction = Static<typeof WireTransaction>;
// Every declared transaction field is answered, with the type the domain holds (TRANSACTION_FIELDS).
({}) as WireOf<typeof TRANSACTION_FIELDS> satisfies Pick<
  WireTransaction,
  WireNames<typeof TRANSACTION_FIELDS>
>;

export const TransactionFilters = Type.Object({
  search: orNull('string'),
  transaction_type: orNull('string'),
  date_from: orNull('string'),
  date_to: orNull('string'),
  account_id: Type.Optional(orNull('string')),
  category_id: Type.Optional(orNull('string')),
  sort_by: Type.String(),
  sort_order: Type.String(),
});
export type TransactionFilters = Static<typeof TransactionFilters>;

export const TransactionListResponse = success(
  Type.Object({
    transactions: Type.Array(WireTransaction),
    pagination: PageInfo,
    filters: TransactionFilters,
  }),
);
export type TransactionListResponse = Static<typeof TransactionListResponse>;

export const TransactionStatsResponse = success(
  Type.Object({
    stats: Type.Object({
      total_transactions: Type.Integer(),
      credit_amount: Type.Number(),
      debit_amount: Type.Number(),
      net_amount: Type.Number(),
    }),
  }),
);
export type TransactionStatsResponse = Static<typeof TransactionStatsResponse>;

export const TransactionResponse = success(Type.Object({ transaction: WireTransaction }));
export type TransactionResponse = Static<typeof TransactionResponse>;
export const TransactionDeletedResponse = MessageResponse;
