import { describe, expect, it } from 'vitest';
import { ValidationError } from '../shared/errors';
import { actualSchedule } from './actual-schedule';
import { financialYear, financialYearFigures } from './certificate';
import type { ScheduleTerms } from './events';

const tenLakh: ScheduleTerms = {
  principalAmount: 100000000,
  interestRate: 10.5,
  isInterestRateYearly: true,
  duration: 10,
  isDurationYearly: true,
  startDate: '2024-01-31',
  hasGst: true,
  gstPercentage: 18,
};

describe('financial year', () => {
  it('runs April to March', () => {
    expect(financialYear('2025-26')).toEqual({ label: '2025-26', from: '2025-04-01', to: '2026-03-31' });
    expect(financialYear('2099-00').to).toBe('2100-03-31');
  });

  it.each(['2025-27', '25-26', '2025/26', '2025-2026', ''])('refuses %j with the form’s message', (label) => {
    expect(() => financialYear(label)).toThrow(ValidationError);
    try {
      financialYear(label);
    } catch (error) {
      expect((error as ValidationError).errors).toEqual([
        { field: 'fy', message: 'Financial year must be written like 2025-26' },
      ]);
    }
  });
});

describe('financial-year figures', () => {
  const { rows } = actualSchedule(tenLakh, [
    { kind: 'prepayment', date: '2025-06-10', amount: 10000000, charge: 50000, choice: 'reduce-tenure' },
  ]);

  it('sums the EMIs due in the year from the schedule, and the prepayment made in it', () => {
    const figures = financialYearFigures(rows, '2025-26');
    const inYear = rows.filter((row) => row.date >= '2025-04-01' && row.date <= '2026-03-31');
    expect(inYear.filter((row) => row.kind === 'emi')).toHaveLength(12);
    expect(figures).toMatchObject({
      basis: 'schedule',
      emisCounted: 12,
      interest: inYear.reduce((sum, row) => sum + row.interest, 0),
      principal: inYear.reduce((sum, row) => sum + row.principal, 0),
      gst: inYear.reduce((sum, row) => sum + row.gst, 0),
      charges: 50000,
      preEmiInterest: 0,
    });
    expect(figures.principal).toBeGreaterThan(10000000);
  });

  it('adds up, over every year of the loan, to the schedule’s totals', () => {
    const years = [
      '2023-24',
      '2024-25',
      '2025-26',
      '2026-27',
      '2027-28',
      '2028-29',
      '2029-30',
      '2030-31',
      '2031-32',
      '2032-33',
      '2033-34',
    ];
    const all = years.map((fy) => financialYearFigures(rows, fy));
    expect(all.reduce((sum, year) => sum + year.principal, 0)).toBe(tenLakh.principalAmount);
    expect(all.reduce((sum, year) => sum + year.interest, 0)).toBe(
      rows.reduce((sum, row) => sum + row.interest, 0),
    );
  });

  it('counts paid EMIs in the year they were paid, split as their schedule rows', () => {
    const march = rows.find((row) => row.kind === 'emi' && row.date === '2025-03-31')!;
    const paid = [
      { paymentNumber: march.paymentNumber, paidOn: '2025-04-02', amount: march.amount, transactionId: null },
    ];
    const next = financialYearFigures(rows, '2025-26', paid);
    expect(next).toMatchObject({
      basis: 'paid',
      emisCounted: 1,
      interest: march.interest + rows.find((row) => row.kind === 'prepayment')!.interest,
      principal: march.principal + 10000000,
    });
    expect(financialYearFigures(rows, '2024-25', paid)).toMatchObject({
      emisCounted: 0,
      interest: 0,
      principal: 0,
    });
  });

  it('shows pre-EMI interest apart from the interest of the EMIs', () => {
    const late = actualSchedule(tenLakh, [], { firstEmiDate: '2024-04-15' });
    const figures = financialYearFigures(late.rows, '2023-24');
    expect(figures.preEmiInterest).toBe(late.rows[0]!.interest);
    expect(figures.preEmiInterest).toBeGreaterThan(0);
    expect(figures).toMatchObject({ interest: 0, principal: 0, emisCounted: 0 });
    expect(financialYearFigures(late.rows, '2024-25').preEmiInterest).toBe(0);
  });
});
