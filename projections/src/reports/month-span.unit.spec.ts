import { describe, expect, it } from 'vitest';
import { monthSpan } from './month-span';

describe('monthSpan: the whole months of a range and the days at its edges', () => {
  it('answers a whole month or a financial year from the month cells alone', () => {
    expect(monthSpan('2025-11-01', '2025-11-30')).toEqual({
      months: ['2025-11-01', '2025-11-01'],
      edges: [],
    });
    expect(monthSpan('2024-04-01', '2025-03-31')).toEqual({
      months: ['2024-04-01', '2025-03-01'],
      edges: [],
    });
    expect(monthSpan('2024-02-01', '2024-02-29')).toEqual({
      months: ['2024-02-01', '2024-02-01'],
      edges: [],
    });
  });

  it('reads the days before the first and after the last whole month from the rows', () => {
    expect(monthSpan('2026-01-15', '2026-03-10')).toEqual({
      months: ['2026-02-01', '2026-02-01'],
      edges: [
        ['2026-01-15', '2026-01-31'],
        ['2026-03-01', '2026-03-10'],
      ],
    });
    expect(monthSpan('2025-12-15', '2026-01-31')).toEqual({
      months: ['2026-01-01', '2026-01-01'],
      edges: [['2025-12-15', '2025-12-31']],
    });
    expect(monthSpan('2024-01-31', '2024-02-29')).toEqual({
      months: ['2024-02-01', '2024-02-01'],
      edges: [['2024-01-31', '2024-01-31']],
    });
    expect(monthSpan('2024-03-01', '2024-04-29')).toEqual({
      months: ['2024-03-01', '2024-03-01'],
      edges: [['2024-04-01', '2024-04-29']],
    });
  });

  it('reads a range without a whole month from the rows', () => {
    expect(monthSpan('2026-02-06', '2026-02-09')).toEqual({
      months: null,
      edges: [['2026-02-06', '2026-02-09']],
    });
    expect(monthSpan('2026-01-15', '2026-02-10')).toEqual({
      months: null,
      edges: [['2026-01-15', '2026-02-10']],
    });
    expect(monthSpan('2026-02-01', '2026-02-27')).toEqual({
      months: null,
      edges: [['2026-02-01', '2026-02-27']],
    });
  });
});
