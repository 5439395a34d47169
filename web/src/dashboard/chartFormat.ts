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
