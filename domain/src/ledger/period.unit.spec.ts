import { describe, expect, it } from 'vitest';
import { monthName, monthOf, monthRange } from './period';

describe('ledger months', () => {
  it('turn over at midnight in India', () => {
    expect(monthOf(new Date('2025-03-31T18:29:59Z'))).toEqual({ year: 2025, month: 3 });
    expect(monthOf(new Date('2025-03-31T18:30:00Z'))).toEqual({ year: 2025, month: 4 });
    expect(monthOf(new Date('2024-12-31T20:00:00Z'))).toEqual({ year: 2025, month: 1 });
  });

  it('span the first to the last day, leap years included', () => {
    expect(monthRange(2024, 2)).toEqual({ startDate: '2024-02-01', endDate: '2024-02-29' });
    expect(monthRange(2100, 2)).toEqual({ startDate: '2100-02-01', endDate: '2100-02-28' });
    expect(monthRange(2025, 4)).toEqual({ startDate: '2025-04-01', endDate: '2025-04-30' });
    expect(monthRange(2025, 12)).toEqual({ startDate: '2025-12-01', endDate: '2025-12-31' });
    expect(monthName(9)).toBe('September');
  });
});
