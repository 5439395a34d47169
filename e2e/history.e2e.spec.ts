import { type APIRequestContext, expect, test } from '@playwright/test';
import { AsOfMode, HistoryPage } from './page-models/history-page';
import { LedgerPage } from './page-models/ledger-page';
import { TransactionsPage } from './page-models/transactions-page';
import { fifteenth, isoDate, MoneyApi, signInThroughUi } from './support/money';
import { captureScreen } from './support/screens';
import { createVerifiedUser, type TestUser } from './support/users';

/** Issue 14, item 6: the History page, the History drawers, the as-of mode and the schedule diff. */

async function tokenOf(request: APIRequestContext, user: TestUser): Promise<string> {
  const answer = await request.post('/api/auth/login', {
    data: { email: user.email, password: user.password },
  });
  return (await answer.json()).data.token;
}

async function put(request: APIRequestContext, token: string, path: string, data: object): Promise<void> {
  const answer = await request.put(`/api${path}`, { data, headers: { Authorization: `Bearer ${token}` } });
  expect(answer.ok(), `${path}: ${await answer.text()}`).toBe(true);
}

function yesterday(): string {
  return isoDate(new Date(Date.now() - 24 * 60 * 60 * 1000));
}

test('the History page: field-by-field changes, a type filter, and older pages on scrolling', async ({
  page,
  request,
}) => {
  test.slow();
  const user = await createVerifiedUser(request, 'Meera');
  const api = await MoneyApi.signIn(request, user);
  const token = await tokenOf(request, user);
  // Signed in first: a sign-in is an entry of History too, and the newest must be the last chai.
  await signInThroughUi(page, user);
  const date = fifteenth(0);
  const rent = await api.createTransaction('Flat rent', 'D', date, 500);
  await put(request, token, `/transactions/${rent}`, {
    notes: 'Flat rent',
    transaction_type: 'D',
    transaction_date: date,
    amount: 750,
  });
  // More than a page (20) of entries, so the oldest arrive only on scrolling.
  for (let i = 1; i <= 22; i++) await api.createTransaction(`Chai ${i}`, 'D', date, 10 + i);

  const history = new HistoryPage(page);
  await page.getByRole('link', { name: 'History' }).click();
  await expect(history.heading).toBeVisible();
  await expect(page).toHaveURL(/\/history$/);
  // Newest first: the last chai is on top.
  await expect(history.entries.first()).toContainText('Debit of ₹32.00 recorded');
  await expect(history.entries).toHaveCount(20);

  await history.entries.last().scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 5000);
  await expect(history.beginning).toBeVisible();
  const all = await history.entries.count();
  expect(all).toBeGreaterThan(22);

  const edited = history.entry('Transaction edited (Amount)');
  await expect(history.change(edited, 'Amount')).toHaveText(/Amount\s*₹500\.00\s*₹750\.00/);
  await expect(edited.getByRole('row')).toHaveCount(2); // the head and the one changed field
  await captureScreen(page, 'history', async () => {
    await expect(edited).toBeVisible();
  });

  await history.type.selectOption('TransactionUpdated');
  await history.apply.click();
  await expect(history.entries).toHaveCount(1);
  await expect(history.entries.first()).toContainText('Transaction edited (Amount)');

  // 'Only this item' narrows the timeline to the one transaction: recorded, then edited.
  await history
    .entry('Transaction edited (Amount)')
    .getByRole('button', { name: /^Only this item/ })
    .click();
  await expect(history.entries).toHaveCount(2);
  await expect(history.entries.nth(1)).toContainText('Debit of ₹500.00 recorded');
  await expect(history.beginning).toBeVisible();
});

test('the History drawer of a transaction and of a loan; focus returns to the opener', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Rohan');
  const api = await MoneyApi.signIn(request, user);
  const token = await tokenOf(request, user);
  const date = fifteenth(0);
  const id = await api.createTransaction('Electricity', 'D', date, 1200);
  await put(request, token, `/transactions/${id}`, {
    notes: 'Electricity bill',
    transaction_type: 'D',
    transaction_date: date,
    amount: 1200,
  });
  const bankId = await api.createBank('Drawer Bank', 'Pune');
  const loanTypeId = await api.createLoanType('Drawer Car Loan');
  const loanId = await api.createLoan({
    bankId,
    loanTypeId,
    accountNumber: 'DRW0001',
    principal: 200000,
    rate: 9,
    months: 12,
    startDate: fifteenth(-1),
  });
  await signInThroughUi(page, user);

  const transactions = new TransactionsPage(page);
  await transactions.goto();
  const opener = page.getByRole('button', { name: 'History of transaction Electricity bill' });
  await opener.click();
  const drawer = page.getByRole('dialog', { name: 'History of Electricity bill' });
  await expect(drawer).toBeVisible();
  const entries = drawer.getByRole('listitem');
  await expect(entries).toHaveCount(2);
  await expect(entries.first()).toContainText('Transaction edited (Notes)');
  await expect(entries.first().getByRole('row', { name: /^Notes/ })).toHaveText(
    /Electricity\s*Electricity bill/,
  );
  await expect(entries.nth(1)).toContainText('Debit of ₹1,200.00 recorded');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(opener).toBeFocused();

  await page.goto(`/loans/${loanId}`);
  await page.getByRole('button', { name: 'History', exact: true }).click();
  const loanDrawer = page.getByRole('dialog', { name: 'History of loan DRW0001' });
  // The loan as the screens name it: account number · bank.
  const created = /Loan DRW0001 · .+ created/;
  await expect(loanDrawer.getByRole('listitem').filter({ hasText: created })).toBeVisible();
  await expect(
    loanDrawer
      .getByRole('listitem')
      .filter({ hasText: created })
      .getByRole('row', { name: /^Principal Amount/ }),
  ).toHaveText(/Principal Amount\s*—\s*₹2,00,000\.00/);
  await expect(
    loanDrawer
      .getByRole('listitem')
      .filter({ hasText: /Schedule version 1 of loan DRW0001 · .+: Loan created/ }),
  ).toBeVisible();
});

test('the ledger as of a past date: read-only banner, kept in the URL over a reload, and back to today', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Anita');
  const api = await MoneyApi.signIn(request, user);
  // Dated earlier this month, but recorded today: as of yesterday it was not in the book yet.
  await api.createTransaction('Bonus', 'C', fifteenth(0), 25000);
  await signInThroughUi(page, user);

  const ledger = new LedgerPage(page);
  const asOf = new AsOfMode(page);
  await ledger.goto();
  await expect(ledger.creditTable).toContainText('Bonus');
  await expect(asOf.banner).toBeHidden();

  const past = yesterday();
  await asOf.choose(past);
  await expect(page).toHaveURL(new RegExp(`/ledger\\?as_of=${past}$`));
  await expect(asOf.banner).toBeVisible();
  await expect(page.locator('[aria-live="polite"]').filter({ has: asOf.banner })).toHaveCount(1);
  await expect(ledger.creditTable).toContainText('No credit transactions for this period');
  await expect(ledger.card('Total Credit')).toContainText('₹0.00');

  await page.reload();
  await expect(asOf.banner).toBeVisible();
  await expect(asOf.date).toHaveValue(past);
  await expect(ledger.creditTable).toContainText('No credit transactions for this period');
  await captureScreen(page, 'ledger-as-of', async () => {
    await expect(asOf.banner).toBeVisible();
  });

  // The transaction book in the same past: read-only, no write buttons.
  await page.goto(`/transactions?as_of=${past}`);
  await expect(asOf.banner).toContainText('the transaction book');
  await expect(page.getByRole('button', { name: 'Add Transaction' })).toHaveCount(0);
  await page.goto(`/ledger?as_of=${past}`);

  await asOf.backToToday.click();
  await expect(page).toHaveURL(/\/ledger$/);
  await expect(asOf.banner).toBeHidden();
  await expect(ledger.creditTable).toContainText('Bonus');
  await expect(asOf.date).toBeFocused();
});

test('schedule versions: an edit of the rate makes version 2, and the diff shows EMI, totals and rows', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Vikram');
  const api = await MoneyApi.signIn(request, user);
  const token = await tokenOf(request, user);
  const bankId = await api.createBank('Diff Bank', 'Mysuru');
  const loanTypeId = await api.createLoanType('Diff Home Loan');
  const start = fifteenth(-2);
  const loanId = await api.createLoan({
    bankId,
    loanTypeId,
    accountNumber: 'DIFF0042',
    principal: 120000,
    rate: 9,
    months: 12,
    startDate: start,
  });
  const loan = (await (
    await request.get(`/api/loans/${loanId}`, { headers: { Authorization: `Bearer ${token}` } })
  ).json()) as { data: { loan: Record<string, unknown> } };
  const l = loan.data.loan;
  await put(request, token, `/loans/${loanId}`, {
    bank_id: bankId,
    loan_type_id: loanTypeId,
    account_number: 'DIFF0042',
    short_detail: '',
    principal_amount: 120000,
    interest_rate: 12,
    is_interest_rate_yearly: 1,
    duration: 12,
    is_duration_yearly: 0,
    start_date: start,
    end_date: l.end_date,
    processing_fee: 0,
    has_gst: 0,
    gst_percentage: 0,
  });
  await signInThroughUi(page, user);

  await page.goto(`/loans/${loanId}/amortization`);
  const versions = page.getByRole('table', { name: 'Schedule versions' });
  await expect(versions.locator('tbody tr')).toHaveCount(2);
  await expect(versions.locator('tbody tr').nth(0)).toContainText('Loan created');
  await expect(versions.locator('tbody tr').nth(1)).toContainText('Terms edited');
  await expect(page.getByLabel('Compare')).toHaveValue('1');
  await expect(page.getByLabel('With')).toHaveValue('2');
  const figures = page.getByRole('table', { name: 'Version 1 against version 2' });
  // 1,20,000 over 12 months: EMI ₹10,494.18 at 9 %, ₹10,661.85 at 12 %.
  await expect(figures.getByRole('row', { name: /^EMI/ })).toHaveText(
    /^EMI \(principal \+ interest\)\s*₹10,494\.18\s*₹10,661\.85\s*\+₹167\.67$/,
  );
  await expect(figures.getByRole('row', { name: /^Tenure/ })).toContainText('No change');
  await expect(page.getByRole('heading', { name: '12 payments differ' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Differing payments' }).locator('tbody tr')).toHaveCount(12);
  await captureScreen(page, 'schedule-diff', async () => {
    await figures.scrollIntoViewIfNeeded();
  });

  // Picking the same version twice: nothing differs.
  await page.getByLabel('Compare').selectOption('2');
  await expect(page.getByRole('table', { name: 'Version 2 against version 2' })).toContainText('No change');
  await expect(page.getByRole('heading', { name: 'No payment differs' })).toBeVisible();
});
