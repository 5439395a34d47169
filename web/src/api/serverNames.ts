/** Ledger and transaction answers are read in the server's own names (spec section 3). */
export function keepsServerNames(url: string): boolean {
  return /^\/?(transactions|ledger)(\/|\?|$)/.test(url);
}
