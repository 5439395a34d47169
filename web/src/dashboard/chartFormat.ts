import { formatMoney } from '../format';

const compactInr = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});

/** A tooltip's amount, in full. */
export const chartMoney = (value: unknown) => formatMoney(Number(value));
/** An axis tick's amount, compact but not rounded past what the tick says (₹2.25L, not ₹2.3L). */
export const axisMoney = (value: number) => compactInr.format(value);

const monthYear = new Intl.DateTimeFormat('en-IN', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** An axis tick's date by its month's name ("Jul 2019"), not "2019-07". */
export function axisMonth(isoDate: string): string {
  const date = new Date(`${isoDate.slice(0, 7)}-01T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : monthYear.format(date);
}

type Cashflow = { label: string; credits: number; debits: number };

/** The cash-flow chart in words, for its SVG's description and the line under it. */
export function cashflowSummary(months: readonly Cashflow[]): string {
  const credits = months.reduce((sum, m) => sum + m.credits, 0);
  const debits = months.reduce((sum, m) => sum + m.debits, 0);
  const most = months.reduce<Cashflow | null>((top, m) => (m.debits > (top?.debits ?? 0) ? m : top), null);
  const total = `Over the last ${months.length} months: credits ${formatMoney(credits)}, debits ${formatMoney(debits)} (EMIs included).`;
  return most ? `${total} Most spent in ${most.label}: ${formatMoney(most.debits)}.` : total;
}

type Outstanding = { date: string; outstanding: number };

/** The outstanding-principal chart in words: where it starts, where it stands today, when it ends. */
export function outstandingSummary(points: readonly Outstanding[], today: string): string {
  // The series starts on the 1st of the first loan's month, before that loan is taken (₹0).
  const first = points.find((p) => p.outstanding > 0) ?? points[0];
  const last = points.at(-1);
  if (!first || !last) return 'No loans yet.';
  const now = points.filter((p) => p.date <= today).at(-1) ?? first;
  return (
    `${formatMoney(first.outstanding)} owed in ${axisMonth(first.date)}, ` +
    `${formatMoney(now.outstanding)} in ${axisMonth(now.date)}, ` +
    `${formatMoney(last.outstanding)} by ${axisMonth(last.date)}.`
  );
}
