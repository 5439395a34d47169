import type * as wire from '@kosh/contract';
import { type Camel, camelizeKeys } from '@kosh/contract';
import { api } from '../api/baseApi';

/** GET /api/history's entry (camelCase on receipt). */
export type TimelineEntry = Camel<wire.WireTimelineEntry>;

/** One field an event changed, as the screens name it (money in rupees). */
export type FieldChange = TimelineEntry['changes'][number];

export type TimelinePage = Camel<wire.HistoryResponse['data']>;

/** The History page's filters; empty ones are not sent. */
export type TimelineFilters = { stream: string; type: string; from: string; to: string };

export const NO_TIMELINE_FILTERS: TimelineFilters = { stream: '', type: '', from: '', to: '' };

export type TimelineArgs = { filters: TimelineFilters; cursor: string | null };

/** One item's history: a loan's or a transaction's. */
export type ItemHistoryArgs = { kind: 'loans' | 'transactions'; id: string; cursor: string | null };

export type ScheduleVersion = Camel<wire.WireVersion>;

export type ScheduleDiff = Camel<wire.ScheduleDiffResponse['data']>;

export type Figure = ScheduleDiff['changes']['emi'];

type PublicKey = Camel<wire.PublicKeyResponse['data']>;

export const HISTORY_PAGE_SIZE = 20;

function timelineParams({ filters, cursor }: TimelineArgs): Record<string, string | number> {
  const params: Record<string, string | number> = { limit: HISTORY_PAGE_SIZE };
  for (const [key, value] of Object.entries(filters)) if (value.trim() !== '') params[key] = value.trim();
  if (cursor) params.cursor = cursor;
  return params;
}

/**
 * Pages of a timeline merged into one list (infinite scroll): the cache key leaves the cursor out,
 * so each next page is appended to the entry of its filters.
 */
const infinite = {
  serializeQueryArgs: ({
    endpointName,
    queryArgs,
  }: {
    endpointName: string;
    queryArgs: { cursor: string | null };
  }) => {
    const { cursor: _, ...rest } = queryArgs;
    return `${endpointName}(${JSON.stringify(rest)})`;
  },
  merge: (current: TimelinePage, next: TimelinePage, { arg }: { arg: { cursor: string | null } }) => {
    if (arg.cursor === null) return next;
    const seen = new Set(current.entries.map((e) => e.position));
    return {
      entries: [...current.entries, ...next.entries.filter((e) => !seen.has(e.position))],
      nextCursor: next.nextCursor,
    };
  },
  forceRefetch: ({ currentArg, previousArg }: { currentArg?: unknown; previousArg?: unknown }) =>
    JSON.stringify(currentArg) !== JSON.stringify(previousArg),
};

export const historyApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTimeline: build.query<TimelinePage, TimelineArgs>({
      extraOptions: { errorFallback: 'Failed to load history' },
      query: (args) => ({ url: '/history', params: timelineParams(args) }),
      transformResponse: (answer: Camel<wire.HistoryResponse>) => answer.data,
      ...infinite,
      providesTags: ['History'],
    }),
    getItemHistory: build.query<TimelinePage, ItemHistoryArgs>({
      extraOptions: { errorFallback: 'Failed to load history' },
      query: ({ kind, id, cursor }) => ({
        url: `/${kind}/${id}/history`,
        params: { limit: HISTORY_PAGE_SIZE, ...(cursor ? { cursor } : {}) },
      }),
      // `/transactions/...` answers keep the server's names (keepsServerNames); this one is read in
      // camelCase either way.
      transformResponse: (answer: wire.HistoryResponse | Camel<wire.HistoryResponse>) =>
        camelizeKeys(answer.data) as TimelinePage,
      ...infinite,
      providesTags: ['History'],
    }),
    getScheduleVersions: build.query<ScheduleVersion[], string>({
      extraOptions: { errorFallback: 'Failed to load schedule versions', screenShowsNotFound: true },
      query: (id) => `/loans/${id}/amortization/versions`,
      transformResponse: (answer: Camel<wire.ScheduleVersionsResponse>) => answer.data.versions,
      providesTags: (_r, _e, id) => [{ type: 'Schedule', id }],
    }),
    getScheduleDiff: build.query<ScheduleDiff, { id: string; from: number; to: number }>({
      extraOptions: { errorFallback: 'Failed to compare schedule versions' },
      query: ({ id, from, to }) => ({ url: `/loans/${id}/amortization/diff`, params: { from, to } }),
      transformResponse: (answer: Camel<wire.ScheduleDiffResponse>) => answer.data,
    }),
    getExportPublicKey: build.query<PublicKey, void>({
      extraOptions: { errorFallback: 'Failed to load the server key' },
      query: () => '/export/public-key',
      transformResponse: (answer: Camel<wire.PublicKeyResponse>) => answer.data,
    }),
  }),
});

export const {
  useGetTimelineQuery,
  useGetItemHistoryQuery,
  useGetScheduleVersionsQuery,
  useGetScheduleDiffQuery,
  useLazyGetExportPublicKeyQuery,
} = historyApi;
