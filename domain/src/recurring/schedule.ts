/**
 * The dates a recurring entry falls on (pure). Months are counted from the start date's month:
 * monthly every month, quarterly every third, yearly every twelfth; the day is `dayOfMonth`, or
 * the month's last day when that is null or the month is shorter.
 */
import type { RecurringDetails } from './fields';

type Schedule = Pick<RecurringDetails, 'frequency' | 'dayOfMonth' | 'startDate' | 'endDate'>;

const STEP: Readonly<Record<RecurringDetails['frequency'], number>> = {
  monthly: 1,
  quarterly: 3,
  yearly: 12,
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The date of the `index`-th scheduled month after the start's (0: the start's own). */
function dateOfMonth(schedule: Schedule, index: number): string {
  const [y, m] = schedule.startDate.split('-').map(Number) as [number, number];
  const months = y * 12 + (m - 1) + index * STEP[schedule.frequency];
  const year = Math.floor(months / 12);
  const month = (months % 12) + 1;
  const last = daysIn(year, month);
  const day = schedule.dayOfMonth === null || schedule.dayOfMonth === undefined ? last : schedule.dayOfMonth;
  return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(day, last))}`;
}

/** Every occurrence from `from` to `to` (both YYYY-MM-DD, inclusive), in order. */
export function occurrencesBetween(schedule: Schedule, from: string, to: string): string[] {
  const dates: string[] = [];
  const last = schedule.endDate && schedule.endDate < to ? schedule.endDate : to;
  for (let index = 0; ; index++) {
    const date = dateOfMonth(schedule, index);
    if (date > last) return dates;
    if (date >= from && date >= schedule.startDate) dates.push(date);
    // Far past dates are skipped by arithmetic, not by walking: 2,400 steps cover 200 years monthly.
    if (index > 2400) return dates;
  }
}

/** True when `date` is one of the schedule's occurrences. */
export function isOccurrence(schedule: Schedule, date: string): boolean {
  return occurrencesBetween(schedule, date, date).length === 1;
}

/** `date` plus `days` calendar days (YYYY-MM-DD). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + days));
  return `${pad(next.getUTCFullYear(), 4)}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}`;
}
