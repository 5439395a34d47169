import { calendarDateOf, monthName, monthOf, monthRange, type YearMonth } from '@kosh/domain';

/** A month of a report with its first and last day and the day it is read on (its last, or today). */
export type ReportMonth = YearMonth & { name: string; startDate: string; endDate: string; onDate: string };

/** The `count` months ending with the one `now` falls in (India), oldest first. */
export function monthsEndingAt(now: Date, count: number): ReportMonth[] {
  const current = monthOf(now);
  const today = calendarDateOf(now);
  const last = current.year * 12 + current.month - 1;
  return Array.from({ length: count }, (_, i) => {
    const index = last - (count - 1 - i);
    const year = Math.floor(index / 12);
    const month = (index % 12) + 1;
    const { startDate, endDate } = monthRange(year, month);
    return {
      year,
      month,
      name: monthName(month),
      startDate,
      endDate,
      onDate: index === last ? today : endDate,
    };
  });
}
