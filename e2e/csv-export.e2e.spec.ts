import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { AmortizationPage } from './page-models/amortization-page';
import { TransactionsPage } from './page-models/transactions-page';
import { isoDate, MoneyApi, signInThroughUi } from './support/money';
import { captureScreen } from './support/screens';
import { createVerifiedUser } from './support/users';

/** Clicks "Export CSV" and answers the file's name and text (BOM kept). */
async function exported(page: Page): Promise<{ name: string; text: string }> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  const file = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(file, 'utf8') };
}

/** Issue 30 item 8: each export button downloads its CSV, spreadsheet-ready. */
test('export buttons download the book (with its filters), the ledger month, a schedule and a register', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const user = await createVerifiedUser(request, 'Kavya');
  const api = await MoneyApi.signIn(request, user);
  const today = isoDate(new Date());
  const accountId = await api.createAccount('HDFC Savings', 1000, '2025-01-01');
  await api.createTransaction('Dinner, with "friends"', 'D', today, 1234.5, { account_id: accountId });
  await api.createTransaction('=refund', 'C', today, 100);
  const loanId = await api.createLoan({
    bankId: 1,
    loanTypeId: 1,
    accountNumber: 'CAR2025',
    principal: 300000,
    rate: 9,
    months: 12,
    startDate: '2025-01-10',
  });
  await signInThroughUi(page, user);

  const book = new TransactionsPage(page);
  await book.goto();
  await expect(book.rows).toHaveCount(2);
  const all = await exported(page);
  expect(all.name).toBe('transactions.csv');
  expect(all.text.startsWith('\uFEFFDate,Type,Credit,Debit,Notes,Account,Bank narration\r\n')).toBe(true);
  expect(all.text).toContain(`${today},Debit,,1234.50,"Dinner, with ""friends""",HDFC Savings,\r\n`);
  expect(all.text).toContain(`${today},Credit,100.00,,'=refund,,\r\n`);
  await book.search.fill('Dinner');
  await book.searchButton.click();
  await expect(book.rows).toHaveCount(1);
  const filtered = await exported(page);
  expect(filtered.text.split('\r\n')).toHaveLength(3);
  await captureScreen(page, 'transactions-export', async () => {
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeVisible();
  });

  await page.goto('/ledger');
  await expect(page.getByRole('heading', { name: 'Ledger View', level: 1 })).toBeVisible();
  const ledger = await exported(page);
  expect(ledger.name).toBe(`ledger-${today.slice(0, 7)}.csv`);
  expect(ledger.text.startsWith('\uFEFFDate,Particulars,Kind,Credit,Debit\r\n')).toBe(true);
  expect(ledger.text).toContain('1234.50');

  const schedule = new AmortizationPage(page);
  await schedule.goto(loanId);
  await expect(schedule.rows.first()).toBeVisible();
  const rows = await exported(page);
  expect(rows.name).toBe('loan-CAR2025-schedule.csv');
  const lines = rows.text.split('\r\n').filter((line) => line !== '');
  expect(lines).toHaveLength(13);
  expect(lines[1]).toMatch(/^1,2025-02-10,EMI,\d+\.\d{2},/);
  await captureScreen(page, 'amortization-export', async () => {
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeVisible();
  });

  await page.goto(`/accounts/${accountId}`);
  await expect(page.getByRole('table', { name: 'Register' })).toBeVisible();
  const register = await exported(page);
  expect(register.name).toBe('HDFC Savings-register.csv');
  expect(register.text).toContain('2025-01-01,Opening balance,Opening balance,,,1000.00\r\n');
});
