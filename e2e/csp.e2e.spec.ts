import { expect, type Page, test } from '@playwright/test';
import { AmortizationPage } from './page-models/amortization-page';
import { LoanDetailsPage } from './page-models/loan-details-page';
import { TransactionsPage } from './page-models/transactions-page';
import { fifteenth, isoDate, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

/**
 * Issue 10, item 9: the web app runs under its strict Content-Security-Policy. Every route is
 * visited and the test fails on any violation the browser reports, so a dependency or a change
 * that needs an inline script or style (or a foreign origin) is caught here, not by users.
 */
function watchPolicyViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
      violations.push(`${page.url()}: ${message.text()}`);
    }
  });
  // The event as well as Chromium's own console line: the event names the blocked directive.
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `Content Security Policy violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`,
      );
    });
  });
  return violations;
}

async function visit(page: Page, path: string): Promise<void> {
  const response = await page.goto(path);
  expect(response?.headers()['content-security-policy'], path).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible();
  await page.waitForLoadState('networkidle');
}

test('the policy is enforced: an inline script is refused and reported', async ({ page }) => {
  const violations = watchPolicyViolations(page);
  await visit(page, '/login');
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.head.append(script);
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations.length).toBeGreaterThan(0);
});

test('signed-out screens run without a policy violation', async ({ page }) => {
  const violations = watchPolicyViolations(page);
  for (const path of [
    '/login',
    '/register',
    '/forgot-password',
    '/reset-password?token=abc',
    '/verify-email?token=not-a-real-token',
  ]) {
    await visit(page, path);
  }
  expect(violations).toEqual([]);
});

test('every signed-in screen, dialog and theme runs without a policy violation', async ({
  page,
  request,
}) => {
  test.slow();
  const violations = watchPolicyViolations(page);
  const user = await createVerifiedUser(request, 'Kavya');
  const api = await MoneyApi.signIn(request, user);
  const bankId = await api.createBank('Kosh Policy Bank', 'Nashik');
  const loanTypeId = await api.createLoanType('Policy Home Loan');
  const loanId = await api.createLoan({
    bankId,
    loanTypeId,
    accountNumber: 'CSP000123',
    principal: 300000,
    rate: 9,
    months: 24,
    startDate: fifteenth(-3),
    // Not auto-debited: its past EMIs are overdue and offer "Mark paid", whose dialog is checked below.
    emisAutoDebited: false,
  });
  await api.createTransaction('Groceries', 'D', fifteenth(0), 2500);
  await signInThroughUi(page, user);

  const screens = [
    '/dashboard',
    '/loans',
    '/loans/create',
    `/loans/${loanId}`,
    `/loans/${loanId}/edit`,
    `/loans/${loanId}/amortization`,
    `/loans/${loanId}/certificate`,
    '/transactions',
    '/ledger',
    '/profile',
    '/change-password',
    '/settings',
    '/history',
    '/audits',
    `/ledger?as_of=${isoDate(new Date(Date.now() - 86_400_000))}`,
    `/transactions?as_of=${isoDate(new Date(Date.now() - 86_400_000))}`,
  ];
  for (const path of screens) await visit(page, path);

  // Issue 14: the History drawers of a transaction and of a loan.
  await visit(page, '/transactions');
  await page.getByRole('button', { name: 'History of transaction Groceries' }).click();
  await expect(page.getByRole('dialog', { name: 'History of Groceries' }).getByRole('listitem')).toHaveCount(
    1,
  );
  await page.keyboard.press('Escape');
  await visit(page, `/loans/${loanId}`);
  await page.getByRole('button', { name: 'History', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'History of loan CSP000123' })).toBeVisible();
  await page.keyboard.press('Escape');

  const transactions = new TransactionsPage(page);
  await transactions.goto();
  await transactions.openAdd();
  await page.keyboard.press('Escape');

  // Issue 15: the loan change dialogs (the part-payment's what-if table and the balance chart too).
  const details = new LoanDetailsPage(page);
  await details.goto(loanId);
  await expect(page.getByTestId('loan-balance-chart')).toBeVisible();
  for (const [button, title] of [
    ['Part-payment', 'Part-payment'],
    ['Rate Change', 'Rate Change'],
    ['EMI Override', 'EMI Override'],
    ['Foreclose', 'Foreclose Loan'],
  ] as const) {
    await details.change(button).click();
    await expect(details.dialog(title)).toBeVisible();
    if (button === 'Part-payment') {
      await details.dialog(title).getByLabel('Amount (₹)').fill('10000');
      await details.dialog(title).getByRole('button', { name: 'Compare Choices' }).click();
      await expect(page.getByRole('table', { name: 'What-if comparison' })).toBeVisible();
    }
    await page.keyboard.press('Escape');
    await expect(details.dialog(title)).toBeHidden();
  }
  const schedule = new AmortizationPage(page);
  await schedule.goto(loanId);
  await schedule.markPaid(1).click();
  await expect(page.getByRole('dialog', { name: 'Mark EMI 1 Paid' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.evaluate(() =>
    localStorage.setItem(
      'kosh.settings',
      JSON.stringify({ appearance: { darkMode: true, compactView: false } }),
    ),
  );
  for (const path of screens) await visit(page, path);
  expect(violations).toEqual([]);
});
