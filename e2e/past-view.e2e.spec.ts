import { expect, test } from '@playwright/test';
import { AsOfMode } from './page-models/history-page';
import { LoanDetailsPage } from './page-models/loan-details-page';
import { LoansPage } from './page-models/loans-page';
import { fifteenth, isoDate, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

/**
 * Issue 28, item 3: a past view shows the answer for that date. A loan recorded today did not
 * exist yesterday: its past view says so instead of showing today's loan under the banner, and
 * yesterday's empty loan list does not invite the reader to add a first loan.
 */
test('the past view of a loan recorded today says it did not exist yet, and the list says it was empty', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Farah');
  const api = await MoneyApi.signIn(request, user);
  const bankId = await api.createBank('Past View Bank', 'Surat');
  const loanTypeId = await api.createLoanType('Past View Loan');
  const loanId = await api.createLoan({
    bankId,
    loanTypeId,
    accountNumber: 'PASTVIEW01',
    principal: 200000,
    rate: 10,
    months: 24,
    startDate: fifteenth(-3),
  });
  const yesterday = isoDate(new Date(Date.now() - 86_400_000));
  await signInThroughUi(page, user);

  const details = new LoanDetailsPage(page);
  await details.goto(loanId);
  await expect(details.card('Basic Information')).toContainText('PASTVIEW01');
  const asOf = new AsOfMode(page);
  await asOf.choose(yesterday);
  await expect(asOf.banner).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Not in your loans on / })).toBeVisible();
  await expect(page.getByText('This loan did not exist yet on that day')).toBeVisible();
  await expect(details.card('Basic Information')).toHaveCount(0);
  await expect(page.getByText('PASTVIEW01')).toHaveCount(0);

  const loans = new LoansPage(page);
  await loans.goto();
  await asOf.choose(yesterday);
  await expect(page.getByText('No loans found')).toBeVisible();
  await expect(page.getByText(/^You had no loans on /)).toBeVisible();
  await expect(page.getByText('Add your first loan to see its EMIs.')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create New Loan' })).toHaveCount(0);
});
