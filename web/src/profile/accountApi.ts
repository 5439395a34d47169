import type * as wire from '@kosh/contract';
import type { Camel } from '@kosh/contract';
import { api } from '../api/baseApi';

/** Issue 32: the pending deletion of one's account (null when none). */
export type Erasure = Camel<wire.WireErasure>;
export type EraseAccountInput = { password: string; code?: string; confirmation: string };

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    getErasure: build.query<Erasure | null, void>({
      extraOptions: { errorFallback: 'Failed to load the account status' },
      query: () => '/account/erasure',
      transformResponse: (answer: Camel<wire.ErasureResponse>) => answer.data.erasure,
      providesTags: ['Erasure'],
    }),
    requestErasure: build.mutation<Camel<wire.ErasureResponse>, EraseAccountInput>({
      extraOptions: { errorFallback: 'Failed to delete the account' },
      query: (body) => ({ url: '/account', method: 'DELETE', body }),
      invalidatesTags: ['Erasure'],
    }),
    cancelErasure: build.mutation<Camel<wire.ErasureResponse>, void>({
      extraOptions: { errorFallback: 'Failed to cancel the deletion' },
      query: () => ({ url: '/account/restore', method: 'POST' }),
      invalidatesTags: ['Erasure'],
    }),
  }),
});

export const { useGetErasureQuery, useRequestErasureMutation, useCancelErasureMutation } = accountApi;
