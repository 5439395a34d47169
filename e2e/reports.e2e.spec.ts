import { expect, test } from '@playwright/test';
import { BudgetsPage } from './page-models/budgets-page';
import { LedgerPage } from './page-models/ledger-page';
import { ReportsPage } from './page-models/reports-page';
import { fifteenth, isoDate, MONTH_NAMES, MoneyApi, signInThroughUi } from './support/money';
import { captureScreen } from './support/screens';
import { createVerifiedUser } from './support/users';

type Category = { id: string; name: string };

/** The user's categories by name (their first read seeds the household set). */
async function categoriesOf(api: MoneyApi): Promise<Map<string, string>> {
  const { categories } = await api.get<{ categories: Category[] }>('/categories');
  return new Map(categories.map((c) => [c.name, c.id]));
}

test('budgets: one overspent is plain to see on the Budgets screen and the dashboard', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const user = await createVerifiedUser(request, 'Ishaan');
  const api = await MoneyApi.signIn(request, user);
  const ids = await categoriesOf(api);
  const today = isoDate(new Date());
  await api.createTransaction('BigBasket', 'D', today, 6000, { category_id: ids.get('Groceries') });
  await api.createTransaction('Pizza night', 'D', today, 750.5, { category_id: ids.get('Dining out') });
  await api.createTransaction('Petrol', 'D', today, 1200, { category_id: ids.get('Fuel') });

  await signInThroughUi(page, user);
  const budgets = new BudgetsPage(page);
  await budgets.open();
  await expect(page.getByText('No budgets yet')).toBeVisible();
  // Food covers its subcategories: ₹6,750.50 spent against ₹5,000.
  await budgets.add('Food', '5,000');
  await budgets.add('Transport › Fuel', '3,000', true);
  await expect(budgets.rows).toHaveCount(2);
  await expect(budgets.rows.first()).toContainText('Food');
  await expect(budgets.row('Food')).toContainText('Overspent by ₹1,750.50');
  await expect(budgets.row('Food')).toContainText('₹6,750.50 of ₹5,000.00');
  await expect(budgets.row('Fuel')).toContainText('₹1,800.00 left');
  await expect(page.getByRole('alert').or(page.locator('.bp6-callout')).first()).toContainText(
    'Food: overspent by ₹1,750.50',
  );
  await expect(page.getByRole('group', { name: 'Overspent' })).toContainText('1');
  await captureScreen(page, 'budgets-overspent');

  // Edit: a bigger amount and the budget is within it again.
  await page.getByRole('button', { name: 'Edit budget for Food' }).click();
  await budgets.dialog.getByLabel('Monthly Amount (₹)').fill('7,000');
  await budgets.dialog.getByRole('button', { name: 'Update Budget' }).click();
  await expect(budgets.dialog).toHaveCount(0);
  await expect(budgets.row('Food')).toContainText('₹249.50 left');
  await page.getByRole('button', { name: 'Edit budget for Food' }).click();
  await budgets.dialog.getByLabel('Monthly Amount (₹)').fill('5000');
  await budgets.dialog.getByRole('button', { name: 'Update Budget' }).click();
  await expect(budgets.row('Food')).toContainText('Overspent by ₹1,750.50');

  await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).click();
  const card = page.getByRole('region', { name: 'Budgets this month' });
  await expect(card).toContainText('1 budget is overspent this month.');
  await expect(card).toContainText('Overspent by ₹1,750.50');
  await expect(card).toContainText('Spent ₹7,950.50 of ₹8,000.00 budgeted');
  await captureScreen(page, 'dashboard-budgets', async () => {
    await expect(card).toBeVisible();
  });
});

test('reports: spending by category, income against expense and net worth, each a chart, a table and its CSV', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const user = await createVerifiedUser(request, 'Kavya');
  const api = await MoneyApi.signIn(request, user);
  const ids = await categoriesOf(api);
  const today = isoDate(new Date());
  const savings = await api.createAccount('HDFC Savings', 50000, fifteenth(-3));
  const wallet = await api.createAccount('Wallet', 0, fifteenth(-3));
  await api.createTransaction('Salary', 'C', today, 80000, {
    account_id: savings,
    category_id: ids.get('Salary'),
  });
  await api.createTransaction('Groceries', 'D', fifteenth(-1), 5000.5, { account_id: savings });
  await api.createTransaction('BigBasket', 'D', today, 3000, { category_id: ids.get('Groceries') });
  await api.createTransaction('Flat rent', 'D', today, 20000, { category_id: ids.get('Rent') });
  await api.createTransaction('Chai', 'D', today, 120, {});
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

  // Spending by category, this month: rolled up the tree.
  await expect(reports.tab('Spending')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('spending-chart').locator('svg').first()).toBeVisible();
  await expect(reports.rows.filter({ hasText: 'Home' }).first()).toContainText('₹20,000.00');
  await expect(reports.rows.filter({ hasText: 'Groceries' })).toContainText('₹3,000.00');
  await expect(reports.rows.filter({ hasText: 'Loan EMI' })).toContainText('₹10,661.85');
  await expect(reports.rows.filter({ hasText: 'Uncategorised' })).toContainText('₹120.00');
  await captureScreen(page, 'reports-spending');
  const spending = await reports.downloadCsv();
  expect(spending.text.split('\r\n')[0]).toBe('\uFEFFCategory,Parent,Amount,Share,Entries');
  expect(spending.text).toContain('Rent,Home,20000.00,');
  // A financial year takes last month's groceries too.
  await page.getByLabel('Period').selectOption({ label: 'A financial year' });
  await expect(reports.rows.filter({ hasText: 'Uncategorised' })).toContainText('₹5,120.50');

  await reports.tab('Income vs expense').click();
  const now = new Date();
  const thisMonth = `${MONTH_NAMES[now.getMonth()]} ${now.getFullYear()}`;
  const last = new Date(now.getFullYear(), now.getMonth() - 1, 1);
  const lastMonth = `${MONTH_NAMES[last.getMonth()]} ${last.getFullYear()}`;
  await expect(page.getByTestId('income-expense-chart').locator('svg').first()).toBeVisible();
  await expect(reports.rows).toHaveCount(24);
  await expect(reports.row(thisMonth)).toContainText('₹80,000.00');
  await expect(reports.row(lastMonth)).toContainText('₹5,000.50');
  await captureScreen(page, 'reports-income-expense');
  const csv = await reports.downloadCsv();
  expect(csv.name).toMatch(/^income-expense-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(csv.text.split('\r\n')[0]).toBe('\uFEFFMonth,Income,Expense,Loan payments,Net');
  expect(csv.text).toContain(`${thisMonth},80000.00,23120.00,`);

  await reports.tab('Net worth').click();
  await expect(page).toHaveURL(/report=net-worth/);
  await expect(page.getByTestId('net-worth-chart').locator('svg').first()).toBeVisible();
  await expect(reports.rows).toHaveCount(24);
  // Today: ₹1,24,999.50 in the accounts (the transfer moved money between them, no more).
  await expect(reports.rows.first()).toContainText('₹1,24,999.50');
  await captureScreen(page, 'reports-net-worth');
  const worth = await reports.downloadCsv();
  expect(worth.text.split('\r\n')[0]).toBe('\uFEFFDate,Accounts,Loans outstanding,Net worth');

  // The ledger groups its sides by category on asking; the spec's view is the default.
  const ledger = new LedgerPage(page);
  await page.getByRole('navigation').getByRole('link', { name: 'Ledger View' }).click();
  await expect(ledger.heading).toBeVisible();
  const debit = page.getByRole('table', { name: 'Debit entries' });
  await expect(debit.locator('.kosh-ledger-group')).toHaveCount(0);
  await page.getByText('Group by category').click();
  await expect(debit.locator('.kosh-ledger-group')).toHaveCount(4);
  await expect(debit.locator('.kosh-ledger-group').first()).toContainText('Home › Rent');
  await captureScreen(page, 'ledger-grouped');
});
