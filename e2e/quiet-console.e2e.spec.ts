import { expect, test } from '@playwright/test';
import { fifteenth, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

/**
 * Issue 28, item 11: loading a screen writes no warning to the browser console (Blueprint's
 * Popover warned on every signed-in screen, NumericInput on each keystroke of the loan form).
 */
test('no screen warns in the console on load', async ({ page, request }) => {
  test.slow();
  const user = await createVerifiedUser(request, 'Nikhil');
  const api = await MoneyApi.signIn(request, user);
  const bankId = await api.createBank('Quiet Bank', 'Kochi');
  const loanTypeId = await api.createLoanType('Quiet Loan');
  const loanId = await api.createLoan({
    bankId,
    loanTypeId,
    accountNumber: 'QUIET00001',
    principal: 300000,
    rate: 9,
    months: 24,
    startDate: fifteenth(-4),
  });
  await api.createTransaction('Groceries', 'D', fifteenth(0), 2500);

  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error')
      warnings.push(`${new URL(page.url()).pathname}: ${message.text()}`);
  });
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
    '/history',
    '/profile',
    '/change-password',
    '/settings',
    '/audits',
  ];
  for (const path of screens) {
    await page.goto(path);
    await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  // Typing in the loan form (NumericInput warned on each change).
  await page.goto('/loans/create');
  await page.getByLabel('Principal Amount (₹)').pressSequentially('500000');
  await page.getByLabel('Interest Rate (%)').pressSequentially('8.5');
  expect(warnings).toEqual([]);
  // The user menu opened and closed (the Popover warned as it positioned itself).
  await page.getByRole('banner').getByRole('button').last().click();
  await expect(page.getByRole('menu', { name: 'User menu' })).toBeVisible();
  await page.keyboard.press('Escape');
  expect(warnings).toEqual([]);
});
