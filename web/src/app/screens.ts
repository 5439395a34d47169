import type { ComponentType } from 'react';

/**
 * The signed-in screens (spec section 2): path pattern, code, and the reads each shows first.
 * Light on purpose (no React, no store): `boot.ts` reads it before they load, `routes.tsx`
 * builds the routes from it. Add a screen by adding one line here (in Switch order).
 */
export type Screen = {
  path: string;
  loadPage: () => Promise<ComponentType>;
  /** GET paths of the screen's first data, as the base query will ask for them. */
  firstData?: (params: Readonly<Record<string, string>>, now: Date) => string[];
};

function screen<M, K extends keyof M>(
  path: string,
  load: () => Promise<M>,
  name: K,
  firstData?: Screen['firstData'],
): Screen {
  return { path, loadPage: async () => (await load())[name] as ComponentType, firstData };
}

/** The frame around every signed-in screen. */
export const loadLayout = async () => (await import('./layout/AppLayout')).AppLayout;

/** transactionsApi's first page (TRANSACTION_PAGE_SIZE rows, newest first) and the book's totals. */
const transactionBook = () => [
  '/api/transactions?page=1&limit=10&sort_by=transaction_date&sort_order=DESC',
  '/api/transactions/stats',
];
/** ledgerApi's prefetchLedger: this month (the browser's), and the periods. */
const ledgerMonth = (_params: unknown, now: Date) => [
  `/api/ledger?month=${now.getMonth() + 1}&year=${now.getFullYear()}`,
  '/api/ledger/periods',
];
const loanSchedule = ({ id }: Readonly<Record<string, string>>) => [
  `/api/loans/${encodeURIComponent(id ?? '')}`,
  `/api/loans/${encodeURIComponent(id ?? '')}/amortization`,
];

/** The dashboard's cards (loansApi's getLoanStats) and its loans today (dashboardApi's first page). */
const dashboard = () => ['/api/loans/stats', '/api/loans?page=1&limit=50&sortBy=created_at&sortOrder=DESC'];

export const screens: readonly Screen[] = [
  screen('/dashboard', () => import('../dashboard/DashboardPage'), 'DashboardPage', dashboard),
  screen('/loans', () => import('../loans/LoansPage'), 'LoansPage'),
  screen('/loans/create', () => import('../loans/CreateLoanPage'), 'CreateLoanPage'),
  screen('/loans/:id', () => import('../loans/LoanDetailsPage'), 'LoanDetailsPage'),
  screen('/loans/:id/edit', () => import('../loans/EditLoanPage'), 'EditLoanPage'),
  screen(
    '/loans/:id/amortization',
    () => import('../loans/AmortizationPage'),
    'AmortizationPage',
    loanSchedule,
  ),
  screen('/loans/:id/certificate', () => import('../loans/CertificatePage'), 'CertificatePage'),
  screen(
    '/transactions',
    () => import('../transactions/TransactionsPage'),
    'TransactionsPage',
    transactionBook,
  ),
  screen('/ledger', () => import('../ledger/LedgerPage'), 'LedgerPage', ledgerMonth),
  screen('/accounts', () => import('../accounts/AccountsPage'), 'AccountsPage'),
  screen('/accounts/:id', () => import('../accounts/AccountRegisterPage'), 'AccountRegisterPage'),
  screen('/import', () => import('../imports/ImportPage'), 'ImportPage'),
  screen('/recurring', () => import('../recurring/RecurringPage'), 'RecurringPage'),
  screen('/budgets', () => import('../budgets/BudgetsPage'), 'BudgetsPage'),
  screen('/reports', () => import('../reports/ReportsPage'), 'ReportsPage'),
  screen('/categories', () => import('../categories/CategoriesPage'), 'CategoriesPage'),
  screen('/rules', () => import('../rules/RulesPage'), 'RulesPage'),
  screen('/history', () => import('../history/HistoryPage'), 'HistoryPage'),
  screen('/profile', () => import('../profile/ProfilePage'), 'ProfilePage'),
  screen('/change-password', () => import('../profile/ChangePasswordPage'), 'ChangePasswordPage'),
  screen('/settings', () => import('../settings/SettingsPage'), 'SettingsPage'),
  screen('/audits', () => import('../audit/AuditsPage'), 'AuditsPage'),
];

/**
 * The screen a path shows and its params, matched as wouter matches these patterns (literal
 * segments and `:name` segments, the first match in table order wins).
 */
export function matchScreen(path: string): { screen: Screen; params: Record<string, string> } | null {
  const parts = path.replace(/\/+$/, '').split('/');
  for (const candidate of screens) {
    const pattern = candidate.path.split('/');
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((segment, i) => {
      const part = parts[i] ?? '';
      if (!segment.startsWith(':')) return segment === part;
      if (part === '') return false;
      try {
        params[segment.slice(1)] = decodeURIComponent(part);
      } catch {
        return false;
      }
      return true;
    });
    if (matches) return { screen: candidate, params };
  }
  return null;
}
