import { camelizeKeys, snakifyKeys } from '@kosh/contract';
import {
  type BaseQueryFn,
  createApi,
  defaultSerializeQueryArgs,
  type FetchArgs,
  type FetchBaseQueryMeta,
  fetchBaseQuery,
} from '@reduxjs/toolkit/query/react';
import { navigate } from 'wouter/use-browser-location';
import { auditAccount, noteAuditRefusal, readsAuditedAccount } from '../audit/auditMode';
import { sessionEnded } from '../auth/sessionActions';
import { isTokenExpired } from '../auth/token';
import { TOAST_TIMEOUT_MS, toast } from '../toaster';
import { type ApiError, toApiError, toastMessagesFor } from './apiError';
import { fetchOrTakeEarly } from './earlyFetch';
import { carriesIdempotencyKey } from './idempotency';
import { keepsServerNames } from './serverNames';

/** Spec section 7: base path /api, 30 s timeout. */
export const REQUEST_TIMEOUT_MS = 30_000;

type SessionState = { session: { token: string | null } };

/**
 * How long the base query's failure toasts stay (default TOAST_TIMEOUT_MS). A whole endpoint asks
 * with `extraOptions: { errorToastMs }`; a screen asks per call by putting it in the query arg
 * (`useGetBanksQuery({ errorToastMs: 8000 })`), which the endpoint's `query` passes on in its
 * FetchArgs. It is never sent and never part of the cache key.
 */
export type ToastOptions = { errorToastMs?: number };

/**
 * An endpoint's `extraOptions`: its toast timeout, and its screen's fallback text of spec
 * section 8, shown (toast and rejected value) when the server answers without a message.
 */
export type EndpointOptions = ToastOptions & {
  errorFallback?: string;
  /** Every screen of this call shows 'Loan not found' itself: no toast repeats a 404. */
  screenShowsNotFound?: boolean;
};

type Args = string | (FetchArgs & ToastOptions);

function hasToastOptions(value: unknown): value is Record<string, unknown> & ToastOptions {
  return !!value && typeof value === 'object' && !Array.isArray(value) && 'errorToastMs' in value;
}

/** A query arg as a cache key: without toast options (an arg of nothing else is no arg). */
function withoutToastOptions(queryArgs: unknown): unknown {
  if (!hasToastOptions(queryArgs)) return queryArgs;
  const { errorToastMs: _, ...rest } = queryArgs;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** The request proper, and the failure-toast timeout it asked for. */
function splitToastOptions(args: Args): { request: string | FetchArgs; errorToastMs?: number } {
  if (typeof args === 'string') return { request: args };
  const { errorToastMs, ...request } = args;
  return { request, errorToastMs };
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api',
  timeout: REQUEST_TIMEOUT_MS,
  // A cold start's first reads may already be on their way (earlyFetch.ts, boot.ts).
  fetchFn: fetchOrTakeEarly,
  prepareHeaders(headers, { getState, arg }) {
    const { token } = (getState() as SessionState).session;
    // Spec section 4: an expired (or undecodable) token is never sent.
    if (token && !isTokenExpired(token, Date.now())) headers.set('Authorization', `Bearer ${token}`);
    // Issue 14 audit mode: reads of the account name the owner whose account is being audited.
    const audited = auditAccount();
    if (audited && readsAuditedAccount(urlOf(arg))) headers.set('X-Kosh-Account', audited.ownerUserId);
    return headers;
  },
});

/** Pauses before re-sending a create whose answer a network error swallowed. */
const NETWORK_RETRY_DELAYS_MS = [500, 2000];

/**
 * Sends the request; a create carrying an Idempotency-Key is sent again after a network error
 * (its write may have happened: the server then answers the first answer, never a second entry).
 * Nothing else is retried: without a key a second send could write twice.
 */
async function send(request: string | FetchArgs, api: Parameters<typeof rawBaseQuery>[1]) {
  let result = await rawBaseQuery(request, api, {});
  if (!carriesIdempotencyKey(request)) return result;
  for (const delay of NETWORK_RETRY_DELAYS_MS) {
    if (result.error?.status !== 'FETCH_ERROR' || api.signal.aborted) break;
    await new Promise((resolve) => setTimeout(resolve, delay));
    result = await rawBaseQuery(request, api, {});
  }
  return result;
}

function urlOf(args: string | FetchArgs): string {
  return typeof args === 'string' ? args : args.url;
}

function withSnakeCaseBody(args: string | FetchArgs): string | FetchArgs {
  if (typeof args === 'string' || args.body === undefined || keepsServerNames(args.url)) return args;
  return { ...args, body: snakifyKeys(args.body) };
}

function onUnauthorized(
  dispatch: (action: ReturnType<typeof sessionEnded>) => unknown,
  getState: () => unknown,
): void {
  // Without a session (a failed sign-in) there is nothing to end, and ending one would abort
  // the very request whose answer the sign-in form is waiting for.
  if (!(getState() as SessionState).session.token) return;
  dispatch(sessionEnded());
  if (window.location.pathname !== '/login') {
    navigate('/login', { replace: true });
    toast.error('Session expired. Please login again.');
  }
}

/**
 * fetchBaseQuery plus the spec's conventions: snake_case on the wire, camelCase in the app
 * (except ledger and transaction answers), and every failure turned into the spec's rejected
 * value with its toast (section 8).
 */
const baseQuery: BaseQueryFn<Args, unknown, ApiError, EndpointOptions, FetchBaseQueryMeta> = async (
  args,
  api,
  extraOptions = {},
) => {
  const { request, errorToastMs } = splitToastOptions(args);
  const result = await send(withSnakeCaseBody(request), api);
  if (result.error) {
    const error = toApiError(result.error, new Date(), extraOptions.errorFallback);
    const timeout = errorToastMs ?? extraOptions.errorToastMs ?? TOAST_TIMEOUT_MS;
    // A 404 its screen shows as a page state is not said again by a toast.
    const shownByScreen = error.status === 404 && extraOptions.screenShowsNotFound === true;
    if (error.status === 401) onUnauthorized(api.dispatch, api.getState);
    if (error.errorCode === 'NO_ACCOUNT_ACCESS') noteAuditRefusal();
    else if (!shownByScreen) for (const message of toastMessagesFor(error)) toast.error(message, timeout);
    return { error, meta: result.meta };
  }
  const data = keepsServerNames(urlOf(request)) ? result.data : camelizeKeys(result.data);
  return { data, meta: result.meta };
};

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  // The toast options of a query arg say how to report a failure, not which data: same cache entry.
  serializeQueryArgs: ({ queryArgs, ...rest }) =>
    defaultSerializeQueryArgs({ ...rest, queryArgs: withoutToastOptions(queryArgs) }),
  tagTypes: [
    'Loan',
    'LoanStats',
    'Schedule',
    'Bank',
    'LoanType',
    'Transaction',
    'TransactionStats',
    'Ledger',
    'Periods',
    'User',
    'History',
    'Account',
    'Register',
    'Transfer',
    'Import',
    'Erasure',
    'TwoFactor',
    'Session',
    'Category',
    'Rule',
    'Recurring',
    'Notifications',
    'CashFlow',
    'Budget',
  ],
  endpoints: () => ({}),
});
