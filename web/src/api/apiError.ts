import type { ErrorResponse, FieldError } from '@kosh/contract';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';

/** The rejected value of every failed call (spec section 8): the server's error envelope and its status. */
export type ApiError = ErrorResponse & { status: number | null };

/** The error envelope as it may arrive: any field missing or of another type. */
type ServerEnvelope = { [K in keyof ErrorResponse]?: unknown };

const SESSION_EXPIRED = 'Session expired. Please login again.';

function fieldErrors(value: unknown): FieldError[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) =>
    item && typeof item === 'object' && typeof item.message === 'string'
      ? [{ field: typeof item.field === 'string' ? item.field : '', message: item.message }]
      : [],
  );
}

function fallbackMessage(status: number, serverMessage: string | undefined): string {
  switch (status) {
    case 401:
      return serverMessage ?? SESSION_EXPIRED;
    case 403:
      return serverMessage ?? 'Access forbidden';
    case 404:
      return serverMessage ?? 'Resource not found';
    case 422:
      return serverMessage ?? 'Validation failed';
    case 429:
      return 'Too many requests. Please try again later.';
    case 500:
      return 'Server error. Please try again later.';
    default:
      return serverMessage ?? 'An error occurred';
  }
}

/**
 * Turns any fetchBaseQuery failure into the spec's rejected value. A call with a screen fallback
 * of section 8 ('Failed to load ledger data', …) shows the server's message, else that fallback,
 * whatever the status ("these screens do not treat individual status codes specially"); a 401
 * still ends the session, and a call that got no answer is still a network error.
 */
export function toApiError(error: FetchBaseQueryError, now: Date, screenFallback?: string): ApiError {
  const timestamp = now.toISOString();
  if (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR') {
    return {
      success: false,
      message: 'Network error. Please check your connection.',
      errorCode: 'NETWORK_ERROR',
      errors: [],
      status: null,
      timestamp,
    };
  }
  const status =
    typeof error.status === 'number'
      ? error.status
      : error.status === 'PARSING_ERROR'
        ? error.originalStatus
        : null;
  if (status === null) {
    return {
      success: false,
      message: 'An unexpected error occurred',
      errorCode: 'UNKNOWN_ERROR',
      errors: [],
      status: null,
      timestamp,
    };
  }
  const body = (error.data && typeof error.data === 'object' ? error.data : {}) as ServerEnvelope;
  const serverMessage = typeof body.message === 'string' && body.message !== '' ? body.message : undefined;
  return {
    success: false,
    message:
      screenFallback !== undefined && status !== 401
        ? (serverMessage ?? screenFallback)
        : fallbackMessage(status, serverMessage),
    errorCode: typeof body.errorCode === 'string' ? body.errorCode : `HTTP_${status}`,
    errors: fieldErrors(body.errors),
    status,
    timestamp: typeof body.timestamp === 'string' ? body.timestamp : timestamp,
  };
}

/**
 * The toasts a failure shows, by status (spec section 8). A 401 shows none here: its toast comes
 * with the end of the session (baseApi.ts), never on /login, where a wrong password is said by the
 * form alone (spec section 4).
 */
export function toastMessagesFor(error: ApiError): string[] {
  switch (error.status) {
    case 401:
      return [];
    case 422:
      return error.errors.length > 0 ? error.errors.map((e) => `${e.field}: ${e.message}`) : [error.message];
    default:
      return [error.message];
  }
}

export function isApiError(value: unknown): value is ApiError {
  return (
    !!value &&
    typeof value === 'object' &&
    (value as ApiError).success === false &&
    typeof (value as ApiError).message === 'string'
  );
}
