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
  const autoDebited = {
    marks: [],
    emisAutoDebited: true,
    constructionCompletedOn: null,
    today: '2040-01-01',
  };
  const prepaymentRow = rows.find((row) => row.kind === 'prepayment')!;

  it('counts interest of the EMIs due in the year and principal of those paid, the charge apart', () => {
    const figures = financialYearFigures(rows, '2025-26', autoDebited);
    const inYear = rows.filter((row) => row.date >= '2025-04-01' && row.date <= '2026-03-31');
    expect(inYear.filter((row) => row.kind === 'emi')).toHaveLength(12);
    expect(figures).toMatchObject({
      emisDue: 12,
      emisPaid: 12,
      interest: inYear.reduce((sum, row) => sum + row.interest, 0),
      principal: inYear.reduce((sum, row) => sum + row.principal, 0),
      gst: inYear.reduce((sum, row) => sum + row.gst, 0),
      charges: 50000,
      unpaidEmis: [],
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
    const all = years.map((fy) => financialYearFigures(rows, fy, autoDebited));
    expect(all.reduce((sum, year) => sum + year.principal, 0)).toBe(tenLakh.principalAmount);
    expect(all.reduce((sum, year) => sum + year.interest, 0)).toBe(
      rows.reduce((sum, row) => sum + row.interest, 0),
    );
  });

  it('keeps the whole year when one EMI is marked paid late: interest due, principal when paid', () => {
    const march = rows.find((row) => row.kind === 'emi' && row.date === '2025-03-31')!;
    const payments = {
      ...autoDebited,
      marks: [
        {
          kind: 'paid' as const,
          markId: 'm',
          paymentNumber: march.paymentNumber,
          paidOn: '2025-04-02',
          amount: march.amount,
        },
      ],
    };
    const next = financialYearFigures(rows, '2025-26', payments);
    const inYear = rows.filter((row) => row.date >= '2025-04-01' && row.date <= '2026-03-31');
    expect(next).toMatchObject({
      emisDue: 12,
      emisPaid: 13,
      interest: inYear.reduce((sum, row) => sum + row.interest, 0),
      principal: inYear.reduce((sum, row) => sum + row.principal, 0) + march.principal,
    });
    expect(prepaymentRow.interest).toBeGreaterThan(0);
    const before = financialYearFigures(rows, '2024-25', payments);
    expect(before.emisDue).toBe(before.emisPaid + 1);
  });

  it('lists EMIs due in the year and not paid when EMIs are not auto-debited', () => {
    const byHand = { ...autoDebited, emisAutoDebited: false, today: '2025-07-15' };
    const figures = financialYearFigures(rows, '2025-26', byHand);
    expect(figures.unpaidEmis.map((emi) => emi.dueDate)).toEqual(['2025-04-30', '2025-05-31', '2025-06-30']);
    expect(figures.principal).toBe(prepaymentRow.principal);
    expect(figures.emisDue).toBe(12);
  });

  it('deducts recorded pre-EMI interest in fifths over the five years from construction’s completion', () => {
    const payments = {
      ...autoDebited,
      constructionCompletedOn: '2025-02-10',
      marks: [
        { kind: 'pre-emi-interest' as const, markId: 'a', date: '2023-10-01', amount: 10000001 },
        { kind: 'pre-emi-interest' as const, markId: 'b', date: '2024-01-05', amount: 2 },
      ],
    };
    const years = ['2023-24', '2024-25', '2025-26', '2026-27', '2027-28', '2028-29', '2029-30'];
    const pre = years.map((fy) => financialYearFigures(rows, fy, payments).preEmiInterest);
    expect(pre.map((p) => p.instalment)).toEqual([null, 1, 2, 3, 4, 5, null]);
    expect(pre.map((p) => p.deductible)).toEqual([0, 2000001, 2000001, 2000001, 2000001, 1999999, 0]);
    expect(pre[0]!.total).toBe(10000003);
  });

  it('never deducts a negative fifth: 3 paise of pre-EMI interest go 1, 1, 1, 0, 0 (found by the exact oracle)', () => {
    const payments = {
      ...autoDebited,
      constructionCompletedOn: '2025-02-10',
      marks: [{ kind: 'pre-emi-interest' as const, markId: 'a', date: '2023-10-01', amount: 3 }],
    };
    const years = ['2024-25', '2025-26', '2026-27', '2027-28', '2028-29'];
    const pre = years.map((fy) => financialYearFigures(rows, fy, payments).preEmiInterest);
    expect(pre.map((p) => p.deductible)).toEqual([1, 1, 1, 0, 0]);
  });
});
