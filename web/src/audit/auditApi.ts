import type * as wire from '@kosh/contract';
import type { Camel, CamelBody } from '@kosh/contract';
import { api } from '../api/baseApi';

/** A grant this user gave. */
export type GivenGrant = Camel<wire.WireAuditGrant>;

export type GrantStatus = GivenGrant['status'];

/** A live grant given to this user's address. */
export type ReceivedGrant = Camel<wire.WireReceivedGrant>;

export type AuditGrants = Camel<wire.AuditGrantListResponse['data']>;

export type GrantInput = CamelBody<
  wire.AuditGrantBody,
  { email: string; expiresAt: string; asOfLimit?: string }
>;

const auditApi = api.enhanceEndpoints({ addTagTypes: ['AuditGrant'] }).injectEndpoints({
  endpoints: (build) => ({
    getAuditGrants: build.query<AuditGrants, void>({
      query: () => '/audit-grants',
      transformResponse: (answer: Camel<wire.AuditGrantListResponse>) => answer.data,
      providesTags: ['AuditGrant'],
    }),
    grantAuditAccess: build.mutation<Camel<wire.AuditGrantResponse>, GrantInput>({
      query: (body) => ({ url: '/audit-grants', method: 'POST', body }),
      invalidatesTags: ['AuditGrant'],
      // The form shows each 422 message on its field.
      extraOptions: { errorFallback: 'Failed to grant access' },
    }),
    revokeAuditAccess: build.mutation<wire.MessageOnlyResponse, string>({
      query: (id) => ({ url: `/audit-grants/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['AuditGrant'],
      extraOptions: { errorFallback: 'Failed to revoke access' },
    }),
  }),
});

export const {
  useGetAuditGrantsQuery,
  useLazyGetAuditGrantsQuery,
  useGrantAuditAccessMutation,
  useRevokeAuditAccessMutation,
} = auditApi;
