import { expect, type Page, test } from '@playwright/test';
import { AccountsPage } from './page-models/accounts-page';
import { TransactionsPage } from './page-models/transactions-page';
import { signInThroughUi } from './support/money';
import { captureScreen as captureAt } from './support/screens';
import { createVerifiedUser } from './support/users';

/** Full-page pictures are taken from the top, so the sticky header stays where it belongs. */
async function captureScreen(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  await captureAt(page, name, async () => {
    await ready();
    await page.evaluate(() => window.scrollTo(0, 0));
  });
}

test('accounts: open two, a transaction in one, a transfer between them, and the register', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const user = await createVerifiedUser(request, 'Meera');
  await signInThroughUi(page, user);
  const accounts = new AccountsPage(page);
  await accounts.goto();
  await expect(page.getByText('No accounts yet')).toBeVisible();

  await accounts.add({
    name: 'HDFC Savings',
    bankName: 'HDFC Bank',
    lastFour: '4321',
    openingBalance: '1,00,000',
    openingDate: '2025-03-01',
  });
  await accounts.add({
    name: 'Paytm Wallet',
    kind: 'Wallet',
    openingBalance: '0',
    openingDate: '2025-03-01',
  });
  await expect(accounts.row('HDFC Savings')).toContainText('₹1,00,000.00');

  // A transaction in the savings account, from the transaction book's form.
  const book = new TransactionsPage(page);
  await book.goto();
  await book.addTransaction.press('Enter');
  const form = book.dialog;
  await form.getByLabel('Notes').fill('Rent for March');
  await form.getByLabel('Transaction Type').selectOption({ label: 'Debit (Expense)' });
  await form.getByLabel('Transaction Date').fill('2025-03-05');
  await form.getByLabel('Amount (₹)').fill('25,000');
  await form.getByLabel('Account').selectOption({ label: 'HDFC Savings' });
  await form.getByRole('button', { name: 'Create Transaction' }).click();
  await expect(form).toHaveCount(0);
  await book.settled();

  // The book's account filter.
  await page.getByLabel('Account', { exact: true }).selectOption({ label: 'HDFC Savings' });
  await book.searchButton.click();
  await expect(book.badges).toHaveText(['Account: HDFC Savings']);
  await expect(book.rows).toHaveCount(1);
  await expect(book.rows.first()).toContainText('Rent for March');

  // A transfer: never in the book's totals.
  await accounts.open();
  await accounts.transfer.press('Enter');
  const transfer = accounts.dialog;
  await transfer.getByLabel('From Account').selectOption({ label: 'HDFC Savings' });
  await transfer.getByLabel('To Account').selectOption({ label: 'Paytm Wallet' });
  await transfer.getByLabel('Amount (₹)').fill('5,000');
  await transfer.getByLabel('Transfer Date').fill('2025-03-06');
  await transfer.getByLabel('Notes').fill('Wallet top up');
  await transfer.getByLabel('Notes').press('Enter');
  await expect(transfer).toHaveCount(0);
  await expect(accounts.row('HDFC Savings')).toContainText('₹70,000.00');
  await expect(accounts.row('Paytm Wallet')).toContainText('₹5,000.00');
  await book.goto();
  await expect(book.stat('Total Debits')).toContainText('₹25,000.00');
  await expect(book.stat('Total Transactions')).toContainText('1');

  await accounts.open();
  await captureScreen(page, 'accounts-list', async () => {
    await expect(accounts.row('Paytm Wallet')).toContainText('₹5,000.00');
  });

  // The register, newest first, with the running balance after each row.
  await accounts.row('HDFC Savings').getByRole('link', { name: 'HDFC Savings' }).click();
  await expect(page.getByRole('heading', { name: 'HDFC Savings', level: 1 })).toBeVisible();
  await expect(accounts.registerRows).toHaveCount(3);
  await expect(accounts.registerRows.nth(0)).toContainText('Wallet top up · to Paytm Wallet');
  await expect(accounts.registerRows.nth(0)).toContainText('₹70,000.00');
  await expect(accounts.registerRows.nth(1)).toContainText('Rent for March');
  await expect(accounts.registerRows.nth(1)).toContainText('₹75,000.00');
  await expect(accounts.registerRows.nth(2)).toContainText('Opening balance');
  await captureScreen(page, 'account-register', async () => {
    await expect(accounts.registerRows).toHaveCount(3);
  });

  // The CSV export downloads.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  expect((await download).suggestedFilename()).toBe('HDFC Savings-register.csv');

  // The other leg, in the wallet's register.
  await accounts.open();
  await accounts.row('Paytm Wallet').getByRole('link', { name: 'Paytm Wallet' }).click();
  await expect(accounts.registerRows.nth(0)).toContainText('Wallet top up · from HDFC Savings');
  await expect(accounts.registerRows.nth(0)).toContainText('₹5,000.00');
});
