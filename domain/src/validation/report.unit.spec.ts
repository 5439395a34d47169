import { describe, expect, it } from 'vitest';
import { parseReportMonths, parseSpendingPeriod } from './report';

const today = '2026-11-28';

describe('report periods', () => {
  it('is the current month by default, or the month and year asked', () => {
    expect(parseSpendingPeriod({}, today)).toEqual({
      ok: true,
      value: { kind: 'month', from: '2026-11-01', to: '2026-11-30', label: 'November 2026' },
    });
    expect(parseSpendingPeriod({ month: '2', year: '2024' }, today)).toMatchObject({
      value: { from: '2024-02-01', to: '2024-02-29' },
    });
  });

  it('is April to March for a financial year', () => {
    expect(parseSpendingPeriod({ fy: '2025' }, today)).toEqual({
      ok: true,
      value: { kind: 'financial-year', from: '2025-04-01', to: '2026-03-31', label: 'FY 2025-26' },
    });
  });

  it('takes any range of up to ten years, in order', () => {
    expect(parseSpendingPeriod({ from: '2026-01-10', to: '2026-02-05' }, today)).toMatchObject({
      ok: true,
      value: { kind: 'range', from: '2026-01-10', to: '2026-02-05' },
    });
    expect(parseSpendingPeriod({ from: '2026-02-05', to: '2026-01-10' }, today)).toEqual({
      ok: false,
      errors: [{ field: 'to', message: 'To must be on or after From' }],
    });
    expect(parseSpendingPeriod({ from: '2016-01-10', to: '2026-01-10' }, today)).toMatchObject({ ok: false });
    expect(parseSpendingPeriod({ from: '2026-02-30', to: '' }, today)).toEqual({
      ok: false,
      errors: [
        { field: 'from', message: 'Must be a date (YYYY-MM-DD)' },
        { field: 'to', message: 'Must be a date (YYYY-MM-DD)' },
      ],
    });
  });

  it('refuses a month, year or financial year that is not one', () => {
    expect(parseSpendingPeriod({ month: '13', year: '20' }, today)).toEqual({
      ok: false,
      errors: [
        { field: 'month', message: 'Month must be a whole number from 1 to 12' },
        { field: 'year', message: 'Year must be a four-digit year' },
      ],
    });
    expect(parseSpendingPeriod({ fy: '25' }, today)).toMatchObject({ ok: false });
    expect(parseReportMonths('121', 24)).toMatchObject({ ok: false });
    expect(parseReportMonths(' ', 24)).toEqual({ ok: true, value: 24 });
  });
});
