import { expect, test } from '@playwright/test';
import { DashboardPage } from './page-models/dashboard-page';
import { fifteenth, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

test('the dashboard without data: zero cards and both chart empty states', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Zoya');
  await signInThroughUi(page, user);
  const dashboard = new DashboardPage(page);
  await expect(page.getByRole('heading', { name: 'Welcome back, Zoya!' })).toBeVisible();
  await expect(dashboard.card('Total Loans')).toContainText('0');
  await expect(dashboard.card('Active Loans')).toContainText('0% of total');
  await expect(dashboard.card('Total Amount')).toContainText('₹0.00');
  await expect(dashboard.card('Remaining Amount')).toContainText('0% pending');
  await expect(dashboard.cashflowRegion).toContainText('No credits or debits yet');
  await expect(dashboard.outstandingRegion).toContainText('No loans yet');
  await expect(dashboard.cashflowChart).toHaveCount(0);
  await expect(dashboard.outstandingChart).toHaveCount(0);

  await dashboard.quickAction('Create New Loan').click();
  await expect(page).toHaveURL(/\/loans\/create$/);
  await page.goBack();
  await dashboard.quickAction('Transaction Book').click();
  await expect(page).toHaveURL(/\/transactions$/);
  await page.goBack();
  await dashboard.quickAction('All Loans').click();
  await expect(page).toHaveURL(/\/loans$/);
  await page.goBack();
  await dashboard.quickAction('Profile').click();
  await expect(page).toHaveURL(/\/profile$/);
});

test('the dashboard with data: loan cards and both charts drawn', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Dev');
  const api = await MoneyApi.signIn(request, user);
  const bank = await api.createBank('Chart Test Bank', 'Jaipur');
  const type = await api.createLoanType('Chart Gold Loan');
  await api.createLoan({
    bankId: bank,
    loanTypeId: type,
    accountNumber: 'CHART0001',
    principal: 600000,
    rate: 9,
    months: 60,
    startDate: fifteenth(-6),
  });
  await api.createLoan({
    bankId: bank,
    loanTypeId: type,
    accountNumber: 'CHART0002',
    principal: 200000,
    rate: 11,
    months: 12,
    startDate: '2021-03-15',
  });
  await api.createTransaction('Bonus', 'C', fifteenth(-1), 150000);
  await api.createTransaction('School fees', 'D', fifteenth(-2), 40000);

  await signInThroughUi(page, user);
  const dashboard = new DashboardPage(page);
  await expect(dashboard.card('Total Loans')).toContainText('2');
  await expect(dashboard.card('Active Loans')).toContainText('1');
  await expect(dashboard.card('Active Loans')).toContainText('50.0% of total');
  await expect(dashboard.card('Total Amount')).toContainText('₹8,00,000.00');
  await expect(dashboard.card('Remaining Amount')).toContainText(/₹5,\d\d,\d{3}\.\d\d/);
  await expect(dashboard.card('Remaining Amount')).toContainText('% pending');

  await expect(dashboard.cashflowChart.locator('.recharts-bar-rectangle').first()).toBeVisible();
  // 12 months of credits and debits: the bonus, the fees and six EMIs are drawn.
  await expect(
    dashboard.cashflowChart.locator('.recharts-xAxis .recharts-cartesian-axis-tick'),
  ).not.toHaveCount(0);
  await expect(dashboard.cashflowChart).toContainText('Credits');
  await expect(dashboard.cashflowChart).toContainText('Debits (incl. EMIs)');
  await expect(dashboard.outstandingChart.locator('.recharts-area-area')).toBeVisible();
});
