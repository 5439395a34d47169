import type { FieldError } from '../shared/errors';

/** Messages of the reports' queries (issue 31). */
export const REPORT_MESSAGES = {
  months: 'Months must be a whole number from 1 to 120',
  date: 'Must be a date (YYYY-MM-DD)',
  rangeOrder: 'To must be on or after From',
  rangeLength: 'A range is at most 10 years',
  month: 'Month must be a whole number from 1 to 12',
  year: 'Year must be a four-digit year',
  financialYear: 'Financial year must be the four-digit year it starts in (April)',
  period: 'Give a month and year, a financial year, or From and To',
} as const;

/** `months` of a report: 1 to 120, `fallback` when empty. */
export function parseReportMonths(
  text: string | undefined,
  fallback: number,
): { ok: true; value: number } | { ok: false; errors: FieldError[] } {
  const value = text?.trim();
  if (!value) return { ok: true, value: fallback };
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 120)
    return { ok: false, errors: [{ field: 'months', message: REPORT_MESSAGES.months }] };
  return { ok: true, value: Number(value) };
}
