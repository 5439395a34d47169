/**
 * Ledger and transaction answers are read in the server's own names (spec section 3), and so are
 * the account and transfer answers that sit beside them (issue 30: the screens use the wire types),
 * and the categories, rules, reports, budgets, recurring entries and reminder preferences (issue 31).
 */
export function keepsServerNames(url: string): boolean {
  return /^\/?(transactions|ledger|accounts|transfers|categories|rules|reports|budgets|recurring|profile\/notifications)(\/|\?|$)/.test(
    url,
  );
}
