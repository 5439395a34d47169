/**
 * Ledger and transaction answers are read in the server's own names (spec section 3), and so are
 * the account and transfer answers that sit beside them (issue 30), and the reports and budgets
 * (issue 31): the screens use the wire types.
 */
export function keepsServerNames(url: string): boolean {
  return /^\/?(transactions|ledger|accounts|transfers|reports|budgets)(\/|\?|$)/.test(url);
}
