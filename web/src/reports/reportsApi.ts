import type * as wire from '@kosh/contract';
import { api } from '../api/baseApi';
import { asOfParams } from '../history/asOf';

export type IncomeExpense = wire.IncomeExpenseResponse['data'];
export type IncomeExpenseMonth = wire.WireIncomeExpenseMonth;
export type NetWorth = wire.NetWorthResponse['data'];
export type Spending = wire.SpendingResponse['data'];
export type SpendingRow = wire.WireSpendingRow;

/** The period of the spending report, as its query sends it. */
export type SpendingPeriodArgs =
  | { kind: 'month'; month: number; year: number }
  | { kind: 'financial-year'; fy: number }
  | { kind: 'range'; from: string; to: string };

/** The query parameters of a period (the JSON read and its CSV twin take the same). */
export function periodParams(period: SpendingPeriodArgs): Record<string, string> {
  switch (period.kind) {
    case 'month':
      return { month: String(period.month), year: String(period.year) };
    case 'financial-year':
      return { fy: String(period.fy) };
    case 'range':
      return { from: period.from, to: period.to };
  }
}

type ReportArgs = { asOf?: string };

/**
 * The reports (issue 31), read in the server's names. A report moves with the money it reads:
 * the ledger (income and expense), the accounts and the loans (net worth).
 */
export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSpending: build.query<Spending, ReportArgs & { period: SpendingPeriodArgs }>({
      extraOptions: { errorFallback: 'Failed to load the spending report' },
      query: ({ asOf, period }) => ({
        url: '/reports/spending',
        params: { ...periodParams(period), ...asOfParams(asOf) },
      }),
      transformResponse: (answer: wire.SpendingResponse) => answer.data,
      providesTags: ['Ledger', { type: 'Category', id: 'LIST' }],
    }),
    getIncomeExpense: build.query<IncomeExpense, ReportArgs>({
      extraOptions: { errorFallback: 'Failed to load the income and expense report' },
      query: ({ asOf }) => ({ url: '/reports/income-expense', params: asOfParams(asOf) }),
      transformResponse: (answer: wire.IncomeExpenseResponse) => answer.data,
      providesTags: ['Ledger'],
    }),
    getNetWorth: build.query<NetWorth, ReportArgs>({
      extraOptions: { errorFallback: 'Failed to load the net worth report' },
      query: ({ asOf }) => ({ url: '/reports/net-worth', params: asOfParams(asOf) }),
      transformResponse: (answer: wire.NetWorthResponse) => answer.data,
      providesTags: [{ type: 'Account', id: 'LIST' }, 'LoanStats', 'Schedule'],
    }),
  }),
});

export const { useGetSpendingQuery, useGetIncomeExpenseQuery, useGetNetWorthQuery } = reportsApi;
