import { FORM_ERROR } from 'final-form';
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../api/apiError';
import { toSubmissionErrors } from './submissionErrors';

const apiError = (status: number, message: string, errors: ApiError['errors'] = []): ApiError => ({
  success: false,
  message,
  errorCode: 'X',
  errors,
  status,
  timestamp: '2026-11-21T10:00:00.000Z',
});

describe('server errors map back onto the form', () => {
  it('puts each 422 item on its field, wire names turned into form names', () => {
    const error = apiError(422, 'Validation failed', [
      { field: 'current_password', message: 'Current password is incorrect' },
      { field: 'new_password', message: 'Password must be at least 6 characters' },
    ]);
    expect(toSubmissionErrors(error, ['currentPassword', 'newPassword'], 'Failed')).toEqual({
      currentPassword: 'Current password is incorrect',
      newPassword: 'Password must be at least 6 characters',
    });
  });

  it('keeps an item for a field the form lacks as a form-level error', () => {
    const error = apiError(422, 'Validation failed', [{ field: 'token', message: 'Token is required' }]);
    expect(toSubmissionErrors(error, ['password'], 'Failed')).toEqual({
      [FORM_ERROR]: 'token: Token is required',
    });
  });

  it('shows any other failure on the form, with the fallback when it is not an API answer', () => {
    expect(toSubmissionErrors(apiError(401, 'Invalid email or password'), ['email'], 'Login failed')).toEqual(
      {
        [FORM_ERROR]: 'Invalid email or password',
      },
    );
    expect(toSubmissionErrors(new Error('boom'), ['email'], 'Login failed')).toEqual({
      [FORM_ERROR]: 'Login failed',
    });
  });
});
