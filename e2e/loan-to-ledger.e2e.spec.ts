import { expect, test } from '@playwright/test';
import { AmortizationPage } from './page-models/amortization-page';
import { AppShell } from './page-models/app-shell';
import { LedgerPage } from './page-models/ledger-page';
import { LoanDetailsPage } from './page-models/loan-details-page';
import { LoanFormPage } from './page-models/loan-form-page';
import { TransactionsPage } from './page-models/transactions-page';
import { fifteenth, MONTH_NAMES, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

test('a loan from the form to its schedule and its EMI in the ledger, with transactions following', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Meera');
  const api = await MoneyApi.signIn(request, user);
  await api.createBank('Kosh Lifecycle Bank', 'Pune');
  await api.createLoanType('Lifecycle Home Loan');
  await signInThroughUi(page, user);
  const shell = new AppShell(page);

  // Create: the live preview follows the typing, and its EMI is the schedule's first EMI.
  const form = new LoanFormPage(page);
  await form.gotoCreate();
  const startDate = fifteenth(-2);
  const firstEmiDate = fifteenth(-1);
  await form.fill({
    bank: 'Kosh Lifecycle Bank - Pune',
    loanType: 'Lifecycle Home Loan',
    accountNumber: 'LIFE12345',
    principal: '500000',
    rate: '9.5',
    duration: '3',
    startDate,
  });
  await expect(form.previewEmi).toHaveText('₹16,016.47');
  await expect(form.previewInterest).toHaveText('₹76,593.10');
  await expect(form.previewTotal).toHaveText('₹5,76,593.10');
  await expect(form.endDate).not.toHaveValue('');
  const previewEmi = await form.previewEmi.textContent();
  await form.createLoan.click();
  await expect(shell.toast('Loan created successfully')).toBeVisible();

  const details = new LoanDetailsPage(page);
  await expect(details.heading).toBeVisible();
  await expect(details.card('Basic Information')).toContainText('Kosh Lifecycle Bank - Pune');
  await expect(details.card('Financial Details')).toContainText('₹5,00,000.00');
  await expect(details.card('Financial Details')).toContainText('9.5% per year');
  await expect(details.card('Loan Summary')).toContainText(previewEmi as string);
  const loanUrl = page.url();
  await details.regenerateSchedule.click();
  await expect(shell.toast('Amortization schedule generated successfully')).toBeVisible();
  await expect(page).toHaveURL(`${loanUrl}/amortization`);
  await page.goto(loanUrl);
  await details.viewSchedule.click();

  // The schedule: 36 rows, the first EMI as previewed, and a totals row.
  const schedule = new AmortizationPage(page);
  await expect(schedule.heading).toBeVisible();
  await expect(schedule.rows).toHaveCount(36);
  await expect(schedule.cell(1, 5)).toHaveText(previewEmi as string);
  await expect(schedule.cell(36, 6)).toHaveText('₹0.00');
  await expect(schedule.totalsRow).toContainText('Total');
  await expect(schedule.totalsRow.locator('th').nth(1)).toHaveText('₹5,00,000.00');
  await expect(schedule.summary('Number of Payments')).toContainText('36');
  await expect(schedule.summary('Principal')).toContainText('₹5,00,000.00');

  // The ledger month of the first EMI shows it as a highlighted debit.
  const ledger = new LedgerPage(page);
  await ledger.goto();
  const [year, month] = firstEmiDate.split('-').map(Number) as [number, number];
  const monthName = MONTH_NAMES[month - 1] as string;
  await ledger.choose(monthName, year);
  await expect(ledger.emiRows).toHaveCount(1);
  await expect(ledger.emiRows).toContainText('EMI Payment');
  await expect(ledger.emiRows).toContainText('LIFE12345');
  await expect(ledger.emiRows).toContainText(previewEmi as string);
  await expect(ledger.card('EMI Payments')).toContainText('1');
  await expect(ledger.creditTable).toContainText('No credit transactions for this period');

  // Transactions in that month: add a credit and a debit, edit one, delete one.
  const book = new TransactionsPage(page);
  await book.goto();
  await expect(book.stat('Total Transactions')).toContainText('0');
  await book.add({
    notes: 'Salary for the month',
    type: 'Credit (Income)',
    date: firstEmiDate,
    amount: '80000',
  });
  await expect(shell.toast('Transaction created successfully!')).toBeVisible();
  await book.add({ notes: 'Flat rent', type: 'Debit (Expense)', date: firstEmiDate, amount: '20000' });
  await expect(book.stat('Total Transactions')).toContainText('2');
  await expect(book.stat('Total Credits')).toContainText('₹80,000.00');
  await expect(book.stat('Total Debits')).toContainText('₹20,000.00');
  await expect(book.stat('Net Amount')).toContainText('₹60,000.00');
  await expect(book.row('Flat rent')).toContainText('-₹20,000.00');
  await expect(book.row('Salary for the month')).toContainText('+₹80,000.00');

  await book.edit('Flat rent', { amount: '25000.50' });
  await expect(shell.toast('Transaction updated successfully!')).toBeVisible();
  await expect(book.row('Flat rent')).toContainText('-₹25,000.50');
  await expect(book.stat('Total Debits')).toContainText('₹25,000.50');
  await expect(book.stat('Net Amount')).toContainText('₹54,999.50');

  await book.openDelete('Salary for the month');
  await expect(book.dialog).toContainText('This action cannot be undone.');
  await expect(book.dialog).toContainText('Are you sure you want to delete this transaction?');
  await expect(book.dialog).toContainText('₹80,000.00');
  await expect(book.dialog).toContainText('Credit');
  await book.dialog.getByRole('button', { name: 'Delete Transaction' }).click();
  await expect(shell.toast('Transaction deleted successfully!')).toBeVisible();
  await expect(book.row('Salary for the month')).toHaveCount(0);
  await expect(book.stat('Total Transactions')).toContainText('1');
  await expect(book.stat('Net Amount')).toContainText('-₹25,000.50');
  await expect(book.stat('Net Amount')).toHaveClass(/kosh-stat-warning/);

  // The ledger follows: the debit and the EMI, no credit, a deficit.
  await ledger.goto();
  await ledger.choose(monthName, year);
  await expect(ledger.debitTable.locator('tbody tr')).toHaveCount(2);
  await expect(ledger.debitTable).toContainText('Flat rent');
  await expect(ledger.creditTable).toContainText('No credit transactions for this period');
  await expect(ledger.card('Net Balance')).toContainText('Deficit');
  await expect(ledger.netMessage).toHaveText('You have a deficit this month');
});
