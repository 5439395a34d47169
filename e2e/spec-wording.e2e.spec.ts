import { expect, type Page, test } from '@playwright/test';
import { AppShell } from './page-models/app-shell';
import { LedgerPage } from './page-models/ledger-page';
import { LoginPage } from './page-models/login-page';
import { TransactionsPage } from './page-models/transactions-page';
import { isoDate, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

/** Answers every request matching `url` with `status` and `body` (a JSON envelope, or none). */
async function failing(page: Page, url: string | RegExp, status: number, body: object = { success: false }) {
  await page.route(url, (route) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) }),
  );
}

const LEDGER = /\/api\/ledger\?/;
const PERIODS = /\/api\/ledger\/periods$/;

test.describe('item 1: the error texts of spec section 8', () => {
  test('ledger: the server message, else the fallback, once as a toast and once as the red alert', async ({
    page,
    request,
  }) => {
    const user = await createVerifiedUser(request, 'Ravi');
    await signInThroughUi(page, user);
    const shell = new AppShell(page);
    const ledger = new LedgerPage(page);

    await failing(page, LEDGER, 500);
    await ledger.goto();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Failed to load ledger data' }).first(),
    ).toBeVisible();
    await expect(page.locator('main').getByRole('alert')).toHaveText('Failed to load ledger data');
    await expect(shell.toast('Failed to load ledger data')).toHaveCount(1);
    await expect(shell.toast('Server error. Please try again later.')).toHaveCount(0);

    await page.unroute(LEDGER);
    await failing(page, LEDGER, 400);
    await ledger.year.selectOption(String(new Date().getFullYear() - 1));
    await expect(shell.toast('An error occurred')).toHaveCount(0);
    await expect(page.locator('main').getByRole('alert')).toHaveText('Failed to load ledger data');

    await page.unroute(LEDGER);
    await failing(page, LEDGER, 500, { success: false, message: 'The ledger is resting' });
    await ledger.year.selectOption(String(new Date().getFullYear() - 2));
    await expect(page.locator('main').getByRole('alert')).toHaveText('The ledger is resting');
    await expect(shell.toast('The ledger is resting')).toHaveCount(1);
  });

  test('ledger periods, transactions, loans and sign-in use their own fallbacks', async ({
    page,
    request,
  }) => {
    const user = await createVerifiedUser(request, 'Ravi');
    const shell = new AppShell(page);
    const login = new LoginPage(page);
    await failing(page, /\/api\/auth\/login$/, 500);
    await login.goto();
    await login.signInAs(user.email, user.password);
    await expect(shell.toast('Login failed')).toHaveCount(1);
    await expect(shell.toast('Server error. Please try again later.')).toHaveCount(0);
    await page.unroute(/\/api\/auth\/login$/);
    await signInThroughUi(page, user);

    await failing(page, PERIODS, 500);
    await new LedgerPage(page).goto();
    await expect(shell.toast('Failed to load available periods')).toHaveCount(1);
    await expect(shell.toast('Server error. Please try again later.')).toHaveCount(0);

    await failing(page, /\/api\/transactions\?/, 503);
    await failing(page, /\/api\/transactions\/stats$/, 500);
    await page.goto('/transactions');
    await expect(shell.toast('Failed to load transactions')).toHaveCount(1);
    await expect(shell.toast('Failed to load transaction statistics')).toHaveCount(1);
    await expect(shell.toast(/Server error|An error occurred/)).toHaveCount(0);

    await failing(page, /\/api\/loans\?/, 500);
    await page.goto('/loans');
    await expect(shell.toast('Failed to fetch loans')).toHaveCount(1);
    await expect(shell.toast('Server error. Please try again later.')).toHaveCount(0);
  });
});

test('item 2: an empty amount says "Amount must be greater than 0"', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Nila');
  await signInThroughUi(page, user);
  const book = new TransactionsPage(page);
  await book.goto();
  await book.openAdd();
  await book.fillDialog({ notes: 'Tea', type: 'Debit (Expense)', date: isoDate(new Date()) });
  await book.dialog.getByRole('button', { name: 'Create Transaction' }).click();
  await expect(book.dialogError('Amount (₹)')).toHaveText('Amount must be greater than 0');
});

test('item 3: Clear appears when a filter is applied, not while typing', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Nila');
  await signInThroughUi(page, user);
  const book = new TransactionsPage(page);
  await book.goto();
  await book.search.fill('rent');
  await book.type.selectOption({ label: 'Debit' });
  await expect(book.clearButton).toHaveCount(0);
  await book.search.press('Enter');
  await expect(book.badges).toHaveCount(2);
  await expect(book.clearButton).toBeVisible();
  await book.clearButton.click();
  await expect(book.badges).toHaveCount(0);
  await expect(book.clearButton).toHaveCount(0);
  await expect(book.search).toHaveValue('');
});

test.describe('item 8: small things', () => {
  test('Sign In is enabled again after a failed attempt', async ({ page, request }) => {
    const user = await createVerifiedUser(request, 'Kabir');
    const login = new LoginPage(page);
    await login.goto();
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/auth/login'));
    await login.signInAs(user.email, 'Wrong1234');
    expect((await answered).status()).toBe(401);
    await expect(page.getByRole('alert').first()).toBeVisible();
    await expect(login.signIn).toBeEnabled();
    await login.password.fill(user.password);
    await login.signIn.click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('an unknown loan says "Loan not found" once and offers no Generate or Edit', async ({
    page,
    request,
  }) => {
    const user = await createVerifiedUser(request, 'Kabir');
    await signInThroughUi(page, user);
    const shell = new AppShell(page);
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const path of [`/loans/${unknown}`, `/loans/${unknown}/amortization`]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Loan not found' })).toBeVisible();
      await page.waitForLoadState('networkidle');
      const shown =
        (await page.getByText('Loan not found', { exact: true }).count()) +
        (await shell.toast('Loan not found').count());
      expect(shown, path).toBe(1);
      for (const name of [/Generate/, /Edit Loan/, /View Schedule/])
        await expect(page.getByRole('button', { name }), `${path} ${name}`).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Back to loans' })).toBeVisible();
    }
  });

  test('Escape closes a dialog and gives focus back to the button that opened it', async ({
    page,
    request,
  }) => {
    const user = await createVerifiedUser(request, 'Kabir');
    const api = await MoneyApi.signIn(request, user);
    await api.createTransaction('Bus pass', 'D', isoDate(new Date()), 500);
    await signInThroughUi(page, user);
    const book = new TransactionsPage(page);
    await book.goto();
    await book.openAdd();
    await page.keyboard.press('Escape');
    await expect(book.dialog).toHaveCount(0);
    await expect(book.addTransaction).toBeFocused();

    const remove = page.getByRole('button', { name: 'Delete transaction Bus pass' });
    await book.openDelete('Bus pass');
    await page.keyboard.press('Escape');
    await expect(book.dialog).toHaveCount(0);
    await expect(remove).toBeFocused();
  });

  test('available periods count only the months of the selectable years, and say so', async ({
    page,
    request,
  }) => {
    const user = await createVerifiedUser(request, 'Kabir');
    const api = await MoneyApi.signIn(request, user);
    const now = new Date();
    await api.createTransaction('Salary', 'C', isoDate(now), 1000);
    await api.createTransaction('Old bond', 'C', `${now.getFullYear() - 8}-06-15`, 1000);
    await signInThroughUi(page, user);
    await page.goto('/ledger');
    // The spec's line exactly; the month outside the Year list in a sentence of its own (issue 28).
    await expect(page.getByText(/^Available periods:/)).toHaveText('Available periods: 1 months of data');
    await expect(page.getByText(/^One more month has entries in/)).toHaveText(
      `One more month has entries in ${now.getFullYear() - 8}, a year the Year list does not offer.`,
    );
  });

  test('the verification link stays inside its card in the mailbox, on a phone', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const user = await createVerifiedUser(request, 'Kabir');
    await page.goto('/dev/mailbox');
    const link = page.getByRole('link', { name: /verify-email/ }).first();
    await expect(link).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    const box = await link.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    expect(user.email).toContain('@');
  });
});
