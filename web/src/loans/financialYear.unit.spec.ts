import { describe, expect, it } from 'vitest';
import { defaultFinancialYear, financialYearDates, financialYearOf, financialYearsOf } from './financialYear';

describe('financial years (April–March)', () => {
  it('puts 31 March in the year before and 1 April in the new one', () => {
    expect(financialYearOf('2026-03-31')).toBe('2025-26');
    expect(financialYearOf('2026-04-01')).toBe('2026-27');
    expect(financialYearOf('1999-12-31')).toBe('1999-00');
    expect(financialYearDates('2025-26')).toEqual({ from: '2025-04-01', to: '2026-03-31' });
  });

  it('offers the years from the start to today, newest first, and defaults to the last one ended', () => {
    const years = financialYearsOf('2023-02-15', '2043-02-15', '2025-07-10');
    expect(years).toEqual(['2025-26', '2024-25', '2023-24', '2022-23']);
    expect(defaultFinancialYear(years, '2025-07-10')).toBe('2024-25');
  });

  it('stops at the last payment of a closed loan, and starts at the current year of a new one', () => {
    expect(financialYearsOf('2022-05-01', '2024-01-15', '2025-07-10')).toEqual(['2023-24', '2022-23']);
    const fresh = financialYearsOf('2025-06-01', '2045-06-01', '2025-07-10');
    expect(fresh).toEqual(['2025-26']);
    expect(defaultFinancialYear(fresh, '2025-07-10')).toBe('2025-26');
  });
});
