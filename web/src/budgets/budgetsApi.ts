import type * as wire from '@kosh/contract';
import { api } from '../api/baseApi';
import { idempotencyHeaders } from '../api/idempotency';
import { asOfParams } from '../history/asOf';

export type Budget = wire.WireBudget;
export type BudgetStanding = wire.WireBudgetStatus;
export type BudgetStatus = wire.BudgetStatusResponse['data'];
export type BudgetBody = { category_id?: string; amount: string; rollover: boolean };

/** A budget's change moves the list and every month's status. */
const budgetsMoved = [{ type: 'Budget', id: 'LIST' }] as const;

/** Budgets (issue 31), read in the server's names. */
export const budgetsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBudgets: build.query<Budget[], { asOf?: string } | undefined>({
      extraOptions: { errorFallback: 'Failed to load budgets' },
      query: (args) => ({ url: '/budgets', params: asOfParams(args?.asOf) }),
      transformResponse: (answer: wire.BudgetListResponse) => answer.data.budgets,
      providesTags: [...budgetsMoved],
    }),
    getBudgetStatus: build.query<BudgetStatus, { month: number; year: number; asOf?: string }>({
      extraOptions: { errorFallback: 'Failed to load budgets' },
      query: ({ month, year, asOf }) => ({
        url: '/budgets/status',
        params: { month, year, ...asOfParams(asOf) },
      }),
      transformResponse: (answer: wire.BudgetStatusResponse) => answer.data,
      // Spending moves with the book and the ledger; the tree with the categories.
      providesTags: [...budgetsMoved, 'Ledger', { type: 'Category', id: 'LIST' }],
    }),
    createBudget: build.mutation<wire.BudgetResponse, { body: BudgetBody; idempotencyKey: string }>({
      extraOptions: { errorFallback: 'Failed to set budget' },
      query: ({ body, idempotencyKey }) => ({
        url: '/budgets',
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: [...budgetsMoved],
    }),
    updateBudget: build.mutation<wire.BudgetResponse, { id: string; body: BudgetBody }>({
      extraOptions: { errorFallback: 'Failed to update budget' },
      query: ({ id, body }) => ({ url: `/budgets/${id}`, method: 'PUT', body }),
      invalidatesTags: [...budgetsMoved],
    }),
    deleteBudget: build.mutation<wire.MessageResponse, string>({
      extraOptions: { errorFallback: 'Failed to delete budget' },
      query: (id) => ({ url: `/budgets/${id}`, method: 'DELETE' }),
      invalidatesTags: [...budgetsMoved],
    }),
  }),
});

export const {
  useGetBudgetsQuery,
  useGetBudgetStatusQuery,
  useCreateBudgetMutation,
  useUpdateBudgetMutation,
  useDeleteBudgetMutation,
} = budgetsApi;
