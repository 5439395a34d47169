import { expect, test } from '@playwright/test';
import { AppShell } from './page-models/app-shell';
import { LedgerPage } from './page-models/ledger-page';
import { LoansPage } from './page-models/loans-page';
import { fifteenth, MONTH_NAMES, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

test('loan list: debounced search, bank filter, page sizes, status, and deletion taking its EMIs out of the ledger', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Arjun');
  const api = await MoneyApi.signIn(request, user);
  const alpha = await api.createBank('Alpha Test Bank', 'Delhi');
  const beta = await api.createBank('Beta Test Bank', 'Chennai');
  const type = await api.createLoanType('List Personal Loan');
  const startDate = fifteenth(-3);
  for (let i = 1; i <= 6; i++) {
    const accountNumber = `ALPHA000${i}`;
    await api.createLoan({
      bankId: alpha,
      loanTypeId: type,
      accountNumber,
      principal: 100000 * i,
      rate: 10,
      months: 24,
      startDate,
    });
  }
  for (let i = 1; i <= 5; i++) {
    const accountNumber = `BETA000${i}`;
    await api.createLoan({
      bankId: beta,
      loanTypeId: type,
      accountNumber,
      principal: 50000 * i,
      rate: 12,
      months: 12,
      startDate,
    });
  }
  // One loan that ended long ago.
  await api.createLoan({
    bankId: alpha,
    loanTypeId: type,
    accountNumber: 'OLDLOAN01',
    principal: 20000,
    rate: 8,
    months: 12,
    startDate: '2020-01-15',
  });

  await signInThroughUi(page, user);
  const loans = new LoansPage(page);
  await loans.goto();
  await expect(loans.caption).toHaveText('Showing 1 to 10 of 12 results');
  await expect(loans.rows).toHaveCount(10);
  await expect(loans.bankFilter.locator('option').first()).toHaveText('All Banks');

  // Columns and the status badge.
  await loans.pageSize.selectOption('25');
  await expect(loans.caption).toHaveText('Showing 1 to 12 of 12 results');
  await expect(loans.row('OLDLOAN01')).toContainText('Completed');
  await expect(loans.row('OLDLOAN01').locator('.bp6-tag')).toHaveClass(/bp6-intent-success/);
  await expect(loans.row('BETA0002')).toContainText('Active');
  await expect(loans.row('BETA0002').locator('.bp6-tag')).toHaveClass(/bp6-intent-primary/);
  await expect(loans.row('BETA0002')).toContainText('Beta Test Bank');
  await expect(loans.row('BETA0002')).toContainText('Chennai');
  await expect(loans.row('BETA0002')).toContainText('₹1,00,000.00');
  await expect(loans.row('BETA0002')).toContainText('12% per year');

  // Page sizes 5, 10, 25, 50.
  await loans.pageSize.selectOption('5');
  await expect(loans.caption).toHaveText('Showing 1 to 5 of 12 results');
  await expect(loans.rows).toHaveCount(5);
  // Two quick clicks on Next while the page asked for is still on its way move two pages.
  await page.route('**/api/loans?**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await loans.nextPage.click();
  await loans.nextPage.click();
  await expect(loans.caption).toHaveText('Showing 11 to 12 of 12 results');
  await page.unroute('**/api/loans?**');
  await expect(loans.nextPage).toBeDisabled();
  await loans.previousPage.click();
  await expect(loans.caption).toHaveText('Showing 6 to 10 of 12 results');
  await loans.pageSize.selectOption('50');
  await expect(loans.caption).toHaveText('Showing 1 to 12 of 12 results');
  await loans.pageSize.selectOption('10');
  await expect(loans.caption).toHaveText('Showing 1 to 10 of 12 results');

  // Search waits for 300 ms of quiet: typing quickly sends one search, for the whole word.
  const searches: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/loans' && url.searchParams.has('search'))
      searches.push(url.searchParams.get('search') ?? '');
  });
  await loans.search.pressSequentially('BETA', { delay: 40 });
  await expect(loans.caption).toHaveText('Showing 1 to 5 of 5 results');
  expect(searches).toEqual(['BETA']);
  await loans.search.fill('');
  await expect(loans.caption).toHaveText('Showing 1 to 10 of 12 results');

  // Bank filter, and 'All Banks' again.
  await loans.bankFilter.selectOption({ label: 'Beta Test Bank - Chennai' });
  await expect(loans.caption).toHaveText('Showing 1 to 5 of 5 results');
  await expect(loans.rows.filter({ hasText: 'Alpha Test Bank' })).toHaveCount(0);
  await loans.bankFilter.selectOption({ label: 'All Banks' });
  await expect(loans.caption).toHaveText('Showing 1 to 10 of 12 results');

  // Nothing found.
  await loans.search.fill('NOSUCHLOAN');
  await expect(loans.emptyState).toBeVisible();
  await expect(page.getByRole('main').getByRole('button', { name: 'Create New Loan' })).toHaveCount(2);
  await loans.search.fill('');

  // The month of the first EMIs holds one EMI per active loan.
  const ledger = new LedgerPage(page);
  const [year, month] = fifteenth(-2).split('-').map(Number) as [number, number];
  const monthName = MONTH_NAMES[month - 1] as string;
  await ledger.goto();
  await ledger.choose(monthName, year);
  await expect(ledger.emiRows).toHaveCount(11);
  await expect(ledger.debitTable).toContainText('ALPHA0003');

  // Delete one: confirm, toast, list and ledger follow.
  await loans.goto();
  await loans.deleteLoan('ALPHA0003');
  await expect(new AppShell(page).toast(/deleted/i)).toBeVisible();
  await expect(loans.caption).toHaveText('Showing 1 to 10 of 11 results');
  await expect(loans.row('ALPHA0003')).toHaveCount(0);
  await ledger.goto();
  await ledger.choose(monthName, year);
  await expect(ledger.emiRows).toHaveCount(10);
  await expect(ledger.debitTable).not.toContainText('ALPHA0003');
});
