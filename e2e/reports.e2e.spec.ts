import { expect, test } from '@playwright/test';
import { ReportsPage } from './page-models/reports-page';
import { fifteenth, MONTH_NAMES, MoneyApi, signInThroughUi } from './support/money';
import { captureScreen } from './support/screens';
import { createVerifiedUser } from './support/users';

test('reports: income against expense and net worth, each a chart, a table and its CSV', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const user = await createVerifiedUser(request, 'Kavya');
  const api = await MoneyApi.signIn(request, user);
  const savings = await api.createAccount('HDFC Savings', 50000, fifteenth(-3));
  const wallet = await api.createAccount('Wallet', 0, fifteenth(-3));
  await api.createTransaction('Salary', 'C', fifteenth(0), 80000, { account_id: savings });
  await api.createTransaction('Groceries', 'D', fifteenth(-1), 5000.5, { account_id: savings });
  await api.createLoan({
    bankId: await api.createBank('Reports Bank', 'Pune'),
    loanTypeId: await api.createLoanType('Reports Personal Loan'),
    accountNumber: 'PL12345',
    principal: 120000,
    rate: 12,
    months: 12,
    startDate: fifteenth(-2),
  });
  // A transfer between own accounts: never income or expense.
  await api.createTransfer(savings, wallet, 2000, fifteenth(0));

  await signInThroughUi(page, user);
  await page.getByRole('navigation').getByRole('link', { name: 'Reports' }).click();
  const reports = new ReportsPage(page);
  await expect(reports.heading).toBeVisible();
  await expect(reports.tab('Income vs expense')).toHaveAttribute('aria-selected', 'true');

  const now = new Date();
  const thisMonth = `${MONTH_NAMES[now.getMonth()]} ${now.getFullYear()}`;
  const last = new Date(now.getFullYear(), now.getMonth() - 1, 1);
  const lastMonth = `${MONTH_NAMES[last.getMonth()]} ${last.getFullYear()}`;
  await expect(page.getByTestId('income-expense-chart').locator('svg').first()).toBeVisible();
  await expect(reports.rows).toHaveCount(24);
  await expect(reports.row(thisMonth)).toContainText('₹80,000.00');
  await expect(reports.row(lastMonth)).toContainText('₹5,000.50');
  await expect(reports.table.locator('tfoot')).toContainText('₹80,000.00');
  await captureScreen(page, 'reports-income-expense');
  const csv = await reports.downloadCsv();
  expect(csv.name).toMatch(/^income-expense-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(csv.text.split('\r\n')[0]).toBe('\uFEFFMonth,Income,Expense,Loan payments,Net');
  expect(csv.text).toContain(`${thisMonth},80000.00,0.00,`);

  await reports.tab('Net worth').click();
  await expect(page).toHaveURL(/report=net-worth/);
  await expect(page.getByTestId('net-worth-chart').locator('svg').first()).toBeVisible();
  await expect(reports.rows).toHaveCount(24);
  // Today: ₹1,24,999.50 in the accounts (the transfer moved money between them, no more).
  await expect(reports.rows.first()).toContainText('₹1,24,999.50');
  await captureScreen(page, 'reports-net-worth');
  const worth = await reports.downloadCsv();
  expect(worth.text.split('\r\n')[0]).toBe('\uFEFFDate,Accounts,Loans outstanding,Net worth');
});
