import { describe, expect, it } from 'vitest';
import { toApiError, toastMessagesFor } from './apiError';

const now = new Date('2026-11-21T10:00:00.000Z');
const failure = (status: number, data: unknown = {}) => toApiError({ status, data }, now);

describe('every failure becomes the spec rejected value with its toast (section 8)', () => {
  it('uses the fixed messages for 401, 429 and 500', () => {
    expect(failure(401).message).toBe('Session expired. Please login again.');
    // Its toast comes with the end of the session, never on /login (baseApi.ts).
    expect(toastMessagesFor(failure(401, { message: 'Invalid email or password' }))).toEqual([]);
    expect(failure(429, { message: 'whatever' }).message).toBe('Too many requests. Please try again later.');
    expect(failure(500, { message: 'stack trace' }).message).toBe('Server error. Please try again later.');
  });

  it('prefers the server message for 403, 404 and other statuses, with the fallbacks', () => {
    expect(failure(403, { message: 'Not yours' }).message).toBe('Not yours');
    expect(failure(403).message).toBe('Access forbidden');
    expect(failure(404).message).toBe('Resource not found');
    expect(failure(409, { message: 'Email already registered' }).message).toBe('Email already registered');
    expect(failure(409).message).toBe('An error occurred');
    expect(failure(502).message).toBe('An error occurred');
  });

  it('shows each 422 item as "field: message", else the message, else "Validation failed"', () => {
    const error = failure(422, {
      message: 'Validation failed',
      errors: [
        { field: 'email', message: 'Enter a valid email' },
        { field: 'password', message: 'Password is required' },
      ],
    });
    expect(toastMessagesFor(error)).toEqual(['email: Enter a valid email', 'password: Password is required']);
    expect(toastMessagesFor(failure(422, { message: 'Bad input' }))).toEqual(['Bad input']);
    expect(toastMessagesFor(failure(422))).toEqual(['Validation failed']);
  });

  it('with a screen fallback: the server message, else that fallback, whatever the status', () => {
    const screen = (status: number, data: unknown = {}) =>
      toApiError({ status, data }, now, 'Failed to load ledger data').message;
    expect(screen(500)).toBe('Failed to load ledger data');
    expect(screen(400)).toBe('Failed to load ledger data');
    expect(screen(500, { message: 'Ledger offline' })).toBe('Ledger offline');
    expect(screen(401, { message: 'Invalid token' })).toBe('Invalid token');
    expect(toApiError({ status: 'FETCH_ERROR', error: 'x' }, now, 'Failed').message).toBe(
      'Network error. Please check your connection.',
    );
  });

  it('carries success, message, errorCode, errors, status and timestamp', () => {
    expect(failure(404, { message: 'Loan not found', errorCode: 'NOT_FOUND' })).toEqual({
      success: false,
      message: 'Loan not found',
      errorCode: 'NOT_FOUND',
      errors: [],
      status: 404,
      timestamp: now.toISOString(),
    });
  });

  it('no answer is a NETWORK_ERROR; anything else an UNKNOWN_ERROR', () => {
    expect(toApiError({ status: 'FETCH_ERROR', error: 'TypeError' }, now)).toMatchObject({
      message: 'Network error. Please check your connection.',
      errorCode: 'NETWORK_ERROR',
      status: null,
    });
    expect(toApiError({ status: 'TIMEOUT_ERROR', error: 'timeout' }, now).errorCode).toBe('NETWORK_ERROR');
    expect(toApiError({ status: 'CUSTOM_ERROR', error: 'boom' }, now)).toMatchObject({
      message: 'An unexpected error occurred',
      errorCode: 'UNKNOWN_ERROR',
    });
  });

  it('an unparseable error page still counts by its status', () => {
    expect(
      toApiError({ status: 'PARSING_ERROR', originalStatus: 500, data: '<html>', error: 'x' }, now).message,
    ).toBe('Server error. Please try again later.');
  });
});
