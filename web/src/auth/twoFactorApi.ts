import type {
  Camel,
  CamelBody,
  LoginTwoFactorBody,
  MessageResponse,
  RecoveryCodesResponse,
  SessionResponse,
  SessionsResponse,
  TwoFactorCodeBody,
  TwoFactorDisableBody,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
} from '@kosh/contract';
import { api } from '../api/baseApi';

export type TwoFactorStatus = Camel<TwoFactorStatusResponse>['data'];
export type TwoFactorSetup = Camel<TwoFactorSetupResponse>['data'];
export type Session = Camel<SessionsResponse>['data']['sessions'][number];
type CodeRequest = CamelBody<TwoFactorCodeBody, { code: string }>;

/** Issue 32: two-factor sign-in and the session list, /api/auth/2fa and /api/auth/sessions. */
export const twoFactorApi = api.injectEndpoints({
  endpoints: (build) => ({
    loginTwoFactor: build.mutation<
      Camel<SessionResponse>,
      CamelBody<LoginTwoFactorBody, { pendingToken: string; code: string }>
    >({
      extraOptions: { errorFallback: 'Login failed' },
      query: (body) => ({ url: '/auth/login/2fa', method: 'POST', body }),
    }),
    getTwoFactor: build.query<TwoFactorStatus, void>({
      query: () => '/auth/2fa',
      transformResponse: (answer: Camel<TwoFactorStatusResponse>) => answer.data,
      providesTags: ['TwoFactor'],
    }),
    setupTwoFactor: build.mutation<Camel<TwoFactorSetupResponse>, void>({
      extraOptions: { errorFallback: 'Failed to start two-factor setup' },
      query: () => ({ url: '/auth/2fa/setup', method: 'POST' }),
    }),
    confirmTwoFactor: build.mutation<Camel<RecoveryCodesResponse>, CodeRequest>({
      extraOptions: { errorFallback: 'Failed to turn on two-factor sign-in' },
      query: (body) => ({ url: '/auth/2fa/confirm', method: 'POST', body }),
      invalidatesTags: ['TwoFactor'],
    }),
    regenerateRecoveryCodes: build.mutation<Camel<RecoveryCodesResponse>, CodeRequest>({
      extraOptions: { errorFallback: 'Failed to make new recovery codes' },
      query: (body) => ({ url: '/auth/2fa/recovery-codes', method: 'POST', body }),
      invalidatesTags: ['TwoFactor'],
    }),
    disableTwoFactor: build.mutation<
      MessageResponse,
      CamelBody<TwoFactorDisableBody, { password: string; code: string }>
    >({
      extraOptions: { errorFallback: 'Failed to turn off two-factor sign-in' },
      query: (body) => ({ url: '/auth/2fa/disable', method: 'POST', body }),
      invalidatesTags: ['TwoFactor'],
    }),
    getSessions: build.query<Session[], void>({
      query: () => '/auth/sessions',
      transformResponse: (answer: Camel<SessionsResponse>) => answer.data.sessions,
      providesTags: ['Session'],
    }),
    endSession: build.mutation<MessageResponse, string>({
      extraOptions: { errorFallback: 'Failed to end the session' },
      query: (id) => ({ url: `/auth/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Session'],
    }),
    endOtherSessions: build.mutation<MessageResponse, void>({
      extraOptions: { errorFallback: 'Failed to end the other sessions' },
      query: () => ({ url: '/auth/sessions?others=true', method: 'DELETE' }),
      invalidatesTags: ['Session'],
    }),
  }),
});

export const {
  useLoginTwoFactorMutation,
  useGetTwoFactorQuery,
  useSetupTwoFactorMutation,
  useConfirmTwoFactorMutation,
  useRegenerateRecoveryCodesMutation,
  useDisableTwoFactorMutation,
  useGetSessionsQuery,
  useEndSessionMutation,
  useEndOtherSessionsMutation,
} = twoFactorApi;
