import { expect, type Page, test } from '@playwright/test';
import { AmortizationPage } from './page-models/amortization-page';
import { DashboardPage } from './page-models/dashboard-page';
import { LedgerPage } from './page-models/ledger-page';
import { LoanDetailsPage } from './page-models/loan-details-page';
import { LoanFormPage } from './page-models/loan-form-page';
import { LoansPage } from './page-models/loans-page';
import { TransactionsPage } from './page-models/transactions-page';
import { fifteenth, MONTH_NAMES, MoneyApi, signInThroughUi } from './support/money';
import { captureScreen as captureAt } from './support/screens';
import { createVerifiedUser } from './support/users';

/** Full-page pictures are taken from the top, so the sticky header stays where it belongs. */
async function captureScreen(page: Page, name: string, ready?: () => Promise<void>): Promise<void> {
  await captureAt(page, name, async () => {
    if (ready) await ready();
    await page.evaluate(() => window.scrollTo(0, 0));
  });
}

/** The money screens with data, at 1280×800 and 390×844: axe-clean, and a screenshot each. */
test('money screens with data: accessibility and screenshots', async ({ page, request }) => {
  test.setTimeout(300_000);
  const user = await createVerifiedUser(request, 'Lakshmi');
  const api = await MoneyApi.signIn(request, user);
  const bank = await api.createBank('State Bank of India', 'Bengaluru Main');
  const other = await api.createBank('ICICI Bank', 'Hyderabad');
  const home = await api.createLoanType('Home Loan');
  const car = await api.createLoanType('Car Loan');
  const homeLoan = await api.createLoan({
    bankId: bank,
    loanTypeId: home,
    accountNumber: 'SBIHOME0042',
    principal: 4500000,
    rate: 8.4,
    months: 600,
    startDate: fifteenth(-18),
  });
  await api.createLoan({
    bankId: other,
    loanTypeId: car,
    accountNumber: 'ICICAR7788',
    principal: 850000,
    rate: 9.25,
    months: 60,
    startDate: fifteenth(-8),
  });
  const month = fifteenth(-1);
  const entries: [string, 'C' | 'D', number][] = [
    ['Salary from Infosys', 'C', 125000],
    ['Freelance design work for a Pune startup, paid by bank transfer after two reminders', 'C', 18500.5],
    ['Rent for the flat in Koramangala', 'D', 32000],
    ['Groceries at BigBasket', 'D', 6420.75],
    ['Electricity bill (BESCOM)', 'D', 2310],
  ];
  for (const [notes, type, amount] of entries) await api.createTransaction(notes, type, month, amount);

  await signInThroughUi(page, user);
  const dashboard = new DashboardPage(page);
  await captureScreen(page, 'money-dashboard', async () => {
    await expect(dashboard.outstandingChart.locator('.recharts-area-area')).toBeVisible();
  });

  const loans = new LoansPage(page);
  await loans.goto();
  await captureScreen(page, 'money-loans', async () => {
    await expect(loans.rows).toHaveCount(2);
  });
  await page.getByRole('button', { name: 'Delete loan ICICAR7788' }).click();
  await captureScreen(page, 'money-loans-delete-confirm', async () => {
    await expect(loans.deleteAlert).toBeVisible();
  });
  await loans.deleteAlert.getByRole('button', { name: 'Cancel' }).click();

  const form = new LoanFormPage(page);
  await form.gotoCreate();
  await form.createLoan.click();
  await captureScreen(page, 'money-loan-create-errors');
  await form.fill({
    bank: 'State Bank of India - Bengaluru Main',
    loanType: 'Home Loan',
    accountNumber: 'SBIHOME0043',
    principal: '2500000',
    rate: '8.75',
    duration: '20',
    startDate: fifteenth(-1),
    gst: '18',
  });
  await captureScreen(page, 'money-loan-create-preview', async () => {
    await expect(form.previewEmi).not.toHaveText('₹0.00');
  });

  const details = new LoanDetailsPage(page);
  await details.goto(homeLoan);
  await captureScreen(page, 'money-loan-details', async () => {
    await expect(details.card('Loan Summary')).toContainText('600');
  });

  await form.gotoEdit(homeLoan);
  await captureScreen(page, 'money-loan-edit');

  const schedule = new AmortizationPage(page);
  await schedule.goto(homeLoan);
  await captureScreen(page, 'money-amortization-600', async () => {
    // 600 EMIs between head and foot; the rows near the view are rendered (long-tables spec).
    await expect(schedule.table).toHaveAttribute('aria-rowcount', '602');
    await expect(schedule.rows.first()).toHaveAttribute('aria-rowindex', '2');
  });

  const book = new TransactionsPage(page);
  await book.goto();
  await captureScreen(page, 'money-transactions', async () => {
    await expect(book.rows).toHaveCount(5);
  });
  await book.type.selectOption({ label: 'Debit' });
  await book.search.fill('bill');
  await book.search.press('Enter');
  await captureScreen(page, 'money-transactions-filtered', async () => {
    await expect(book.rows).toHaveCount(1);
  });
  await book.clearButton.click();
  await book.openAdd();
  await book.dialog.getByRole('button', { name: 'Create Transaction' }).click();
  await captureScreen(page, 'money-transaction-add-errors', async () => {
    await expect(book.dialogError('Notes')).toBeVisible();
  });
  await book.dialog.getByRole('button', { name: 'Cancel' }).click();
  await book.openDelete('Groceries at BigBasket');
  await captureScreen(page, 'money-transaction-delete', async () => {
    await expect(book.dialog).toContainText('₹6,420.75');
  });
  await book.dialog.getByRole('button', { name: 'Cancel' }).click();

  const ledger = new LedgerPage(page);
  await ledger.goto();
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  await ledger.choose(MONTH_NAMES[monthNumber - 1] as string, year);
  await captureScreen(page, 'money-ledger', async () => {
    await expect(ledger.emiRows).toHaveCount(2);
  });
});
