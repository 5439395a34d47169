import { type Static, Type } from 'typebox';
import { orNull, success } from './envelope';
import { AsOfParam } from './request';

/** Spec section 3 (Ledger response, Available periods): these answers use camelCase names. */
export const LedgerQuery = Type.Object({
  month: Type.Optional(Type.String({ description: '1 to 12 (default: the current month)' })),
  year: Type.Optional(Type.String({ description: 'Four-digit year (default: the current year)' })),
  group_by: Type.Optional(
    Type.String({
      description: 'category: each side also grouped by category (issue 31); default the spec view',
    }),
  ),
  as_of: AsOfParam,
});
export type LedgerQuery = Static<typeof LedgerQuery>;

export const WireLedgerEntry = Type.Object({
  id: Type.String(),
  date: Type.String({ description: 'YYYY-MM-DD' }),
  particulars: Type.String(),
  amount: Type.Number(),
  // A string enum, not a union of literals: the serializer writes it without trying each branch.
  type: Type.Unsafe<'transaction' | 'emi' | 'prepayment' | 'foreclosure'>({
    type: 'string',
    enum: ['transaction', 'emi', 'prepayment', 'foreclosure'],
    description: 'emi: an EMI; prepayment, foreclosure: a loan’s part-payment or foreclosure (no EMIs)',
  }),
});
export type WireLedgerEntry = Static<typeof WireLedgerEntry>;

/** A side's entries of one category (`group_by=category`); loan payments are Loan EMI's. */
export const WireLedgerGroup = Type.Object({
  categoryId: orNull('string', { description: 'null: Uncategorised, or Loan EMI' }),
  name: Type.String({ description: '"Parent › Child" for a subcategory' }),
  total: Type.Number(),
  entryIds: Type.Array(Type.String(), { description: 'The ids of its entries, in the side’s order' }),
});
export type WireLedgerGroup = Static<typeof WireLedgerGroup>;

const Side = Type.Object({
  transactions: Type.Array(WireLedgerEntry),
  total: Type.Number(),
  groups: Type.Optional(
    Type.Array(WireLedgerGroup, { description: 'Only with group_by=category; largest first' }),
  ),
});

export const LedgerResponse = success(
  Type.Object({
    summary: Type.Object({
      totalCredit: Type.Number(),
      totalDebit: Type.Number(),
      netBalance: Type.Number(),
      emiCount: Type.Integer(),
    }),
    credit: Side,
    debit: Side,
    monthName: Type.String(),
    year: Type.Integer(),
    dateRange: Type.Object({ startDate: Type.String(), endDate: Type.String() }),
  }),
);
export type LedgerResponse = Static<typeof LedgerResponse>;

export const PeriodsResponse = success(
  Type.Object({
    periods: Type.Array(
      Type.Object({
        month: Type.Integer(),
        year: Type.Integer(),
        monthName: Type.String(),
        count: Type.Integer(),
      }),
    ),
    currentMonth: Type.Integer(),
    currentYear: Type.Integer(),
  }),
);
export type PeriodsResponse = Static<typeof PeriodsResponse>;
