/**
 * The cash-flow forecast (issue 31, item 6), pure: what the recurring entries and the loans' unpaid
 * EMIs will move over the next three calendar months, from a date. Money in paise.
 */
import { addMonths } from '../loan/dates';
import type { Paise } from '../money/paise';
import { occurrenceValues } from './decide';
import type { RecurringDetails } from './fields';
import { addDays, occurrencesBetween } from './schedule';
import type { OccurrenceException } from './state';

export const CASH_FLOW_MONTHS = 3;

export type CashFlowItem = Readonly<{
  date: string;
  kind: 'recurring' | 'emi';
  description: string;
  inflow: Paise;
  outflow: Paise;
  sourceId: string;
}>;

export type CashFlowMonth = Readonly<{
  month: string;
  inflow: Paise;
  outflow: Paise;
  net: Paise;
  cumulativeNet: Paise;
}>;

export type CashFlowForecast = Readonly<{
  from: string;
  to: string;
  months: CashFlowMonth[];
  items: CashFlowItem[];
  totals: { inflow: Paise; outflow: Paise; net: Paise };
}>;

/** From `from` to the last day of the third calendar month (the month of `from` is the first). */
export function cashFlowWindow(from: string): { from: string; to: string } {
  const firstOfMonth = `${from.slice(0, 7)}-01`;
  return { from, to: addDays(addMonths(firstOfMonth, CASH_FLOW_MONTHS), -1) };
}

type Entry = RecurringDetails &
  Readonly<{ id: string; exceptions: Readonly<Record<string, OccurrenceException>> }>;

/**
 * The forecast from `from`: every occurrence still to post (not skipped, not in `posted` as
 * `{entryId}:{date}`) with its changed values, and every EMI not covered (`emis`, already
 * filtered by the paid-EMI model), by date, then by month.
 */
export function cashFlowForecast(
  from: string,
  entries: readonly Entry[],
  posted: ReadonlySet<string>,
  emis: readonly { loanId: string; emiNumber: number; loanLabel: string; dueDate: string; amount: Paise }[],
): CashFlowForecast {
  const window = cashFlowWindow(from);
  const items: CashFlowItem[] = [];
  for (const entry of entries) {
    for (const date of occurrencesBetween(entry, window.from, window.to)) {
      const values = occurrenceValues(entry, entry.exceptions, date);
      if (!values || posted.has(`${entry.id}:${date}`)) continue;
      const credit = entry.transactionType === 'C';
      items.push({
        date,
        kind: 'recurring',
        description: entry.payee ? `${values.notes} (${entry.payee})` : values.notes,
        inflow: credit ? values.amount : 0,
        outflow: credit ? 0 : values.amount,
        sourceId: entry.id,
      });
    }
  }
  for (const emi of emis) {
    if (emi.dueDate < window.from || emi.dueDate > window.to) continue;
    items.push({
      date: emi.dueDate,
      kind: 'emi',
      description: `EMI ${emi.emiNumber} of ${emi.loanLabel}`,
      inflow: 0,
      outflow: emi.amount,
      sourceId: emi.loanId,
    });
  }
  items.sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.description.localeCompare(b.description),
  );
  const months: CashFlowMonth[] = [];
  let cumulativeNet = 0;
  for (let i = 0; i < CASH_FLOW_MONTHS; i++) {
    const month = addMonths(`${from.slice(0, 7)}-01`, i).slice(0, 7);
    const inMonth = items.filter((item) => item.date.startsWith(month));
    const inflow = inMonth.reduce((sum, item) => sum + item.inflow, 0);
    const outflow = inMonth.reduce((sum, item) => sum + item.outflow, 0);
    cumulativeNet += inflow - outflow;
    months.push({ month, inflow, outflow, net: inflow - outflow, cumulativeNet });
  }
  const inflow = months.reduce((sum, m) => sum + m.inflow, 0);
  const outflow = months.reduce((sum, m) => sum + m.outflow, 0);
  return { ...window, months, items, totals: { inflow, outflow, net: inflow - outflow } };
}
