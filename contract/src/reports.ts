import { type Static, Type } from 'typebox';
import { success } from './envelope';
import { AsOfParam, QueryText } from './request';

/**
 * Reports (issue 31), wire names in snake_case, money in rupees with two decimals. Each has a CSV
 * twin at the same path with `.csv` (as an account's `register.csv`), taking the same query.
 */
const Rupees = (description: string) => Type.Number({ description: `Rupees, two decimals: ${description}` });

export const MonthsQuery = Type.Object({
  months: QueryText('How many months, ending with the current one (1 to 120, default 24)'),
  as_of: AsOfParam,
});
export type MonthsQuery = Static<typeof MonthsQuery>;

export const WireIncomeExpenseMonth = Type.Object({
  year: Type.Integer(),
  month: Type.Integer({ description: '1 to 12' }),
  month_name: Type.String(),
  income: Rupees('credits of the transaction book'),
  expense: Rupees('debits of the transaction book (a debit matched to an EMI counts once, as the EMI)'),
  loan_payments: Rupees('EMIs, part-payments and foreclosures, as the ledger debits them'),
  net: Rupees('income − expense − loan payments'),
});
export type WireIncomeExpenseMonth = Static<typeof WireIncomeExpenseMonth>;

export const IncomeExpenseResponse = success(
  Type.Object({
    months: Type.Array(WireIncomeExpenseMonth, { description: 'Oldest first' }),
    totals: Type.Object({
      income: Type.Number(),
      expense: Type.Number(),
      loan_payments: Type.Number(),
      net: Type.Number(),
    }),
    as_of: Type.String({ description: 'YYYY-MM-DD: the day the report was made for (India)' }),
  }),
);
export type IncomeExpenseResponse = Static<typeof IncomeExpenseResponse>;

export const WireNetWorthPoint = Type.Object({
  date: Type.String({ description: "YYYY-MM-DD: a month's last day, or today for the current month" }),
  accounts: Rupees("the open accounts' balances"),
  loans: Rupees("the loans' outstanding principal (paid EMIs taken off)"),
  net_worth: Rupees('accounts − loans'),
});
export type WireNetWorthPoint = Static<typeof WireNetWorthPoint>;

export const NetWorthResponse = success(
  Type.Object({
    points: Type.Array(WireNetWorthPoint, { description: 'Oldest first, one per month' }),
    as_of: Type.String({ description: 'YYYY-MM-DD' }),
  }),
);
export type NetWorthResponse = Static<typeof NetWorthResponse>;

export const SpendingQuery = Type.Object({
  month: QueryText('1 to 12 (with year; default the current month)'),
  year: QueryText('Four digits (default the current year)'),
  fy: QueryText('A financial year by the year it starts in: 2025 is April 2025 to March 2026'),
  from: QueryText('YYYY-MM-DD: with `to`, any range of up to 10 years (wins over fy and month)'),
  to: QueryText('YYYY-MM-DD, on or after `from`'),
  as_of: AsOfParam,
});
export type SpendingQuery = Static<typeof SpendingQuery>;

const spendingFields = {
  id: Type.Union([Type.String(), Type.Null()], {
    description: 'The category; null for Uncategorised (or Loan EMI before the categories are set up)',
  }),
  name: Type.String(),
  amount: Rupees('spent in the category and its subcategories'),
  own_amount: Rupees('spent in the category itself'),
  count: Type.Integer({ description: 'Debits and loan payments counted' }),
  share: Type.Number({ description: 'Percent of the total, one decimal' }),
};

export const WireSpendingChild = Type.Object(spendingFields);
export type WireSpendingChild = Static<typeof WireSpendingChild>;
export const WireSpendingRow = Type.Object({ ...spendingFields, children: Type.Array(WireSpendingChild) });
export type WireSpendingRow = Static<typeof WireSpendingRow>;

export const SpendingResponse = success(
  Type.Object({
    period: Type.Object({
      kind: Type.Unsafe<'month' | 'financial-year' | 'range'>({
        type: 'string',
        enum: ['month', 'financial-year', 'range'],
      }),
      from: Type.String(),
      to: Type.String(),
      label: Type.String(),
    }),
    total: Rupees('every debit of the period as the ledger counts it, loan payments included'),
    categories: Type.Array(WireSpendingRow, { description: 'Top-level categories, largest first' }),
    as_of: Type.String({ description: 'YYYY-MM-DD' }),
  }),
);
export type SpendingResponse = Static<typeof SpendingResponse>;
