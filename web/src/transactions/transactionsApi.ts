import type * as wire from '@kosh/contract';
import type { Narrowed } from '@kosh/contract';
import type { TRANSACTION_FIELDS, WireOf } from '@kosh/domain';
import { api } from '../api/baseApi';
import { idempotencyHeaders } from '../api/idempotency';
import type { AppDispatch } from '../app/store';
import { asOfParams, type OptionalAsOf } from '../history/asOf';

/** Transaction answers are read in the server's own names (spec section 3). */
export type TransactionType = wire.WireTransaction['transaction_type'];

export type Transaction = wire.WireTransaction;

/** The list's filters as the screen holds them: empty text is no filter. */
export type TransactionFilters = Narrowed<
  wire.TransactionListQuery,
  {
    search: string;
    transaction_type: '' | TransactionType;
    date_from: string;
    date_to: string;
    /** An account's id, 'none', or '' for every transaction. */
    account_id: string;
    /** A category's id, 'none', or '' for every transaction. */
    category_id: string;
  }
>;

export const NO_FILTERS: TransactionFilters = {
  search: '',
  transaction_type: '',
  date_from: '',
  date_to: '',
  account_id: '',
  category_id: '',
};

export type TransactionList = wire.TransactionListResponse['data'];

export type TransactionPagination = TransactionList['pagination'];

export type TransactionStats = wire.TransactionStatsResponse['data']['stats'];

/**
 * The request body: every declared field (TRANSACTION_FIELDS) under its wire name, as the answer
 * holds it (money in rupees). A field added to the table is added here, and the dialog's body
 * does not compile until it sends it.
 */
export type TransactionBody = Narrowed<wire.TransactionBody, WireOf<typeof TRANSACTION_FIELDS>>;

/** The screen's list request: 10 a page, newest first (spec section 7). */
export const TRANSACTION_PAGE_SIZE = 10;

type ListArgs = { page: number; filters: TransactionFilters; asOf?: string };

function listParams({ page, filters, asOf }: ListArgs): Record<string, string | number> {
  const params: Record<string, string | number> = {
    ...asOfParams(asOf),
    page,
    limit: TRANSACTION_PAGE_SIZE,
    sort_by: 'transaction_date',
    sort_order: 'DESC',
  };
  // Empty values are omitted (spec section 7).
  for (const [key, value] of Object.entries(filters)) if (value.trim() !== '') params[key] = value.trim();
  return params;
}

/** GET /api/transactions.csv with the book's filters (every page; the server ignores paging). */
export function transactionsCsvUrl(filters: TransactionFilters, asOf?: string | null): string {
  const { page: _, limit: __, ...params } = listParams({ page: 1, filters, ...(asOf ? { asOf } : {}) });
  return `/api/transactions.csv?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
}

/** A transaction in an account moves that account's balance and register too. */
const changes = [
  { type: 'Transaction', id: 'LIST' },
  'TransactionStats',
  'Ledger',
  'Periods',
  { type: 'Account', id: 'LIST' },
  'Register',
] as const;

export const transactionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTransactions: build.query<TransactionList, ListArgs>({
      extraOptions: { errorFallback: 'Failed to load transactions' },
      query: (args) => ({ url: '/transactions', params: listParams(args) }),
      transformResponse: (answer: wire.TransactionListResponse) => answer.data,
      providesTags: (result) => [
        { type: 'Transaction', id: 'LIST' },
        ...(result?.transactions ?? []).map((t) => ({ type: 'Transaction' as const, id: t.id })),
      ],
    }),
    getTransactionStats: build.query<TransactionStats, OptionalAsOf>({
      extraOptions: { errorFallback: 'Failed to load transaction statistics' },
      query: (asOf) =>
        asOf ? { url: '/transactions/stats', params: asOfParams(asOf) } : '/transactions/stats',
      transformResponse: (answer: wire.TransactionStatsResponse) => answer.data.stats,
      providesTags: ['TransactionStats'],
    }),
    createTransaction: build.mutation<
      wire.TransactionResponse,
      { body: TransactionBody; idempotencyKey: string }
    >({
      extraOptions: { errorFallback: 'Failed to create transaction' },
      query: ({ body, idempotencyKey }) => ({
        url: '/transactions',
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: [...changes],
    }),
    updateTransaction: build.mutation<wire.TransactionResponse, { id: string; body: TransactionBody }>({
      extraOptions: { errorFallback: 'Failed to update transaction' },
      query: ({ id, body }) => ({ url: `/transactions/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [...changes, { type: 'Transaction', id }],
    }),
    deleteTransaction: build.mutation<wire.MessageResponse, string>({
      extraOptions: { errorFallback: 'Failed to delete transaction' },
      query: (id) => ({ url: `/transactions/${id}`, method: 'DELETE' }),
      // A deleted debit matched to an EMI releases the match: that loan's schedule and status move.
      invalidatesTags: (_r, _e, id) => [
        ...changes,
        { type: 'Transaction', id },
        'Schedule',
        'Loan',
        'LoanStats',
      ],
    }),
  }),
});

export const {
  useGetTransactionsQuery,
  useGetTransactionStatsQuery,
  useCreateTransactionMutation,
  useUpdateTransactionMutation,
  useDeleteTransactionMutation,
} = transactionsApi;

/** The Transaction Book's first answers (page 1, no filter), asked for before the page renders. */
export function prefetchTransactionBook(dispatch: AppDispatch): void {
  dispatch(transactionsApi.util.prefetch('getTransactions', { page: 1, filters: NO_FILTERS }, {}));
  dispatch(transactionsApi.util.prefetch('getTransactionStats', undefined, {}));
}
