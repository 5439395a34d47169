/**
 * Spec section 2: the navigation bar's top entries (the first four), then the screens added since
 * (`compact`: on a desktop narrower than 1600 px they show their icon alone, named by
 * aria-label and a tooltip, so the bar stays one line).
 */
export const navigationEntries = [
  { href: '/dashboard', label: 'Dashboard', compact: false, icon: 'dashboard', alsoActiveOn: ['/'] },
  { href: '/loans', label: 'All Loans', compact: false, icon: 'bank-account', alsoActiveOn: [] },
  { href: '/transactions', label: 'Transaction Book', compact: false, icon: 'book', alsoActiveOn: [] },
  { href: '/ledger', label: 'Ledger View', compact: false, icon: 'th-list', alsoActiveOn: [] },
  { href: '/accounts', label: 'Accounts', compact: true, icon: 'credit-card', alsoActiveOn: [] },
  { href: '/import', label: 'Import', compact: true, icon: 'import', alsoActiveOn: [] },
  { href: '/recurring', label: 'Recurring', compact: true, icon: 'repeat', alsoActiveOn: [] },
  { href: '/budgets', label: 'Budgets', compact: true, icon: 'pie-chart', alsoActiveOn: [] },
  { href: '/reports', label: 'Reports', compact: true, icon: 'chart', alsoActiveOn: [] },
  { href: '/categories', label: 'Categories', compact: true, icon: 'tag', alsoActiveOn: [] },
  { href: '/rules', label: 'Rules', compact: true, icon: 'predictive-analysis', alsoActiveOn: [] },
  { href: '/history', label: 'History', compact: true, icon: 'history', alsoActiveOn: [] },
] as const;

export function isEntryActive(entry: (typeof navigationEntries)[number], path: string): boolean {
  return (
    path === entry.href ||
    path.startsWith(`${entry.href}/`) ||
    (entry.alsoActiveOn as readonly string[]).includes(path)
  );
}
