import { expect, test } from '@playwright/test';
import { AccountsPage } from './page-models/accounts-page';
import { AppShell } from './page-models/app-shell';
import { DashboardPage } from './page-models/dashboard-page';
import { LoanDetailsPage } from './page-models/loan-details-page';
import { fifteenth, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

/**
 * Issue 28, item 10: the user menu works from the keyboard as a menu button does, a skip link
 * leads past the navigation, and the charts have a name and say their figures in words.
 */
test('user menu: Enter opens it on its first item, arrows move, Escape closes it back on its button', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Tara');
  await signInThroughUi(page, user);
  const shell = new AppShell(page);
  await expect(shell.userMenu).toHaveAccessibleName('Hello, Tara Verma');
  const menu = page.getByRole('menu', { name: 'User menu' });
  const item = (name: string) => menu.getByRole('menuitem', { name });

  await shell.userMenu.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  await expect(item('Profile')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(item('Change Password')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(item('Settings')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(item('Change Password')).toBeFocused();
  await page.keyboard.press('End');
  await expect(item('Logout')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(item('Profile')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(shell.userMenu).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(item('Profile')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(item('Change Password')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/change-password$/);
});

test('a skip link is the first stop of Tab and leads to the screen itself', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Tara');
  await signInThroughUi(page, user);
  await page.goto('/transactions');
  await expect(page.getByRole('heading', { name: 'Transaction Book', level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('navigation', { name: 'Primary' }).locator(':focus')).toHaveCount(0);
});

test('the dashboard charts are named and said in words; the loan chart names its months', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Tara');
  const api = await MoneyApi.signIn(request, user);
  const bankId = await api.createBank('Chart Bank', 'Mysuru');
  const loanTypeId = await api.createLoanType('Chart Loan');
  const loanId = await api.createLoan({
    bankId,
    loanTypeId,
    accountNumber: 'CHART00001',
    principal: 240000,
    rate: 9,
    months: 24,
    startDate: fifteenth(-5),
  });
  await api.createTransaction('Salary', 'C', fifteenth(0), 80000);
  await signInThroughUi(page, user);
  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  await expect(
    dashboard.cashflowChart.locator('svg.recharts-surface[role="application"]'),
  ).toHaveAccessibleName('Credits and debits, last 12 months');
  await expect(
    dashboard.outstandingChart.locator('svg.recharts-surface[role="application"]'),
  ).toHaveAccessibleName('Outstanding principal over time');
  await expect(
    dashboard.cashflowRegion
      .getByRole('paragraph')
      .filter({ hasText: /^Over the last 12 months: credits ₹80,000\.00, debits / }),
  ).toBeVisible();
  await expect(
    dashboard.outstandingRegion
      .getByRole('paragraph')
      .filter({ hasText: /^₹2,40,000\.00 owed in \w{3,4} \d{4}, / }),
  ).toBeVisible();
  await expect(
    dashboard.outstandingChart
      .locator('.recharts-cartesian-axis-tick-value')
      // The date axis: the amount axis's ticks are rupees.
      .filter({ hasNotText: /₹/ })
      .first(),
  ).toHaveText(/^[A-Z][a-z]{2,3} \d{4}$/);

  await new LoanDetailsPage(page).goto(loanId);
  const ticks = page
    .getByTestId('loan-balance-chart')
    .locator('.recharts-cartesian-axis-tick-value')
    // The date axis: the amount axis's ticks are rupees.
    .filter({ hasNotText: /₹/ });
  await expect(ticks.first()).toBeVisible();
  for (const tick of await ticks.allTextContents()) expect(tick).toMatch(/^[A-Z][a-z]{2,3} \d{4}$/);
});

test('Enter held down in a dialog field saves once: its release on the button focus returns to opens nothing', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Meera');
  await signInThroughUi(page, user);
  const accounts = new AccountsPage(page);
  await accounts.goto();
  await accounts.addAccount.press('Enter');
  const dialog = accounts.dialog;
  await dialog.getByLabel('Account Name').fill('HDFC Savings');
  await dialog.getByLabel('Opening Balance (₹)').fill('1,00,000');
  await dialog.getByLabel('Opening Balance Date').fill('2025-03-01');
  await dialog.getByLabel('Opening Balance (₹)').focus();
  // A person holds Enter about a tenth of a second; the save can finish, and focus go back to
  // Add Account, before the key comes up.
  await page.keyboard.down('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(accounts.addAccount).toBeFocused();
  await page.keyboard.up('Enter');
  await expect(accounts.row('HDFC Savings')).toBeVisible();
  await page.waitForTimeout(500);
  await expect(dialog).toHaveCount(0);
  // The button itself still answers Enter and Space.
  await accounts.addAccount.press('Enter');
  await expect(dialog.getByLabel('Account Name')).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await accounts.addAccount.focus();
  await page.keyboard.press(' ');
  await expect(dialog.getByLabel('Account Name')).toBeFocused();
});
