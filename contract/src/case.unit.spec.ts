import { describe, expect, expectTypeOf, it } from 'vitest';
import { type Camel, type CamelBody, camelizeKeys, snakifyKeys, toCamelKey } from './case';

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

  it('types an answer as camelizeKeys returns it', () => {
    const wire = { total_items: 2, loans: [{ loan_type: { type_name: 'Home' }, short_detail: null }] };
    const camel = camelizeKeys(wire) as Camel<typeof wire>;
    expectTypeOf(camel).toEqualTypeOf<{
      totalItems: number;
      loans: { loanType: { typeName: string }; shortDetail: null }[];
    }>();
    expect(camel.loans[0]?.loanType.typeName).toBe('Home');
  });

  it('refuses a client body naming a field the wire does not have', () => {
    type Wire = { bank_id?: unknown; account_number?: unknown };
    expectTypeOf<CamelBody<Wire, { bankId: number }>>().toEqualTypeOf<{ bankId: number }>();
    // @ts-expect-error: `bankName` is no field of the wire body.
    expectTypeOf<CamelBody<Wire, { bankName: string }>>();
  });
});
