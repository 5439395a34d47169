import { describe, expect, it } from 'vitest';
import { lastTwelveMonths } from './dashboardApi';

describe('lastTwelveMonths', () => {
  it('ends with the given month and crosses the year boundary', () => {
    const months = lastTwelveMonths(3, 2026);
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({ month: 4, year: 2025 });
    expect(months[8]).toEqual({ month: 12, year: 2025 });
    expect(months[11]).toEqual({ month: 3, year: 2026 });
  });
});
