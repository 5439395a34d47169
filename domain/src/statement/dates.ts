import { isIsoDate } from '../loan/dates';

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/** dd/mm/yy, dd/mm/yyyy, dd-mm-yyyy, dd.mm.yyyy (and a QIF's dd/mm'yy). */
const NUMERIC = /^(\d{1,2})[/.-](\d{1,2})(?:[/.-]|')(\d{2}|\d{4})$/;
/** dd-Mon-yy, dd-Mon-yyyy, dd Mon yyyy, dd/Mon/yyyy, dd Month yyyy. */
const NAMED = /^(\d{1,2})[\s/-]+([a-z]{3,9})\.?[\s/,-]+(\d{2}|\d{4})$/i;
/** A time of day some banks add after the date. */
const TIME = /\s+\d{1,2}:\d{2}(:\d{2})?(\s*[ap]m)?$/i;

/**
 * A statement date, day first, as `YYYY-MM-DD`; null when the text is not one. Only the
 * day-first forms Indian banks use are read (and ISO `YYYY-MM-DD`, which is not ambiguous); a
 * month-first date such as 04/25/2024 or "Apr 25, 2024" is never guessed and answers null.
 * Two-digit years are 20yy.
 */
export function parseStatementDate(cell: string): string | null {
  const trimmed = cell.trim();
  const text = trimmed.length > 11 ? trimmed.replace(TIME, '') : trimmed;
  const numeric = NUMERIC.exec(text);
  if (numeric) return calendarDate(numeric[3]!, Number(numeric[2]), Number(numeric[1]));
  if (isIsoDate(text)) return text;
  const named = NAMED.exec(text);
  if (named) {
    const name = named[2]!.toLowerCase();
    const month = MONTHS[name] ?? (fullMonthName(name) ? MONTHS[name.slice(0, 3)] : undefined);
    if (month === undefined) return null;
    return calendarDate(named[3]!, month, Number(named[1]));
  }
  return null;
}

function fullMonthName(name: string): boolean {
  return [
    'january',
    'february',
    'march',
    'april',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ].includes(name);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function calendarDate(yearText: string, month: number, day: number): string | null {
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (month < 1 || month > 12 || day < 1) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > DAYS_IN_MONTH[month - 1]! + (month === 2 && leap ? 1 : 0)) return null;
  return `${year}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}
