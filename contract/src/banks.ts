import { type Static, Type } from 'typebox';
import { page, success } from './envelope';
import { IdParams, Loose, QueryText } from './request';

/** Spec sections 3 and 7 (Banks). Bodies are loose so bad values get their own messages. */
export const BankBody = Type.Object({
  bank_name: Loose('Required, at most 100 characters'),
  branch_name: Loose('Optional, at most 100 characters'),
});
export type BankBody = Static<typeof BankBody>;

export const LoanTypeBody = Type.Object({ type_name: Loose('Required, at most 100 characters') });
export type LoanTypeBody = Static<typeof LoanTypeBody>;

export const BankListQuery = Type.Object({
  page: QueryText('1-based page (default 1)'),
  limit: QueryText('1 to 100 (default 50)'),
  sortBy: QueryText('bank_name (default), branch_name, id or created_at'),
  sortOrder: QueryText('ASC (default) or DESC'),
});
export type BankListQuery = Static<typeof BankListQuery>;

export const CatalogParams = IdParams;

export const WireBank = Type.Object({
  id: Type.Integer(),
  bank_name: Type.String(),
  branch_name: Type.Union([Type.String(), Type.Null()]),
  is_custom: Type.Boolean({ description: 'Added by this user (visible only to them)' }),
});
export type WireBank = Static<typeof WireBank>;

export const WireLoanType = Type.Object({
  id: Type.Integer(),
  type_name: Type.String(),
  is_custom: Type.Boolean({ description: 'Added by this user (visible only to them)' }),
});
export type WireLoanType = Static<typeof WireLoanType>;

export const BankListResponse = page(WireBank);
export type BankListResponse = Static<typeof BankListResponse>;
export const BankResponse = success(Type.Object({ bank: WireBank }));
export type BankResponse = Static<typeof BankResponse>;
export const LoanTypeListResponse = success(Type.Object({ loanTypes: Type.Array(WireLoanType) }));
export type LoanTypeListResponse = Static<typeof LoanTypeListResponse>;
export const LoanTypeResponse = success(Type.Object({ loanType: WireLoanType }));
export type LoanTypeResponse = Static<typeof LoanTypeResponse>;
