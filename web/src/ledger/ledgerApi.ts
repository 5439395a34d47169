import type * as wire from '@kosh/contract';
import { api } from '../api/baseApi';
import type { AppDispatch } from '../app/store';
import { asOfParams, type OptionalAsOf } from '../history/asOf';

/** Ledger answers are read in the server's own names (spec section 3). */
export type LedgerEntry = wire.WireLedgerEntry;

export type Ledger = wire.LedgerResponse['data'];

export type LedgerSide = Ledger['credit'];

export type LedgerPeriods = wire.PeriodsResponse['data'];

export type LedgerPeriod = LedgerPeriods['periods'][number];

export type LedgerMonth = { month: number; year: number };

/** A month, read as of a past date when `asOf` is given (issue 14). */
export type LedgerArgs = LedgerMonth & { asOf?: string; groupBy?: 'category' };

export const ledgerApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLedger: build.query<Ledger, LedgerArgs>({
      extraOptions: { errorFallback: 'Failed to load ledger data' },
      query: ({ month, year, asOf, groupBy }) => ({
        url: '/ledger',
        params: { month, year, ...asOfParams(asOf), ...(groupBy ? { group_by: groupBy } : {}) },
      }),
      transformResponse: (answer: wire.LedgerResponse) => answer.data,
      providesTags: (_r, _e, { month, year }) => [{ type: 'Ledger', id: `${year}-${month}` }, 'Ledger'],
    }),
    getLedgerPeriods: build.query<LedgerPeriods, OptionalAsOf>({
      extraOptions: { errorFallback: 'Failed to load available periods' },
      query: (asOf) => (asOf ? { url: '/ledger/periods', params: asOfParams(asOf) } : '/ledger/periods'),
      transformResponse: (answer: wire.PeriodsResponse) => answer.data,
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
