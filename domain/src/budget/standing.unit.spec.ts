import { describe, expect, it } from 'vitest';
import { amountIn, budgetStanding, nextMonth } from './standing';

const spent = (table: Record<string, number>) => (month: string) => table[month] ?? 0;

describe('where a budget stands in a month', () => {
  it('is the amount against what was spent; overspent once spending passes it', () => {
    const budget = { amounts: [{ from: '2026-01', amount: 500000 }], rollover: false, startMonth: '2026-01' };
    expect(budgetStanding(budget, '2026-03', spent({ '2026-02': 100, '2026-03': 600000 }))).toEqual({
      amount: 500000,
      carried: 0,
      available: 500000,
      spent: 600000,
      remaining: -100000,
      overspent: true,
    });
    expect(budgetStanding(budget, '2026-03', spent({ '2026-03': 500000 })).overspent).toBe(false);
  });

  it('rolls over what is left of each month from its start, an overspent month carrying nothing', () => {
    const budget = { amounts: [{ from: '2026-01', amount: 1000 }], rollover: true, startMonth: '2026-01' };
    // Jan: 400 left; Feb: 1400 − 1500 overspent, nothing carried; Mar: 1000 − 100 = 900 left.
    const table = spent({ '2025-12': 5, '2026-01': 600, '2026-02': 1500, '2026-03': 100 });
    expect(budgetStanding(budget, '2026-02', table)).toMatchObject({
      carried: 400,
      available: 1400,
      remaining: -100,
    });
    expect(budgetStanding(budget, '2026-04', table)).toMatchObject({
      carried: 900,
      available: 1900,
      spent: 0,
    });
    expect(budgetStanding(budget, '2025-12', table)).toMatchObject({ carried: 0, available: 1000 });
  });

  it('uses the amount each month had: a change counts from its month on', () => {
    const amounts = [
      { from: '2026-01', amount: 1000 },
      { from: '2026-03', amount: 3000 },
    ];
    expect([
      amountIn(amounts, '2025-06'),
      amountIn(amounts, '2026-02'),
      amountIn(amounts, '2026-04'),
    ]).toEqual([1000, 1000, 3000]);
    const budget = { amounts, rollover: true, startMonth: '2026-01' };
    expect(budgetStanding(budget, '2026-03', spent({}))).toMatchObject({ amount: 3000, carried: 2000 });
    expect(nextMonth('2026-12')).toBe('2027-01');
  });
});
