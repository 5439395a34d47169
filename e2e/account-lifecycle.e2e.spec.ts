import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { AppShell } from './page-models/app-shell';
import { ChangePasswordPage } from './page-models/change-password-page';
import { LoginPage } from './page-models/login-page';
import { ProfilePage } from './page-models/profile-page';
import { RegisterPage } from './page-models/register-page';
import { VerifyEmailPage } from './page-models/verify-email-page';
import { countMails, linkFromMail } from './support/mailbox';
import { captureScreen } from './support/screens';
import { createVerifiedUser, newUser, registeredUser } from './support/users';

const picture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support', 'avatar.png');

test('register, verify, sign in with and without remember-me, edit profile, upload a picture, change password, logout', async ({
  browser,
  page,
  request,
}) => {
  test.slow();
  const user = newUser('Meera');
  const shell = new AppShell(page);

  // Register: success goes to /login with the check-your-mail message.
  const register = new RegisterPage(page);
  await register.goto();
  await register.register(user);
  await expect(page).toHaveURL(/\/login\?message=/);
  await expect(shell.toast(/check your email to verify your account/i)).toBeVisible();

  // The mail in /dev/mailbox verifies the address and signs the tab in.
  const verifyLink = await linkFromMail(request, user.email, '/verify-email');
  await page.goto(verifyLink);
  const verify = new VerifyEmailPage(page);
  await expect(verify.verified).toBeVisible();
  const verifiedAt = Date.now();
  // After 3 s it moves on by itself; verification signed this tab in, so /login leads on to the dashboard.
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(Date.now() - verifiedAt).toBeGreaterThan(2_000);
  await shell.chooseFromUserMenu('Logout');
  await expect(page).toHaveURL(/\/login$/);
  const login = new LoginPage(page);

  // Without remember-me: a reload keeps the session, a new browser context does not.
  await login.signInAs(user.email, user.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(`Hello, ${user.firstName} ${user.lastName}`)).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(shell.userMenu).toBeVisible();
  const tabOnly = await browser.newContext({ storageState: await page.context().storageState() });
  const tabOnlyPage = await tabOnly.newPage();
  await tabOnlyPage.goto('/dashboard');
  await expect(tabOnlyPage).toHaveURL(/\/login$/);
  await tabOnly.close();
  await shell.chooseFromUserMenu('Logout');

  // With remember-me: a new context (a browser restart) keeps the session.
  await login.signInAs(user.email, user.password, { remember: true });
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.reload();
  await expect(shell.userMenu).toBeVisible();
  const restarted = await browser.newContext({ storageState: await page.context().storageState() });
  const restartedPage = await restarted.newPage();
  await restartedPage.goto('/dashboard');
  await expect(new AppShell(restartedPage).userMenu).toBeVisible();
  await expect(restartedPage).toHaveURL(/\/dashboard$/);
  await restarted.close();

  // Profile: view mode, edit, cancel resets, save.
  await shell.chooseFromUserMenu('Profile');
  const profile = new ProfilePage(page);
  await expect(profile.heading).toBeVisible();
  await expect(profile.memberSince).toBeVisible();
  await expect(profile.firstName).not.toBeEditable();
  await profile.editProfile.click();
  await profile.firstName.fill('Changed');
  await profile.cancel.click();
  await expect(profile.firstName).toHaveValue(user.firstName);
  await expect(profile.firstName).not.toBeEditable();
  await profile.editProfile.click();
  await profile.firstName.fill('Meenakshi');
  await profile.lastName.fill('Iyer');
  await profile.updateProfile.click();
  await expect(profile.firstName).not.toBeEditable();
  await expect(profile.firstName).toHaveValue('Meenakshi');
  await expect(page.getByText('Hello, Meenakshi Iyer')).toBeVisible();
  await page.reload();
  await expect(profile.firstName).toHaveValue('Meenakshi');

  // Picture upload: the page reloads and the header shows the picture instead of the initial.
  await expect(page.locator('.kosh-avatar-initial').first()).toHaveText('M');
  await profile.pictureFile.setInputFiles(picture);
  await expect(page.locator('img.kosh-avatar').first()).toBeVisible();
  await expect(page.locator('img.kosh-avatar').first()).toHaveJSProperty('complete', true);
  expect(
    await page
      .locator('img.kosh-avatar')
      .first()
      .evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBe(8);
  await captureScreen(page, 'profile-with-picture');

  // Change password: a wrong current password is shown on its field; then the real change.
  await shell.chooseFromUserMenu('Change Password');
  const changePassword = new ChangePasswordPage(page);
  await expect(changePassword.heading).toBeVisible();
  await changePassword.change('WrongPass1', 'Newer456');
  await expect(changePassword.currentPassword).toHaveAttribute('aria-invalid', 'true');
  await changePassword.change(user.password, 'Newer456');
  await expect(changePassword.currentPassword).toHaveValue('');

  // The success toast sits below the navbar: it never covers the user menu the user reaches next.
  // (Polled: the toast slides in from above, so its box settles only when the animation ends.)
  const toastBelowMenu = async () => {
    const toastBox = await page.getByText('Password changed successfully').boundingBox();
    const menuBox = await page.getByRole('button', { name: /^Hello, / }).boundingBox();
    return Boolean(toastBox && menuBox && toastBox.y >= menuBox.y + menuBox.height);
  };
  await expect.poll(toastBelowMenu, { message: 'toast below the user menu' }).toBe(true);

  // Logout clears the session; the old password no longer works, the new one does.
  await shell.chooseFromUserMenu('Logout');
  await expect(page).toHaveURL(/\/login$/);
  expect(
    await page.evaluate(() => [localStorage.getItem('kosh.token'), sessionStorage.getItem('kosh.token')]),
  ).toEqual([null, null]);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
  await login.signInAs(user.email, user.password);
  await expect(page.getByRole('alert').filter({ hasText: /invalid|incorrect/i })).toBeVisible();
  await login.password.fill('Newer456');
  await login.signIn.click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('signing in unverified offers Resend Email, which mails a new link that verifies', async ({
  page,
  request,
}) => {
  const user = await registeredUser(request, 'Neha');
  const shell = new AppShell(page);
  const login = new LoginPage(page);
  await login.goto();
  await login.signInAs(user.email, user.password);
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: /verify/i })
      .first(),
  ).toBeVisible();
  await expect(login.notVerifiedBox).toBeVisible();

  await login.email.fill('');
  await login.resendEmail.click();
  await expect(shell.toast('Please enter your email address')).toBeVisible();
  await login.email.fill(user.email);

  const mailsBefore = await countMails(request, user.email, '/verify-email');
  await login.resendEmail.click();
  await expect(shell.toast(/verification email has been sent/i)).toBeVisible();
  await expect
    .poll(() => countMails(request, user.email, '/verify-email'), { timeout: 20_000 })
    .toBe(mailsBefore + 1);

  await page.goto(await linkFromMail(request, user.email, '/verify-email'));
  const verify = new VerifyEmailPage(page);
  await expect(verify.verified).toBeVisible();
  await verify.goToLogin.click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a new e-mail on /profile applies once the link mailed to it is opened, even in a signed-in tab', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Kavya');
  const moved = newUser('Kavya').email;
  const shell = new AppShell(page);
  const login = new LoginPage(page);
  await login.goto();
  await login.signInAs(user.email, user.password, { remember: true });
  await expect(page).toHaveURL(/\/dashboard$/);

  const profile = new ProfilePage(page);
  await profile.goto();
  await profile.editProfile.click();
  await profile.email.fill(moved);
  await profile.updateProfile.click();
  await expect(
    shell.toast(`Profile updated. We sent a message to ${moved}: open its link to use that address.`),
  ).toBeVisible();
  // Nothing moves before the new address is confirmed.
  await page.reload();
  await expect(profile.email).toHaveValue(user.email);

  await page.goto(await linkFromMail(request, moved, '/verify-email'));
  const verify = new VerifyEmailPage(page);
  await expect(verify.verified).toBeVisible();
  await verify.goToLogin.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await profile.goto();
  await expect(profile.email).toHaveValue(moved);
});
