import type * as wire from '@kosh/contract';
import { api } from '../api/baseApi';
import { asOfParams } from '../history/asOf';

export type IncomeExpense = wire.IncomeExpenseResponse['data'];
export type IncomeExpenseMonth = wire.WireIncomeExpenseMonth;
export type NetWorth = wire.NetWorthResponse['data'];

type ReportArgs = { asOf?: string };

/**
 * The reports (issue 31), read in the server's names. A report moves with the money it reads:
 * the ledger (income and expense), the accounts and the loans (net worth).
 */
export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
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

export const { useGetIncomeExpenseQuery, useGetNetWorthQuery } = reportsApi;
