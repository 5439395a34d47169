import type { ComponentType } from 'react';
import { matchScreenPath, type ScreenPath, screenPaths } from './screenPaths';

/**
 * The signed-in screens of screenPaths.ts with their code; `routes.tsx` builds the routes from
 * them. Each page is one `'<path>': page(() => import('<module>'), '<export>')` line: the build
 * (vite.config.ts, kosh-boot-inline) reads these lines to list each screen's chunks for boot.ts.
 */
export type Screen = ScreenPath & { loadPage: () => Promise<ComponentType> };

function page<M, K extends keyof M>(load: () => Promise<M>, name: K): () => Promise<ComponentType> {
  return async () => (await load())[name] as ComponentType;
}

/** The frame around every signed-in screen. */
export const loadLayout = async () => (await import('./layout/AppLayout')).AppLayout;

const pages: Readonly<Record<string, () => Promise<ComponentType>>> = {
  '/dashboard': page(() => import('../dashboard/DashboardPage'), 'DashboardPage'),
  '/loans': page(() => import('../loans/LoansPage'), 'LoansPage'),
  '/loans/create': page(() => import('../loans/CreateLoanPage'), 'CreateLoanPage'),
  '/loans/:id': page(() => import('../loans/LoanDetailsPage'), 'LoanDetailsPage'),
  '/loans/:id/edit': page(() => import('../loans/EditLoanPage'), 'EditLoanPage'),
  '/loans/:id/amortization': page(() => import('../loans/AmortizationPage'), 'AmortizationPage'),
  '/loans/:id/certificate': page(() => import('../loans/CertificatePage'), 'CertificatePage'),
  '/transactions': page(() => import('../transactions/TransactionsPage'), 'TransactionsPage'),
  '/ledger': page(() => import('../ledger/LedgerPage'), 'LedgerPage'),
  '/accounts': page(() => import('../accounts/AccountsPage'), 'AccountsPage'),
  '/accounts/:id': page(() => import('../accounts/AccountRegisterPage'), 'AccountRegisterPage'),
  '/import': page(() => import('../imports/ImportPage'), 'ImportPage'),
  '/recurring': page(() => import('../recurring/RecurringPage'), 'RecurringPage'),
  '/budgets': page(() => import('../budgets/BudgetsPage'), 'BudgetsPage'),
  '/reports': page(() => import('../reports/ReportsPage'), 'ReportsPage'),
  '/categories': page(() => import('../categories/CategoriesPage'), 'CategoriesPage'),
  '/rules': page(() => import('../rules/RulesPage'), 'RulesPage'),
  '/history': page(() => import('../history/HistoryPage'), 'HistoryPage'),
  '/profile': page(() => import('../profile/ProfilePage'), 'ProfilePage'),
  '/change-password': page(() => import('../profile/ChangePasswordPage'), 'ChangePasswordPage'),
  '/settings': page(() => import('../settings/SettingsPage'), 'SettingsPage'),
  '/audits': page(() => import('../audit/AuditsPage'), 'AuditsPage'),
};

export const screens: readonly Screen[] = screenPaths.map((screen) => {
  const loadPage = pages[screen.path];
  if (!loadPage) throw new Error(`screens.ts has no page for ${screen.path}`);
  return { ...screen, loadPage };
});

/** The screen a path shows and its params (screenPaths.ts's matcher, over the screens with code). */
export function matchScreen(path: string): { screen: Screen; params: Record<string, string> } | null {
  return matchScreenPath(path, screens);
}
