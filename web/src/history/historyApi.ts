import { api, type Envelope } from '../api/baseApi';
import type { ScheduleRow } from '../loans/loansApi';

/** One field an event changed, as the screens name it (money in rupees). */
export type FieldChange = {
  field: string;
  from: string | number | boolean | null;
  to: string | number | boolean | null;
};

/** GET /api/history's entry (camelCase on receipt). */
export type TimelineEntry = {
  position: string;
  recordedAt: string;
  /** loan:{id}, transaction:{id}, profile, bank:{id} or loan_type:{id}. */
  stream: string;
  type: string;
  summary: string;
  changes: FieldChange[];
  correlationId: string;
};

export type TimelinePage = { entries: TimelineEntry[]; nextCursor: string | null };

/** The History page's filters; empty ones are not sent. */
export type TimelineFilters = { stream: string; type: string; from: string; to: string };

export const NO_TIMELINE_FILTERS: TimelineFilters = { stream: '', type: '', from: '', to: '' };

export type TimelineArgs = { filters: TimelineFilters; cursor: string | null };

/** One item's history: a loan's or a transaction's. */
export type ItemHistoryArgs = { kind: 'loans' | 'transactions'; id: string; cursor: string | null };

export type ScheduleVersion = {
  version: number;
  generatedAt: string;
  reason: 'created' | 'updated' | 'regenerated';
  emi: number;
  numberOfPayments: number;
  totalInterest: number;
  totalGst: number;
  totalOutflow: number;
};

export type Figure = { from: number; to: number; difference: number };

export type ScheduleDiff = {
  from: ScheduleVersion;
  to: ScheduleVersion;
  changes: { emi: Figure; tenure: Figure; totalInterest: Figure; totalGst: Figure; totalOutflow: Figure };
  rows: { paymentNumber: number; from: ScheduleRow | null; to: ScheduleRow | null }[];
};

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
      transformResponse: (answer: Envelope<TimelinePage>) => answer.data,
      ...infinite,
      providesTags: ['History'],
    }),
    getItemHistory: build.query<TimelinePage, ItemHistoryArgs>({
      extraOptions: { errorFallback: 'Failed to load history' },
      query: ({ kind, id, cursor }) => ({
        url: `/${kind}/${id}/history`,
        params: { limit: HISTORY_PAGE_SIZE, ...(cursor ? { cursor } : {}) },
      }),
      // Transaction answers keep the server's names; this one is read in camelCase either way.
      transformResponse: (
        answer: Envelope<{
          entries: TimelineEntry[];
          next_cursor?: string | null;
          nextCursor?: string | null;
        }>,
      ) => camelEntries(answer.data),
      ...infinite,
      providesTags: ['History'],
    }),
    getScheduleVersions: build.query<ScheduleVersion[], string>({
      extraOptions: { errorFallback: 'Failed to load schedule versions', screenShowsNotFound: true },
      query: (id) => `/loans/${id}/amortization/versions`,
      transformResponse: (answer: Envelope<{ versions: ScheduleVersion[] }>) => answer.data.versions,
      providesTags: (_r, _e, id) => [{ type: 'Schedule', id }],
    }),
    getScheduleDiff: build.query<ScheduleDiff, { id: string; from: number; to: number }>({
      extraOptions: { errorFallback: 'Failed to compare schedule versions' },
      query: ({ id, from, to }) => ({ url: `/loans/${id}/amortization/diff`, params: { from, to } }),
      transformResponse: (answer: Envelope<ScheduleDiff>) => answer.data,
    }),
    getExportPublicKey: build.query<{ algorithm: 'Ed25519'; publicKey: string; pem: string }, void>({
      extraOptions: { errorFallback: 'Failed to load the server key' },
      query: () => '/export/public-key',
      transformResponse: (answer: Envelope<{ algorithm: 'Ed25519'; publicKey: string; pem: string }>) =>
        answer.data,
    }),
  }),
});

type RawEntry = TimelineEntry & { recorded_at?: string; correlation_id?: string };

/** `/transactions/...` answers arrive in snake_case (keepsServerNames): read both. */
function camelEntries(data: {
  entries: RawEntry[];
  next_cursor?: string | null;
  nextCursor?: string | null;
}): TimelinePage {
  return {
    entries: data.entries.map(({ recorded_at, correlation_id, ...e }) => ({
      ...e,
      recordedAt: e.recordedAt ?? recorded_at ?? '',
      correlationId: e.correlationId ?? correlation_id ?? '',
    })),
    nextCursor: data.nextCursor ?? data.next_cursor ?? null,
  };
}

export const {
  useGetTimelineQuery,
  useGetItemHistoryQuery,
  useGetScheduleVersionsQuery,
  useGetScheduleDiffQuery,
  useLazyGetExportPublicKeyQuery,
} = historyApi;
