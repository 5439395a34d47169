import { api, type Envelope } from '../api/baseApi';

export type GrantStatus = 'active' | 'expired' | 'revoked';

/** A grant this user gave. */
export type GivenGrant = {
  id: string;
  email: string;
  expiresAt: string;
  asOfLimit: string | null;
  grantedAt: string;
  revokedAt: string | null;
  status: GrantStatus;
};

/** A live grant given to this user's address. */
export type ReceivedGrant = {
  id: string;
  ownerUserId: string;
  ownerName: string;
  expiresAt: string;
  asOfLimit: string | null;
  grantedAt: string;
};

export type AuditGrants = { granted: GivenGrant[]; received: ReceivedGrant[] };

export type GrantInput = { email: string; expiresAt: string; asOfLimit?: string };

const auditApi = api.enhanceEndpoints({ addTagTypes: ['AuditGrant'] }).injectEndpoints({
  endpoints: (build) => ({
    getAuditGrants: build.query<AuditGrants, void>({
      query: () => '/audit-grants',
      transformResponse: (answer: Envelope<AuditGrants>) => answer.data,
      providesTags: ['AuditGrant'],
    }),
    grantAuditAccess: build.mutation<Envelope<{ grant: GivenGrant }>, GrantInput>({
      query: (body) => ({ url: '/audit-grants', method: 'POST', body }),
      invalidatesTags: ['AuditGrant'],
      // The form shows each 422 message on its field.
      extraOptions: { errorFallback: 'Failed to grant access' },
    }),
    revokeAuditAccess: build.mutation<Envelope<null>, string>({
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
