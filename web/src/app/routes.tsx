import { lazy, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { CentredSpinner, Protected, PublicOnly } from './guards';
import { lazyPage } from './lazyPage';

const LoginPage = lazyPage(() => import('../auth/LoginPage'), 'LoginPage');
const RegisterPage = lazyPage(() => import('../auth/RegisterPage'), 'RegisterPage');
const ForgotPasswordPage = lazyPage(() => import('../auth/ForgotPasswordPage'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyPage(() => import('../auth/ResetPasswordPage'), 'ResetPasswordPage');
const VerifyEmailPage = lazyPage(() => import('../auth/VerifyEmailPage'), 'VerifyEmailPage');

const AppLayout = lazy(async () => ({ default: (await import('./layout/AppLayout')).AppLayout }));
const DashboardPage = lazyPage(() => import('../dashboard/DashboardPage'), 'DashboardPage');
const LoansPage = lazyPage(() => import('../loans/LoansPage'), 'LoansPage');
const CreateLoanPage = lazyPage(() => import('../loans/CreateLoanPage'), 'CreateLoanPage');
const LoanDetailsPage = lazyPage(() => import('../loans/LoanDetailsPage'), 'LoanDetailsPage');
const EditLoanPage = lazyPage(() => import('../loans/EditLoanPage'), 'EditLoanPage');
const AmortizationPage = lazyPage(() => import('../loans/AmortizationPage'), 'AmortizationPage');
const TransactionsPage = lazyPage(() => import('../transactions/TransactionsPage'), 'TransactionsPage');
const LedgerPage = lazyPage(() => import('../ledger/LedgerPage'), 'LedgerPage');
const ProfilePage = lazyPage(() => import('../profile/ProfilePage'), 'ProfilePage');
const ChangePasswordPage = lazyPage(() => import('../profile/ChangePasswordPage'), 'ChangePasswordPage');
const SettingsPage = lazyPage(() => import('../settings/SettingsPage'), 'SettingsPage');

const publicOnlyRoutes = [
  ['/login', LoginPage],
  ['/register', RegisterPage],
  ['/forgot-password', ForgotPasswordPage],
  ['/reset-password', ResetPasswordPage],
  ['/verify-email', VerifyEmailPage],
] as const;

/** Spec section 2. Add a screen by adding one line here. */
const protectedRoutes = [
  ['/dashboard', DashboardPage],
  ['/loans', LoansPage],
  ['/loans/create', CreateLoanPage],
  ['/loans/:id', LoanDetailsPage],
  ['/loans/:id/edit', EditLoanPage],
  ['/loans/:id/amortization', AmortizationPage],
  ['/transactions', TransactionsPage],
  ['/ledger', LedgerPage],
  ['/profile', ProfilePage],
  ['/change-password', ChangePasswordPage],
  ['/settings', SettingsPage],
] as const;

export function AppRoutes() {
  return (
    <Suspense fallback={<CentredSpinner />}>
      <Switch>
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
