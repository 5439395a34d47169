import { formatMoney } from '../format';

const compactInr = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  notation: 'compact',
  maximumFractionDigits: 1,
});

/** A tooltip's amount, in full. */
export const chartMoney = (value: unknown) => formatMoney(Number(value));
/** An axis tick's amount, compact (₹1.2L). */
export const axisMoney = (value: number) => compactInr.format(value);
