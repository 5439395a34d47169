/** Spec section 2: the navigation bar's top entries. */
export const navigationEntries = [
  { href: '/dashboard', label: 'Dashboard', icon: 'dashboard', alsoActiveOn: ['/'] },
  { href: '/loans', label: 'All Loans', icon: 'bank-account', alsoActiveOn: [] },
  { href: '/transactions', label: 'Transaction Book', icon: 'book', alsoActiveOn: [] },
  { href: '/ledger', label: 'Ledger View', icon: 'th-list', alsoActiveOn: [] },
  { href: '/accounts', label: 'Accounts', icon: 'credit-card', alsoActiveOn: [] },
  { href: '/import', label: 'Import', icon: 'import', alsoActiveOn: [] },
  { href: '/recurring', label: 'Recurring', icon: 'repeat', alsoActiveOn: [] },
  { href: '/budgets', label: 'Budgets', icon: 'pie-chart', alsoActiveOn: [] },
  { href: '/reports', label: 'Reports', icon: 'chart', alsoActiveOn: [] },
  { href: '/categories', label: 'Categories', icon: 'tag', alsoActiveOn: [] },
  { href: '/rules', label: 'Rules', icon: 'predictive-analysis', alsoActiveOn: [] },
  { href: '/history', label: 'History', icon: 'history', alsoActiveOn: [] },
] as const;

export function isEntryActive(entry: (typeof navigationEntries)[number], path: string): boolean {
  return (
    path === entry.href ||
    path.startsWith(`${entry.href}/`) ||
    (entry.alsoActiveOn as readonly string[]).includes(path)
  );
}
