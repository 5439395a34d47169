import { fromPaise, type Paise } from './paise';

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });

/** Paise as Indian rupees for display: 12345678 -> "₹1,23,456.78". */
export function formatInr(paise: Paise): string {
  return inr.format(fromPaise(paise));
}

/** A rupee amount as the API sends it (a number with two decimals) for display: 1234.5 -> "₹1,234.50". */
export function formatRupees(rupees: number): string {
  return inr.format(rupees);
}
