import { expect, test } from '@playwright/test';
import { LoginPage } from './page-models/login-page';
import { TransactionsPage } from './page-models/transactions-page';
import { VerifyEmailPage } from './page-models/verify-email-page';
import { linkFromMail } from './support/mailbox';
import { MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser, registeredUser } from './support/users';

/** Issue 28, item 12 (web): a reversed date range says so; a refused verification link explains. */

test('a reversed date range in the book says so and is not applied', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Leela');
  const api = await MoneyApi.signIn(request, user);
  await api.createTransaction('Electricity bill', 'D', '2026-03-10', 1800);
  await signInThroughUi(page, user);
  const book = new TransactionsPage(page);
  await book.goto();
  await book.dateFrom.fill('2026-03-31');
  await book.dateTo.fill('2026-03-01');
  await expect(
    page.getByText("'Date To' is before 'Date From': choose a range that runs forwards."),
  ).toBeVisible();
  await expect(book.dateTo).toHaveAttribute('aria-invalid', 'true');
  await book.searchButton.click();
  await expect(book.dateTo).toBeFocused();
  await expect(book.badges).toHaveCount(0);
  await expect(book.table).toContainText('Electricity bill');

  await book.dateFrom.fill('2026-03-01');
  await book.dateTo.fill('2026-03-31');
  await expect(page.getByText("'Date To' is before 'Date From'")).toHaveCount(0);
  await book.searchButton.click();
  await expect(book.badges).toHaveCount(2);
  await expect(book.table).toContainText('Electricity bill');
});

test('a used verification link says what happened, signed out and signed in', async ({ page, request }) => {
  const user = await registeredUser(request, 'Leela');
  const link = await linkFromMail(request, user.email, '/verify-email');
  const path = new URL(link).pathname + new URL(link).search;
  const verify = new VerifyEmailPage(page);

  await page.goto(path);
  await expect(verify.verified).toBeVisible();
  await verify.goToLogin.click();
  await page.evaluate(() => sessionStorage.clear());

  // The same link again, signed out: used once, so the address is verified.
  await page.goto(path);
  await expect(verify.failed).toBeVisible();
  await expect(
    page.getByText(/^A verification link works once\. If you have already used it, your address is verified/),
  ).toBeVisible();
  await expect(verify.backToLogin).toBeVisible();

  // Signed in, the link names the account's verified address and leads back to the dashboard.
  await new LoginPage(page).goto();
  await new LoginPage(page).signInAs(user.email, user.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(path);
  await expect(verify.failed).toBeVisible();
  await expect(
    page.getByText(`You are signed in as ${user.email}, an address already verified`),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Go to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
