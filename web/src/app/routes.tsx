import { Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { prefetchLedger } from '../ledger/ledgerApi';
import { prefetchSchedule } from '../loans/loansApi';
import { prefetchTransactionBook } from '../transactions/transactionsApi';
import { CentredSpinner, Protected, PublicOnly, PublicOnlyUnlessLink } from './guards';
import { type LazyComponent, lazyComponent, lazyPage } from './lazyPage';
import { ScreenErrorBoundary } from './ScreenErrorBoundary';
import { loadLayout, matchScreen, screens } from './screens';
import type { AppDispatch } from './store';

const LoginPage = lazyPage(() => import('../auth/LoginPage'), 'LoginPage');
const RegisterPage = lazyPage(() => import('../auth/RegisterPage'), 'RegisterPage');
const ForgotPasswordPage = lazyPage(() => import('../auth/ForgotPasswordPage'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyPage(() => import('../auth/ResetPasswordPage'), 'ResetPasswordPage');
const VerifyEmailPage = lazyPage(() => import('../auth/VerifyEmailPage'), 'VerifyEmailPage');

const AppLayout = lazyComponent(loadLayout);

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

/** The screens' first RTK Query reads (their early GETs, screens.ts, are taken by these). */
const routeData: Readonly<Record<string, RouteData>> = {
  '/loans/:id/amortization': scheduleData,
  '/transactions': transactionBookData,
  '/ledger': ledgerData,
};

/** Spec section 2: the signed-in screens of screens.ts, each its own chunk. */
const protectedPages: ReadonlyMap<string, LazyComponent<object>> = new Map(
  screens.map((screen) => [screen.path, lazyComponent(screen.loadPage)]),
);

/**
 * A cold start on a signed-in screen: the frame's and the page's code and the page's first data
 * start loading now, alongside the session check, rather than one after the other once the
 * profile has answered (session -> frame chunk -> page chunk -> data).
 */
export function preloadRoute(path: string, dispatch: AppDispatch): void {
  // The same matcher as boot.ts, which has already asked for these chunks and GETs: the imports
  // resolve to the same modules and the base query takes the early answers.
  const match = matchScreen(path);
  const Page = match && protectedPages.get(match.screen.path);
  if (!match || !Page) return;
  void AppLayout.preload();
  void Page.preload();
  routeData[match.screen.path]?.(match.params, dispatch);
}

export function AppRoutes() {
  return (
    <Suspense fallback={<CentredSpinner />}>
      <Switch>
        <Route path="/verify-email">
          <PublicOnlyUnlessLink>
            <ScreenErrorBoundary>
              <VerifyEmailPage />
            </ScreenErrorBoundary>
          </PublicOnlyUnlessLink>
        </Route>
        {publicOnlyRoutes.map(([path, Page]) => (
          <Route key={path} path={path}>
            <PublicOnly>
              <ScreenErrorBoundary>
                <Page />
              </ScreenErrorBoundary>
            </PublicOnly>
          </Route>
        ))}
        {[...protectedPages].map(([path, Page]) => (
          <Route key={path} path={path}>
            <Protected>
              <AppLayout>
                <ScreenErrorBoundary>
                  <Suspense fallback={<CentredSpinner />}>
                    <Page />
                  </Suspense>
                </ScreenErrorBoundary>
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
