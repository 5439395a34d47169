import { Suspense } from 'react';
import { matchRoute, Redirect, Route, Switch } from 'wouter';
import { prefetchLedger } from '../ledger/ledgerApi';
import { prefetchSchedule } from '../loans/loansApi';
import { prefetchTransactionBook } from '../transactions/transactionsApi';
import { CentredSpinner, Protected, PublicOnly, PublicOnlyUnlessLink } from './guards';
import { type LazyComponent, lazyComponent, lazyPage } from './lazyPage';
import type { AppDispatch } from './store';

/** The router's path-pattern parser (wouter's `useRouter().parser`). */
type Parser = Parameters<typeof matchRoute>[0];

const LoginPage = lazyPage(() => import('../auth/LoginPage'), 'LoginPage');
const RegisterPage = lazyPage(() => import('../auth/RegisterPage'), 'RegisterPage');
const ForgotPasswordPage = lazyPage(() => import('../auth/ForgotPasswordPage'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyPage(() => import('../auth/ResetPasswordPage'), 'ResetPasswordPage');
const VerifyEmailPage = lazyPage(() => import('../auth/VerifyEmailPage'), 'VerifyEmailPage');

const AppLayout = lazyComponent(async () => (await import('./layout/AppLayout')).AppLayout);
const DashboardPage = lazyPage(() => import('../dashboard/DashboardPage'), 'DashboardPage');
const LoansPage = lazyPage(() => import('../loans/LoansPage'), 'LoansPage');
const CreateLoanPage = lazyPage(() => import('../loans/CreateLoanPage'), 'CreateLoanPage');
const LoanDetailsPage = lazyPage(() => import('../loans/LoanDetailsPage'), 'LoanDetailsPage');
const EditLoanPage = lazyPage(() => import('../loans/EditLoanPage'), 'EditLoanPage');
const AmortizationPage = lazyPage(() => import('../loans/AmortizationPage'), 'AmortizationPage');
const CertificatePage = lazyPage(() => import('../loans/CertificatePage'), 'CertificatePage');
const TransactionsPage = lazyPage(() => import('../transactions/TransactionsPage'), 'TransactionsPage');
const LedgerPage = lazyPage(() => import('../ledger/LedgerPage'), 'LedgerPage');
const ProfilePage = lazyPage(() => import('../profile/ProfilePage'), 'ProfilePage');
const ChangePasswordPage = lazyPage(() => import('../profile/ChangePasswordPage'), 'ChangePasswordPage');
const AuditsPage = lazyPage(() => import('../audit/AuditsPage'), 'AuditsPage');
const SettingsPage = lazyPage(() => import('../settings/SettingsPage'), 'SettingsPage');
const HistoryPage = lazyPage(() => import('../history/HistoryPage'), 'HistoryPage');

const publicOnlyRoutes = [
  ['/login', LoginPage],
  ['/register', RegisterPage],
  ['/forgot-password', ForgotPasswordPage],
  ['/reset-password', ResetPasswordPage],
] as const;

/**
 * A screen's first data, asked for while its code and the session check are still on the way.
 * The endpoint modules are small and imported statically, so the requests need not wait for a chunk.
 */
type RouteData = (params: Record<string, string | undefined>, dispatch: AppDispatch) => unknown;

const transactionBookData: RouteData = (_params, dispatch) => prefetchTransactionBook(dispatch);
const ledgerData: RouteData = (_params, dispatch) => prefetchLedger(dispatch);
const scheduleData: RouteData = ({ id }, dispatch) => (id ? prefetchSchedule(dispatch, id) : undefined);

/** Spec section 2. Add a screen by adding one line here (in Switch order). */
const protectedRoutes: ReadonlyArray<readonly [string, LazyComponent<object>, RouteData?]> = [
  ['/dashboard', DashboardPage],
  ['/loans', LoansPage],
  ['/loans/create', CreateLoanPage],
  ['/loans/:id', LoanDetailsPage],
  ['/loans/:id/edit', EditLoanPage],
  ['/loans/:id/amortization', AmortizationPage, scheduleData],
  ['/loans/:id/certificate', CertificatePage],
  ['/transactions', TransactionsPage, transactionBookData],
  ['/ledger', LedgerPage, ledgerData],
  ['/history', HistoryPage],
  ['/profile', ProfilePage],
  ['/change-password', ChangePasswordPage],
  ['/settings', SettingsPage],
  ['/audits', AuditsPage],
];

/**
 * A cold start on a signed-in screen: the frame's and the page's code and the page's first data
 * start loading now, alongside the session check, rather than one after the other once the
 * profile has answered (session -> frame chunk -> page chunk -> data).
 */
export function preloadRoute(parser: Parser, path: string, dispatch: AppDispatch): void {
  for (const [pattern, Page, data] of protectedRoutes) {
    const [matches, params] = matchRoute(parser, pattern, path);
    if (!matches) continue;
    void AppLayout.preload();
    void Page.preload();
    data?.(params, dispatch);
    return;
  }
}

export function AppRoutes() {
  return (
    <Suspense fallback={<CentredSpinner />}>
      <Switch>
        <Route path="/verify-email">
          <PublicOnlyUnlessLink>
            <VerifyEmailPage />
          </PublicOnlyUnlessLink>
        </Route>
        {publicOnlyRoutes.map(([path, Page]) => (
          <Route key={path} path={path}>
            <PublicOnly>
              <Page />
            </PublicOnly>
          </Route>
        ))}
        {protectedRoutes.map(([path, Page]) => (
          <Route key={path} path={path}>
            <Protected>
              <AppLayout>
                <Suspense fallback={<CentredSpinner />}>
                  <Page />
                </Suspense>
              </AppLayout>
            </Protected>
          </Route>
        ))}
        <Route>
          <Redirect to="/dashboard" replace />
        </Route>
      </Switch>
    </Suspense>
  );
}
