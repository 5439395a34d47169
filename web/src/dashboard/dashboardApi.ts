import type { Camel, IncomeExpenseResponse, LoanListResponse } from '@kosh/contract';
import { api } from '../api/baseApi';
import type { Loan } from '../loans/loansApi';

export type MonthTotals = { month: number; year: number; label: string; credits: number; debits: number };

/** The months the chart shows: the last 12, this one (India's) last. */
export const CASHFLOW_MONTHS = 12;

/**
 * The chart's bars from the income and expense report: credits are its income, debits its expense
 * and loan payments together, as the ledger totals a month's debits (the report is tested to
 * agree with the ledger's summary). Summed in paise.
 */
export function cashflowFromReport(report: IncomeExpenseResponse['data']): MonthTotals[] {
  const paise = (rupees: number) => Math.round(rupees * 100);
  return report.months.map((m) => ({
    month: m.month,
    year: m.year,
    label: `${m.month_name.slice(0, 3)} ${String(m.year).slice(2)}`,
    credits: m.income,
    debits: (paise(m.expense) + paise(m.loan_payments)) / 100,
  }));
}

const LOAN_PAGE_LIMIT = 50;

/** The dashboard's chart data: the income and expense report's last 12 months, and every loan. */
export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    // One read of 12 monthly totals, not 12 ledger months of entries (issue 33: the dashboard's
    // cold start asked for about 10,000 entries to draw 24 bars).
    getMonthlyCashflow: build.query<MonthTotals[], void>({
      query: () => ({ url: '/reports/income-expense', params: { months: String(CASHFLOW_MONTHS) } }),
      transformResponse: (answer: IncomeExpenseResponse) => cashflowFromReport(answer.data),
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
