import { expect, type Page, test } from '@playwright/test';
import { AppShell } from './page-models/app-shell';
import { LoanFormPage } from './page-models/loan-form-page';
import { TransactionsPage } from './page-models/transactions-page';
import { fifteenth, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

/**
 * Issue 10, item 10, in the browser: the server records a create but its answer is lost to a
 * network error. The app sends the create again with the same Idempotency-Key, and the user ends
 * up with one entry, not two.
 */
async function loseFirstAnswer(page: Page, path: string): Promise<string[]> {
  const keys: string[] = [];
  let lost = false;
  await page.route(`**${path}`, async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (lost) return route.continue();
    lost = true;
    await route.fetch();
    await route.abort('failed');
  });
  return keys;
}

test('a transaction whose answer was lost is recorded once', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Ishaan');
  await signInThroughUi(page, user);
  const transactions = new TransactionsPage(page);
  await transactions.goto();
  const keys = await loseFirstAnswer(page, '/api/transactions');

  await transactions.add({
    notes: 'Electricity bill',
    type: 'Debit (Expense)',
    date: fifteenth(0),
    amount: '1800',
  });
  await expect(new AppShell(page).toast('Transaction created successfully!')).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(keys[1]).toBe(keys[0]);
  await transactions.goto();
  await expect(transactions.row('Electricity bill')).toHaveCount(1);

  // The next submission is a new entry with a new key, even with the same values.
  await transactions.add({
    notes: 'Electricity bill',
    type: 'Debit (Expense)',
    date: fifteenth(0),
    amount: '1800',
  });
  await expect(transactions.row('Electricity bill')).toHaveCount(2);
  expect(keys).toHaveLength(3);
  expect(keys[2]).not.toBe(keys[0]);
});

test('a loan whose answer was lost is created once', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Tara');
  const api = await MoneyApi.signIn(request, user);
  await api.createBank('Kosh Retry Bank', 'Goa');
  await api.createLoanType('Retry Car Loan');
  await signInThroughUi(page, user);
  const form = new LoanFormPage(page);
  await form.gotoCreate();
  const keys = await loseFirstAnswer(page, '/api/loans');

  await form.fill({
    bank: 'Kosh Retry Bank - Goa',
    loanType: 'Retry Car Loan',
    accountNumber: 'RETRY0001',
    principal: '400000',
    rate: '10',
    duration: '3',
    startDate: fifteenth(-1),
  });
  await form.createLoan.click();
  await expect(new AppShell(page).toast('Loan created successfully')).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  await page.goto('/loans');
  await expect(page.getByText('RETRY0001')).toHaveCount(1);
});
