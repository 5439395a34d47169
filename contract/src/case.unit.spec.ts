import { describe, expect, it } from 'vitest';
import { camelizeKeys, snakifyKeys, toCamelKey } from './case';

describe('snake_case on the wire, camelCase in the app (spec section 3)', () => {
  it('camelises every key of an answer, nested and in lists, leaving values alone', () => {
    expect(
      camelizeKeys({
        success: true,
        data: { user: { first_name: 'Asha', profile_picture: null, created_at: '2026-01-01T00:00:00Z' } },
        errors: [{ field: 'first_name', message: 'First name is required' }],
      }),
    ).toEqual({
      success: true,
      data: { user: { firstName: 'Asha', profilePicture: null, createdAt: '2026-01-01T00:00:00Z' } },
      errors: [{ field: 'first_name', message: 'First name is required' }],
    });
  });

  it('snake-cases outgoing payloads', () => {
    expect(snakifyKeys({ currentPassword: 'a', newPassword: 'b', rememberMe: true })).toEqual({
      current_password: 'a',
      new_password: 'b',
      remember_me: true,
    });
    expect(toCamelKey('is_interest_rate_yearly')).toBe('isInterestRateYearly');
  });
});
