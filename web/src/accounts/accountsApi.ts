import type * as wire from '@kosh/contract';
import { api } from '../api/baseApi';
import { idempotencyHeaders } from '../api/idempotency';
import { asOfParams } from '../history/asOf';

export type Account = wire.WireAccount;
export type AccountKind = Account['kind'];
export type RegisterEntry = wire.WireRegisterEntry;
export type Register = wire.RegisterResponse['data'];

/** What the account dialog sends: money in rupees, empty fields as null. */
export type AccountBody = {
  name: string;
  kind: AccountKind;
  bank_id: number | null;
  bank_name: string | null;
  last_four: string | null;
  opening_balance: number;
  opening_date: string;
};

export type TransferBody = {
  from_account_id: string;
  to_account_id: string;
  amount: number;
  transfer_date: string;
  notes: string;
};

export const REGISTER_PAGE_SIZE = 50;

/** An account's balance, the list's balances and every register move with these. */
const moneyMoved = [{ type: 'Account', id: 'LIST' }, 'Register'] as const;
/** A transfer is never in the book, the totals or the ledger: only the accounts move. */
const transferChanges = [...moneyMoved, 'Transfer'] as const;

export const accountsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAccounts: build.query<Account[], { asOf?: string } | undefined>({
      extraOptions: { errorFallback: 'Failed to load accounts' },
      query: (args) => ({ url: '/accounts', params: asOfParams(args?.asOf) }),
      transformResponse: (answer: wire.AccountListResponse) => answer.data.accounts,
      providesTags: (result) => [
        { type: 'Account', id: 'LIST' },
        ...(result ?? []).map((a) => ({ type: 'Account' as const, id: a.id })),
      ],
    }),
    getRegister: build.query<Register, { id: string; page: number; asOf?: string }>({
      extraOptions: { errorFallback: 'Failed to load the register' },
      query: ({ id, page, asOf }) => ({
        url: `/accounts/${encodeURIComponent(id)}/register`,
        params: { ...asOfParams(asOf), page, limit: REGISTER_PAGE_SIZE, sort_order: 'DESC' },
      }),
      transformResponse: (answer: wire.RegisterResponse) => answer.data,
      providesTags: (_r, _e, { id }) => ['Register', { type: 'Account', id }],
    }),
    createAccount: build.mutation<wire.AccountResponse, { body: AccountBody; idempotencyKey: string }>({
      extraOptions: { errorFallback: 'Failed to create account' },
      query: ({ body, idempotencyKey }) => ({
        url: '/accounts',
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: [...moneyMoved],
    }),
    updateAccount: build.mutation<wire.AccountResponse, { id: string; body: AccountBody }>({
      extraOptions: { errorFallback: 'Failed to update account' },
      query: ({ id, body }) => ({ url: `/accounts/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [...moneyMoved, { type: 'Account', id }],
    }),
    deleteAccount: build.mutation<wire.MessageResponse, string>({
      extraOptions: { errorFallback: 'Failed to delete account' },
      query: (id) => ({ url: `/accounts/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [...moneyMoved, { type: 'Account', id }],
    }),
    createTransfer: build.mutation<wire.TransferResponse, { body: TransferBody; idempotencyKey: string }>({
      extraOptions: { errorFallback: 'Failed to record transfer' },
      query: ({ body, idempotencyKey }) => ({
        url: '/transfers',
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: [...transferChanges],
    }),
    deleteTransfer: build.mutation<wire.MessageResponse, string>({
      extraOptions: { errorFallback: 'Failed to delete transfer' },
      query: (id) => ({ url: `/transfers/${id}`, method: 'DELETE' }),
      invalidatesTags: [...transferChanges],
    }),
  }),
});

export const {
  useGetAccountsQuery,
  useGetRegisterQuery,
  useCreateAccountMutation,
  useUpdateAccountMutation,
  useDeleteAccountMutation,
  useCreateTransferMutation,
  useDeleteTransferMutation,
} = accountsApi;
