import { describe, expect, it } from 'vitest';
import { axisMoney, axisMonth, cashflowSummary, outstandingSummary } from './chartFormat';

describe('axisMoney', () => {
  it('names the quarter ticks of a ₹3 lakh axis as they are, not rounded to another amount', () => {
    expect([0, 75_000, 150_000, 225_000, 300_000].map(axisMoney)).toEqual([
      '₹0',
      '₹75K',
      '₹1.5L',
      '₹2.25L',
      '₹3L',
    ]);
  });

  it('stays compact for crores', () => {
    expect(axisMoney(12_500_000)).toBe('₹1.25Cr');
  });
});

describe('axisMonth', () => {
  it('names the month, not its number', () => {
    expect(axisMonth('2019-07-15')).toBe('Jul 2019');
    expect(axisMonth('2026-01-01')).toBe('Jan 2026');
  });
});

describe('chart summaries', () => {
  it('says the cash flow of the months in words', () => {
    const months = [
      { label: 'Oct 26', credits: 90_000, debits: 40_000 },
      { label: 'Nov 26', credits: 90_000, debits: 65_000.5 },
    ];
    expect(cashflowSummary(months)).toBe(
      'Over the last 2 months: credits ₹1,80,000.00, debits ₹1,05,000.50 (EMIs included). Most spent in Nov 26: ₹65,000.50.',
    );
  });

  it('says where the outstanding principal starts, stands today and ends', () => {
    const points = [
      { date: '2023-12-01', outstanding: 0 },
      { date: '2024-01-01', outstanding: 500_000 },
      { date: '2025-01-01', outstanding: 300_000 },
      { date: '2026-01-01', outstanding: 0 },
    ];
    expect(outstandingSummary(points, '2025-06-30')).toBe(
      '₹5,00,000.00 owed in Jan 2024, ₹3,00,000.00 in Jan 2025, ₹0.00 by Jan 2026.',
    );
  });
});
