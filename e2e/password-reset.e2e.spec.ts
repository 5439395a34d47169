import { expect, test } from '@playwright/test';
import { AppShell } from './page-models/app-shell';
import { ForgotPasswordPage } from './page-models/forgot-password-page';
import { LoginPage } from './page-models/login-page';
import { ResetPasswordPage } from './page-models/reset-password-page';
import { linkFromMail } from './support/mailbox';
import { createVerifiedUser } from './support/users';

test('forgot password, the mail, reset, and sign in with the new password', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Ravi');
  const forgot = new ForgotPasswordPage(page);
  await forgot.goto();
  await forgot.requestLink(user.email);
  await expect(forgot.checkYourEmail).toBeVisible();
  await expect(page.getByText(user.email)).toBeVisible();
  await expect(page.getByText(/expires in 1 hour/)).toBeVisible();

  const resetLink = await linkFromMail(request, user.email, '/reset-password');
  await page.goto(resetLink);
  const reset = new ResetPasswordPage(page);
  await expect(reset.heading).toBeVisible();
  await reset.choose('Fresh789x');
  await expect(page).toHaveURL(/\/login\?message=/);
  await expect(new AppShell(page).toast(/Password reset successful/)).toBeVisible();

  const login = new LoginPage(page);
  await login.signInAs(user.email, 'Fresh789x');
  await expect(page).toHaveURL(/\/dashboard$/);

  // The link works once: used again, it shows the server's message and a way to ask for a new one.
  await new AppShell(page).chooseFromUserMenu('Logout');
  await page.goto(resetLink);
  await reset.choose('Another789x');
  await expect(reset.requestNewLink).toBeVisible();
  await reset.requestNewLink.click();
  await expect(forgot.heading).toBeVisible();
});

test('forgot password: Back to Sign In leads to /login', async ({ page }) => {
  const forgot = new ForgotPasswordPage(page);
  await forgot.goto();
  await forgot.requestLink('nobody-here@example.com');
  await expect(forgot.checkYourEmail).toBeVisible();
  await forgot.backToSignIn.click();
  await expect(new LoginPage(page).heading).toBeVisible();
});
