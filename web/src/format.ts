/**
 * en-IN dates for every screen (spec sections 1 and 9). Money is formatted by the domain's
 * `formatRupees` (₹, en-IN, two decimals); this file only adds dates.
 */
export { formatRupees as formatMoney } from '@kosh/domain';

const businessDate = new Intl.DateTimeFormat('en-IN', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

const instant = new Intl.DateTimeFormat('en-IN', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** A business date `YYYY-MM-DD` in en-IN ("05 Jan 2026"), with no time-zone shift. */
export function formatDate(isoDate: string): string {
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : businessDate.format(date);
}

/** An ISO instant in en-IN local date and time ("05 Jan 2026, 10:42 am"). */
export function formatDateTime(isoInstant: string): string {
  const date = new Date(isoInstant);
  return Number.isNaN(date.getTime()) ? isoInstant : instant.format(date);
}

/** Today's local date as `YYYY-MM-DD`. */
export function todayIso(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export { MONTH_NAMES } from '@kosh/domain';
