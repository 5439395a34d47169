import { expect, type Page, test } from '@playwright/test';
import { AppShell } from './page-models/app-shell';
import { LoansPage } from './page-models/loans-page';
import { fifteenth, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

const SERVER_ERROR = 'Server error. Please try again later.';

/**
 * A server failure on demand: a real 500 can't be provoked, so the browser is answered one, with
 * the body our server's error handler sends (command-api/src/plugins/errors.ts). Its message is
 * what the toast shows (spec section 8: the server message when present, else the fallback).
 */
function serverError(): { status: number; contentType: string; body: string } {
  return {
    status: 500,
    contentType: 'application/json',
    body: JSON.stringify({
      success: false,
      message: SERVER_ERROR,
      errorCode: 'INTERNAL_ERROR',
      errors: [],
      timestamp: new Date().toISOString(),
    }),
  };
}

/** The page's clock runs on by `ms` at once, firing the toasts' timers on the way. */
async function after(page: Page, ms: number): Promise<void> {
  await page.clock.runFor(ms);
}

test('loan list: error toasts stay 8 s, success toasts 5 s (spec section 2)', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Kavya');
  const api = await MoneyApi.signIn(request, user);
  const bank = await api.createBank('Toast Test Bank', 'Pune');
  const type = await api.createLoanType('Toast Personal Loan');
  for (const accountNumber of ['TOAST0001', 'TOAST0002']) {
    await api.createLoan({
      bankId: bank,
      loanTypeId: type,
      accountNumber,
      principal: 100000,
      rate: 10,
      months: 12,
      startDate: fifteenth(-1),
    });
  }
  // Time flows as usual, but the test can move it on: toast lifetimes without waiting them out.
  await page.clock.install();
  await signInThroughUi(page, user);
  // The dashboard's own reads (its loans too) finish first: the one failure below is the list's.
  await page.waitForLoadState('networkidle');
  const loans = new LoansPage(page);
  const shell = new AppShell(page);

  // The list fails once: its toast is still there after 6 s and gone after 8 s.
  await page.route(
    (url) => url.pathname === '/api/loans',
    (route) => (route.request().method() === 'GET' ? route.fulfill(serverError()) : route.fallback()),
    { times: 1 },
  );
  await loans.goto();
  await expect(page.getByRole('heading', { name: 'Failed to fetch loans' })).toBeVisible();
  const listFailure = shell.toast(SERVER_ERROR);
  await expect(listFailure).toBeVisible();
  await after(page, 6000);
  await expect(listFailure).toBeVisible();
  await after(page, 2500);
  await expect(listFailure).toHaveCount(0);

  // The bank list (the filter) fails: 8 s too.
  await page.route('**/api/banks?*', (route) => route.fulfill(serverError()), { times: 1 });
  await loans.goto();
  await expect(loans.rows).toHaveCount(2);
  const banksFailure = shell.toast(SERVER_ERROR);
  await expect(banksFailure).toBeVisible();
  await after(page, 6000);
  await expect(banksFailure).toBeVisible();
  await after(page, 2500);
  await expect(banksFailure).toHaveCount(0);

  // A deletion fails: 8 s; the loan stays.
  const loanCalls = (url: URL) => url.pathname.startsWith('/api/loans/');
  await page.route(loanCalls, (route) =>
    route.request().method() === 'DELETE' ? route.fulfill(serverError()) : route.fallback(),
  );
  await loans.deleteLoan('TOAST0001');
  const deleteFailure = shell.toast(SERVER_ERROR);
  await expect(deleteFailure).toBeVisible();
  await page.unroute(loanCalls);
  await expect(loans.row('TOAST0001')).toHaveCount(1);
  await after(page, 6000);
  await expect(deleteFailure).toBeVisible();
  await after(page, 2500);
  await expect(deleteFailure).toHaveCount(0);

  // A deletion succeeds: its toast is gone after 5 s.
  await loans.deleteLoan('TOAST0001');
  const deleted = shell.toast(/deleted/i);
  await expect(deleted).toBeVisible();
  await expect(loans.row('TOAST0001')).toHaveCount(0);
  await after(page, 4000);
  await expect(deleted).toBeVisible();
  await after(page, 2000);
  await expect(deleted).toHaveCount(0);
});
