import type * as wire from '@kosh/contract';
import { api } from '../api/baseApi';
import { idempotencyHeaders } from '../api/idempotency';

export type Recurring = wire.WireRecurring;
export type Occurrence = wire.WireOccurrence;
export type Notifications = wire.WireNotifications;
export type CashFlow = wire.CashFlowResponse['data'];

/** What the recurring dialog sends: money in rupees, empty fields as null. */
export type RecurringBody = {
  transaction_type: 'C' | 'D';
  amount: number;
  notes: string;
  payee: string | null;
  category_id: string | null;
  account_id: string | null;
  frequency: Recurring['frequency'];
  day_of_month: number | null;
  start_date: string;
  end_date: string | null;
};

/**
 * An entry's change shows in the list, the upcoming occurrences and the forecast; a posting may
 * follow at once (the workers), so the book is refetched too.
 */
const entryChanged = ['Recurring', 'CashFlow', { type: 'Transaction', id: 'LIST' }, 'History'] as const;

type OccurrenceRef = { id: string; date: string };
const occurrenceUrl = ({ id, date }: OccurrenceRef) =>
  `/recurring/${encodeURIComponent(id)}/occurrences/${encodeURIComponent(date)}`;

export const recurringApi = api.injectEndpoints({
  endpoints: (build) => ({
    getRecurring: build.query<Recurring[], void>({
      extraOptions: { errorFallback: 'Failed to load recurring entries' },
      query: () => ({ url: '/recurring' }),
      transformResponse: (answer: { data: { recurring: Recurring[] } }) => answer.data.recurring,
      providesTags: ['Recurring'],
    }),
    getUpcoming: build.query<Occurrence[], number>({
      extraOptions: { errorFallback: 'Failed to load upcoming occurrences' },
      query: (days) => ({ url: '/recurring/upcoming', params: { days } }),
      transformResponse: (answer: { data: { occurrences: Occurrence[] } }) => answer.data.occurrences,
      providesTags: ['Recurring'],
    }),
    createRecurring: build.mutation<unknown, { body: RecurringBody; idempotencyKey: string }>({
      extraOptions: { errorFallback: 'Failed to create recurring entry' },
      query: ({ body, idempotencyKey }) => ({
        url: '/recurring',
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: [...entryChanged],
    }),
    updateRecurring: build.mutation<unknown, { id: string; body: RecurringBody }>({
      extraOptions: { errorFallback: 'Failed to update recurring entry' },
      query: ({ id, body }) => ({ url: `/recurring/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: [...entryChanged],
    }),
    deleteRecurring: build.mutation<unknown, string>({
      extraOptions: { errorFallback: 'Failed to delete recurring entry' },
      query: (id) => ({ url: `/recurring/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [...entryChanged],
    }),
    skipOccurrence: build.mutation<unknown, OccurrenceRef>({
      extraOptions: { errorFallback: 'Failed to skip the occurrence' },
      query: (ref) => ({ url: `${occurrenceUrl(ref)}/skip`, method: 'POST' }),
      invalidatesTags: [...entryChanged],
    }),
    changeOccurrence: build.mutation<unknown, OccurrenceRef & { amount: number; notes: string }>({
      extraOptions: { errorFallback: 'Failed to change the occurrence' },
      query: ({ amount, notes, ...ref }) => ({
        url: occurrenceUrl(ref),
        method: 'PUT',
        body: { amount, notes },
      }),
      invalidatesTags: [...entryChanged],
    }),
    restoreOccurrence: build.mutation<unknown, OccurrenceRef>({
      extraOptions: { errorFallback: 'Failed to restore the occurrence' },
      query: (ref) => ({ url: occurrenceUrl(ref), method: 'DELETE' }),
      invalidatesTags: [...entryChanged],
    }),
    getNotifications: build.query<Notifications, void>({
      extraOptions: { errorFallback: 'Failed to load reminder preferences' },
      query: () => ({ url: '/profile/notifications' }),
      transformResponse: (answer: { data: { notifications: Notifications } }) => answer.data.notifications,
      providesTags: ['Notifications'],
    }),
    setNotifications: build.mutation<unknown, Notifications>({
      extraOptions: { errorFallback: 'Failed to save reminder preferences' },
      query: (body) => ({ url: '/profile/notifications', method: 'PUT', body }),
      invalidatesTags: ['Notifications', 'History'],
    }),
    getCashFlow: build.query<CashFlow, { asOf?: string }>({
      extraOptions: { errorFallback: 'Failed to load the cash-flow forecast' },
      query: ({ asOf }) => ({ url: '/reports/cash-flow', params: asOf ? { as_of: asOf } : {} }),
      transformResponse: (answer: wire.CashFlowResponse) => answer.data,
      providesTags: ['CashFlow'],
    }),
  }),
});

export const {
  useGetRecurringQuery,
  useGetUpcomingQuery,
  useCreateRecurringMutation,
  useUpdateRecurringMutation,
  useDeleteRecurringMutation,
  useSkipOccurrenceMutation,
  useChangeOccurrenceMutation,
  useRestoreOccurrenceMutation,
  useGetNotificationsQuery,
  useSetNotificationsMutation,
  useGetCashFlowQuery,
} = recurringApi;
