/** Calendar months as the ledger shows them. Pure: "now" is always passed in. */

export const MONTH_NAMES = [
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
] as const;

/** Kosh's users are in India: "this month" turns over at midnight IST, not UTC. */
export const LEDGER_TIME_ZONE = 'Asia/Kolkata';

export type YearMonth = { year: number; month: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar month (1-12) that `now` falls in, in `timeZone`. */
export function monthOf(now: Date, timeZone: string = LEDGER_TIME_ZONE): YearMonth {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: 'numeric' });
    formatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month') };
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** First and last day of the month, `YYYY-MM-DD`. */
export function monthRange(year: number, month: number): { startDate: string; endDate: string } {
  const prefix = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
  return {
    startDate: `${prefix}-01`,
    endDate: `${prefix}-${String(daysInMonth(year, month)).padStart(2, '0')}`,
  };
}

export function monthName(month: number): string {
  const name = MONTH_NAMES[month - 1];
  if (!name) throw new RangeError(`Not a month: ${month}`);
  return name;
}
