import { api, type Envelope } from '../api/baseApi';
import type { AppDispatch } from '../app/store';
import { asOfParams, type OptionalAsOf } from '../history/asOf';

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

/** A month, read as of a past date when `asOf` is given (issue 14). */
export type LedgerArgs = LedgerMonth & { asOf?: string };

export const ledgerApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLedger: build.query<Ledger, LedgerArgs>({
      extraOptions: { errorFallback: 'Failed to load ledger data' },
      query: ({ month, year, asOf }) => ({ url: '/ledger', params: { month, year, ...asOfParams(asOf) } }),
      transformResponse: (answer: Envelope<Ledger>) => answer.data,
      providesTags: (_r, _e, { month, year }) => [{ type: 'Ledger', id: `${year}-${month}` }, 'Ledger'],
    }),
    getLedgerPeriods: build.query<LedgerPeriods, OptionalAsOf>({
      extraOptions: { errorFallback: 'Failed to load available periods' },
      query: (asOf) => (asOf ? { url: '/ledger/periods', params: asOfParams(asOf) } : '/ledger/periods'),
      transformResponse: (answer: Envelope<LedgerPeriods>) => answer.data,
      providesTags: ['Periods'],
    }),
  }),
});

export const { useGetLedgerQuery, useGetLedgerPeriodsQuery } = ledgerApi;

/**
 * The month the Ledger View opens on: the current one of the periods answer; this month when
 * that answer failed; none while it is awaited.
 */
export function initialLedgerMonth(
  periods: { data?: LedgerPeriods; isError: boolean },
  now: Date,
): LedgerMonth | null {
  if (periods.data) return { month: periods.data.currentMonth, year: periods.data.currentYear };
  return periods.isError ? { month: now.getMonth() + 1, year: now.getFullYear() } : null;
}

/**
 * The Ledger View's first answers before the page renders: the periods, and the month they open
 * on. That is the server's current month, nearly always the browser's too, so this month is asked
 * for at once rather than after the periods; should they name another, that one follows.
 */
export async function prefetchLedger(dispatch: AppDispatch, now = new Date()): Promise<void> {
  dispatch(ledgerApi.util.prefetch('getLedger', { month: now.getMonth() + 1, year: now.getFullYear() }, {}));
  const periods = await dispatch(
    ledgerApi.endpoints.getLedgerPeriods.initiate(undefined, { subscribe: false }),
  );
  const month = initialLedgerMonth(periods, now);
  if (month) dispatch(ledgerApi.util.prefetch('getLedger', month, {}));
}
