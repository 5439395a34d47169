import { api, type Envelope } from '../api/baseApi';

/** Ledger answers are read in the server's own names (spec section 3). */
export type LedgerEntry = {
  id: string;
  date: string;
  particulars: string;
  amount: number;
  /** 'emi' marks a loan instalment; other entries are transactions. */
  type: string;
};

export type LedgerSide = { transactions: LedgerEntry[]; total: number };

export type Ledger = {
  summary: { totalCredit: number; totalDebit: number; netBalance: number; emiCount: number };
  credit: LedgerSide;
  debit: LedgerSide;
  monthName: string;
  year: number;
  dateRange: { startDate: string; endDate: string };
};

export type LedgerPeriod = { month: number; year: number; monthName: string; count: number };

export type LedgerPeriods = { periods: LedgerPeriod[]; currentMonth: number; currentYear: number };

export type LedgerMonth = { month: number; year: number };

export const ledgerApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLedger: build.query<Ledger, LedgerMonth>({
      query: ({ month, year }) => ({ url: '/ledger', params: { month, year } }),
      transformResponse: (answer: Envelope<Ledger>) => answer.data,
      providesTags: (_r, _e, { month, year }) => [{ type: 'Ledger', id: `${year}-${month}` }, 'Ledger'],
    }),
    getLedgerPeriods: build.query<LedgerPeriods, void>({
      query: () => '/ledger/periods',
      transformResponse: (answer: Envelope<LedgerPeriods>) => answer.data,
      providesTags: ['Periods'],
    }),
  }),
});

export const { useGetLedgerQuery, useGetLedgerPeriodsQuery } = ledgerApi;
