import type { ACCOUNT_FIELDS, WireNames, WireOf } from '@kosh/domain';
import { type Static, Type } from 'typebox';
import { MessageResponse, PageInfo, success } from './envelope';
import { AsOfParam, IdParams, Loose, QueryText } from './request';

/**
 * Accounts and transfers (issue 30), wire names in snake_case. Body fields are loose at the
 * schema level so a bad value gets its own per-field message (domain/src/validation/account.ts).
 */
export const AccountBody = Type.Object({
  name: Loose('At most 100 characters'),
  kind: Loose('savings, current, credit-card, cash or wallet'),
  bank_id: Loose('A bank of the catalog (GET /api/banks), or empty'),
  bank_name: Loose('A bank typed by name when it is not in the catalog, at most 100 characters'),
  last_four: Loose('Exactly 4 digits, or empty'),
  opening_balance: Loose('Rupees, at most 2 decimals; negative only for a credit card'),
  opening_date: Loose('YYYY-MM-DD: the date of the opening balance'),
});
export type AccountBody = Static<typeof AccountBody>;
// Every declared account field is taken in (ACCOUNT_FIELDS): a field missing here does not compile.
AccountBody.properties satisfies Record<WireNames<typeof ACCOUNT_FIELDS>, unknown>;

const AccountKindWire = Type.Unsafe<'savings' | 'current' | 'credit-card' | 'cash' | 'wallet'>({
  type: 'string',
  enum: ['savings', 'current', 'credit-card', 'cash', 'wallet'],
});

export const WireAccount = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: AccountKindWire,
  bank_id: Type.Union([Type.Integer(), Type.Null()]),
  /** The catalog bank's name, or the typed one. */
  bank_name: Type.Union([Type.String(), Type.Null()]),
  last_four: Type.Union([Type.String(), Type.Null()]),
  opening_balance: Type.Number({ description: 'Rupees, two decimals' }),
  opening_date: Type.String({ description: 'YYYY-MM-DD' }),
  balance: Type.Number({ description: 'Rupees: the balance on `date` (default: every entry)' }),
  entry_count: Type.Integer({ description: 'Transactions and transfer legs in the register' }),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type WireAccount = Static<typeof WireAccount>;
// Every declared account field is answered, with the type the domain holds (ACCOUNT_FIELDS).
({}) as WireOf<typeof ACCOUNT_FIELDS> satisfies Pick<WireAccount, WireNames<typeof ACCOUNT_FIELDS>>;

export const AccountQuery = Type.Object({
  date: QueryText('YYYY-MM-DD: balances on that date (default: every entry)'),
  as_of: AsOfParam,
});
export type AccountQuery = Static<typeof AccountQuery>;

export const AccountParams = IdParams;

export const AccountListResponse = success(Type.Object({ accounts: Type.Array(WireAccount) }));
export type AccountListResponse = Static<typeof AccountListResponse>;
export const AccountResponse = success(Type.Object({ account: WireAccount }));
export type AccountResponse = Static<typeof AccountResponse>;
export const AccountDeletedResponse = MessageResponse;

export const RegisterQuery = Type.Object({
  page: QueryText('1-based page (default 1)'),
  limit: QueryText('Rows per page, 1 to 100 (default 50)'),
  sort_order: QueryText('ASC (default: the opening row first) or DESC'),
  as_of: AsOfParam,
});
export type RegisterQuery = Static<typeof RegisterQuery>;

export const WireRegisterEntry = Type.Object({
  kind: Type.Unsafe<'opening' | 'transaction' | 'transfer_in' | 'transfer_out'>({
    type: 'string',
    enum: ['opening', 'transaction', 'transfer_in', 'transfer_out'],
  }),
  id: Type.Union([Type.String(), Type.Null()], { description: "The transaction's or transfer's id" }),
  date: Type.String({ description: 'YYYY-MM-DD' }),
  notes: Type.String(),
  amount: Type.Number({ description: 'Rupees, signed: money in +, out -' }),
  balance: Type.Number({ description: 'Running balance after this row' }),
  counterpart_account_id: Type.Union([Type.String(), Type.Null()]),
  counterpart_account_name: Type.Union([Type.String(), Type.Null()]),
});
export type WireRegisterEntry = Static<typeof WireRegisterEntry>;

export const RegisterResponse = success(
  Type.Object({
    account: WireAccount,
    entries: Type.Array(WireRegisterEntry),
    pagination: PageInfo,
  }),
);
export type RegisterResponse = Static<typeof RegisterResponse>;

export const TransferBody = Type.Object({
  from_account_id: Loose('The account the money leaves'),
  to_account_id: Loose('The account it arrives in'),
  amount: Loose('Rupees, more than 0, at most 2 decimals'),
  transfer_date: Loose('YYYY-MM-DD'),
  notes: Loose('Optional, at most 255 characters'),
});
export type TransferBody = Static<typeof TransferBody>;

export const WireTransfer = Type.Object({
  id: Type.String(),
  from_account_id: Type.String(),
  to_account_id: Type.String(),
  amount: Type.Number(),
  transfer_date: Type.String(),
  notes: Type.String(),
  created_at: Type.String(),
});
export type WireTransfer = Static<typeof WireTransfer>;

export const TransferListQuery = Type.Object({
  page: QueryText('1-based page (default 1)'),
  limit: QueryText('Rows per page, 1 to 100 (default 50)'),
  as_of: AsOfParam,
});
export type TransferListQuery = Static<typeof TransferListQuery>;

export const TransferResponse = success(Type.Object({ transfer: WireTransfer }));
export type TransferResponse = Static<typeof TransferResponse>;
export const TransferListResponse = success(
  Type.Object({
    transfers: Type.Array(WireTransfer),
    pagination: Type.Object({
      current_page: Type.Integer(),
      total_pages: Type.Integer(),
      total_items: Type.Integer(),
    }),
  }),
);
export type TransferListResponse = Static<typeof TransferListResponse>;
export const TransferDeletedResponse = MessageResponse;
