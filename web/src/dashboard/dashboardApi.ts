import type { Camel, LedgerResponse, LoanListResponse } from '@kosh/contract';
import { api } from '../api/baseApi';
import type { Loan } from '../loans/loansApi';

export type MonthTotals = { month: number; year: number; label: string; credits: number; debits: number };

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The 12 months ending with `month`/`year`, oldest first. */
export function lastTwelveMonths(month: number, year: number): { month: number; year: number }[] {
  return Array.from({ length: 12 }, (_, i) => {
    const index = year * 12 + (month - 1) - (11 - i);
    return { month: (index % 12) + 1, year: Math.floor(index / 12) };
  });
}

const LOAN_PAGE_LIMIT = 50;

/** The dashboard's chart data, read from the same ledger and loan answers as the screens. */
export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMonthlyCashflow: build.query<MonthTotals[], { month: number; year: number }>({
      async queryFn({ month, year }, _api, _extra, baseQuery) {
        const answers = await Promise.all(
          lastTwelveMonths(month, year).map(async (period) => ({
            period,
            answer: await baseQuery({ url: '/ledger', params: period }),
          })),
        );
        const totals: MonthTotals[] = [];
        for (const { period, answer } of answers) {
          if (answer.error) return { error: answer.error };
          const ledger = (answer.data as LedgerResponse).data;
          totals.push({
            ...period,
            label: `${SHORT_MONTHS[period.month - 1]} ${String(period.year).slice(2)}`,
            credits: ledger.summary.totalCredit,
            debits: ledger.summary.totalDebit,
          });
        }
        return { data: totals };
      },
      providesTags: ['Ledger'],
    }),
    getAllLoans: build.query<Loan[], void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const loans: Loan[] = [];
        for (let page = 1; ; page++) {
          const answer = await baseQuery({
            url: '/loans',
            params: { page, limit: LOAN_PAGE_LIMIT, sortBy: 'created_at', sortOrder: 'DESC' },
          });
          if (answer.error) return { error: answer.error };
          const body = answer.data as Camel<LoanListResponse>;
          loans.push(...body.data);
          if (page >= body.meta.pagination.totalPages) return { data: loans };
        }
      },
      providesTags: [{ type: 'Loan', id: 'LIST' }],
    }),
  }),
});

export const { useGetMonthlyCashflowQuery, useGetAllLoansQuery } = dashboardApi;
