/** Calendar months as the ledger shows them. Pure: "now" is always passed in. */
import { calendarDateOf, daysInMonth } from '../loan/dates';

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

/** The calendar month (1-12) that `now` falls in, in `timeZone`. */
export function monthOf(now: Date, timeZone: string = LEDGER_TIME_ZONE): YearMonth {
  // The date's text, not a formatter's parts: India's date is arithmetic (calendarDateOf), and
  // formatToParts cost 33 µs a call, a tenth of a ledger-periods read (bench:http).
  const date = calendarDateOf(now, timeZone);
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)) };
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
