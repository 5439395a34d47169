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

/** The period of a spending report: a month, a financial year (April to March) or any range. */
export type SpendingPeriod = Readonly<{
  kind: 'month' | 'financial-year' | 'range';
  from: string;
  to: string;
  /** "November 2026", "FY 2025-26", or "2026-04-01 to 2026-11-28". */
  label: string;
}>;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_WORDS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function realDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text;
}

const lastDay = (year: number, month: number) =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(new Date(Date.UTC(year, month, 0)).getUTCDate()).padStart(2, '0')}`;

/**
 * `from` and `to` (a range), else `fy` (the financial year starting in April of that year), else
 * `month` and `year` (each defaulting to `today`'s). Empty values count as absent.
 */
export function parseSpendingPeriod(
  query: { from?: string; to?: string; fy?: string; month?: string; year?: string },
  today: string,
): { ok: true; value: SpendingPeriod } | { ok: false; errors: FieldError[] } {
  const text = (v: string | undefined) => v?.trim() || null;
  const from = text(query.from);
  const to = text(query.to);
  const fy = text(query.fy);
  const month = text(query.month);
  const year = text(query.year);
  const errors: FieldError[] = [];
  if (from !== null || to !== null) {
    if (from === null || !realDate(from)) errors.push({ field: 'from', message: REPORT_MESSAGES.date });
    if (to === null || !realDate(to)) errors.push({ field: 'to', message: REPORT_MESSAGES.date });
    if (errors.length > 0) return { ok: false, errors };
    const [f, t] = [from as string, to as string];
    if (t < f) return { ok: false, errors: [{ field: 'to', message: REPORT_MESSAGES.rangeOrder }] };
    const years = Number(t.slice(0, 4)) - Number(f.slice(0, 4));
    if (years > 10 || (years === 10 && t.slice(5) >= f.slice(5)))
      return { ok: false, errors: [{ field: 'to', message: REPORT_MESSAGES.rangeLength }] };
    return { ok: true, value: { kind: 'range', from: f, to: t, label: `${f} to ${t}` } };
  }
  if (fy !== null) {
    if (!/^\d{4}$/.test(fy) || Number(fy) < 1000)
      return { ok: false, errors: [{ field: 'fy', message: REPORT_MESSAGES.financialYear }] };
    const start = Number(fy);
    return {
      ok: true,
      value: {
        kind: 'financial-year',
        from: `${fy}-04-01`,
        to: `${String(start + 1).padStart(4, '0')}-03-31`,
        label: `FY ${fy}-${String((start + 1) % 100).padStart(2, '0')}`,
      },
    };
  }
  if (month !== null && !(/^\d{1,2}$/.test(month) && Number(month) >= 1 && Number(month) <= 12))
    errors.push({ field: 'month', message: REPORT_MESSAGES.month });
  if (year !== null && !(/^\d{4}$/.test(year) && Number(year) >= 1000))
    errors.push({ field: 'year', message: REPORT_MESSAGES.year });
  if (errors.length > 0) return { ok: false, errors };
  const y = year === null ? Number(today.slice(0, 4)) : Number(year);
  const m = month === null ? Number(today.slice(5, 7)) : Number(month);
  return {
    ok: true,
    value: {
      kind: 'month',
      from: `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`,
      to: lastDay(y, m),
      label: `${MONTH_WORDS[m - 1]} ${y}`,
    },
  };
}
