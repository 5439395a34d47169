import { describe, expect, it } from 'vitest';
import { keepsServerNames } from './serverNames';

describe('snake_case on the wire, camelCase in the app (spec section 3)', () => {
  it('reads ledger and transaction answers in their own names', () => {
    expect(keepsServerNames('/transactions')).toBe(true);
    expect(keepsServerNames('/transactions/stats')).toBe(true);
    expect(keepsServerNames('/ledger?month=3&year=2026')).toBe(true);
    expect(keepsServerNames('/ledger/periods')).toBe(true);
    expect(keepsServerNames('/accounts/3f1c/register?page=1')).toBe(true);
    expect(keepsServerNames('/transfers')).toBe(true);
    expect(keepsServerNames('/recurring/upcoming?days=60')).toBe(true);
    expect(keepsServerNames('/profile/notifications')).toBe(true);
    expect(keepsServerNames('/reports/cash-flow')).toBe(true);
    expect(keepsServerNames('/reports/net-worth?as_of=2026-01-01')).toBe(true);
    expect(keepsServerNames('/budgets/status?month=3&year=2026')).toBe(true);
    expect(keepsServerNames('/categories/3f1c/merge')).toBe(true);
    expect(keepsServerNames('/rules/3f1c/apply')).toBe(true);
    expect(keepsServerNames('/loans')).toBe(false);
    expect(keepsServerNames('/auth/profile')).toBe(false);
  });
});
