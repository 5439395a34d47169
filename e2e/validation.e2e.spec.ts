import { expect, type Locator, test } from '@playwright/test';
import { AppShell } from './page-models/app-shell';
import { ChangePasswordPage } from './page-models/change-password-page';
import { ForgotPasswordPage } from './page-models/forgot-password-page';
import { LoginPage } from './page-models/login-page';
import { ProfilePage } from './page-models/profile-page';
import { RegisterPage } from './page-models/register-page';
import { ResetPasswordPage } from './page-models/reset-password-page';
import { mailsTo } from './support/mailbox';
import { createVerifiedUser, registeredUser } from './support/users';

/** Types `value` (or nothing), leaves the field, and expects `message` under it. */
async function expectMessage(field: Locator, value: string, message: string): Promise<void> {
  await field.fill(value);
  await field.blur();
  await expect(field.page().getByText(message, { exact: true })).toBeVisible();
}

test.describe('validation messages (spec section 5)', () => {
  test('login', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await expect(login.signIn).toBeDisabled();
    await expectMessage(login.email, '', 'Email is required');
    await expectMessage(login.email, 'not-an-email', 'Enter a valid email');
    await expectMessage(login.password, '', 'Password is required');
    await expectMessage(login.password, 'abc', 'Password should be of minimum 6 characters length');
    await expect(login.signIn).toBeDisabled();
    await login.email.fill('someone@example.com');
    await login.password.fill('abcdef');
    await expect(login.signIn).toBeEnabled();
  });

  test('register', async ({ page }) => {
    const register = new RegisterPage(page);
    await register.goto();
    await expect(register.createAccount).toBeDisabled();
    await expectMessage(register.firstName, '', 'First name is required');
    await expectMessage(register.firstName, 'A', 'First name should be at least 2 characters');
    await expectMessage(register.lastName, '', 'Last name is required');
    await expectMessage(register.lastName, 'B', 'Last name should be at least 2 characters');
    await expectMessage(register.email, '', 'Email is required');
    await expectMessage(register.email, 'a@b', 'Enter a valid email');
    // One plain mailbox only (the domain rule the API applies too).
    await expectMessage(register.email, 'alice@example.in,x', 'Enter a valid email');
    await expectMessage(register.email, 'Alice <alice@example.in>', 'Enter a valid email');
    await expectMessage(register.password, '', 'Password is required');
    await expectMessage(register.password, 'Ab1', 'Password should be of minimum 6 characters length');
    await expectMessage(
      register.password,
      'abcdefg',
      'Password must contain at least one uppercase letter, one lowercase letter, and one number',
    );
    await expectMessage(register.confirmPassword, '', 'Password confirmation is required');
    await register.password.fill('Secret123');
    await expectMessage(register.confirmPassword, 'Secret124', 'Passwords must match');
    await expect(register.createAccount).toBeDisabled();
  });

  test('register: a taken address goes on as a new one would (no enumeration); its owner is told by mail', async ({
    page,
    request,
  }) => {
    const taken = await registeredUser(request, 'Taken');
    const register = new RegisterPage(page);
    await register.goto();
    await register.register({ ...taken, firstName: 'Other' });
    await expect(page).toHaveURL(/\/login\?message=/);
    await expect(new AppShell(page).toast(/check your email to verify your account/i)).toBeVisible();
    await expect
      .poll(async () => (await mailsTo(request, taken.email)).map((mail) => mail.subject), {
        timeout: 15_000,
      })
      .toContain('Someone tried to register with your address on Kosh');
  });

  test('forgot password', async ({ page }) => {
    const forgot = new ForgotPasswordPage(page);
    await forgot.goto();
    await expect(forgot.sendResetLink).toBeDisabled();
    await expectMessage(forgot.email, '', 'Email is required');
    await expectMessage(forgot.email, 'nobody', 'Enter a valid email');
  });

  test('reset password uses the register password rule', async ({ page }) => {
    await page.goto('/reset-password?token=anything');
    const reset = new ResetPasswordPage(page);
    await expect(reset.heading).toBeVisible();
    await expectMessage(reset.newPassword, '', 'Password is required');
    await expectMessage(
      reset.newPassword,
      'lowercase1',
      'Password must contain at least one uppercase letter, one lowercase letter, and one number',
    );
    await reset.newPassword.fill('Secret123');
    await expectMessage(reset.confirmPassword, 'Secret12', 'Passwords must match');
  });

  test('profile and change password', async ({ page, request }) => {
    const user = await createVerifiedUser(request);
    const login = new LoginPage(page);
    await login.goto();
    await login.signInAs(user.email, user.password);
    await expect(page).toHaveURL(/\/dashboard$/);

    const profile = new ProfilePage(page);
    await profile.goto();
    await profile.editProfile.click();
    await expectMessage(profile.firstName, '', 'First name is required');
    await expectMessage(profile.email, '', 'Email is required');
    await expectMessage(profile.email, 'broken@', 'Enter a valid email');
    await expect(profile.updateProfile).toBeDisabled();
    await profile.cancel.click();

    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/auth/profile-picture')) uploads.push(r.method());
    });
    await profile.changePicture.click();
    await profile.pictureFile.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hi'),
    });
    await expect(page.getByRole('alert').filter({ hasText: 'Please select an image file' })).toBeVisible();
    await profile.pictureFile.setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(5_242_881, 1),
    });
    await expect(
      page.getByRole('alert').filter({ hasText: 'Image size must be less than 5MB' }),
    ).toBeVisible();

    const changePassword = new ChangePasswordPage(page);
    await changePassword.goto();
    await expect(changePassword.updatePassword).toBeDisabled();
    await expectMessage(changePassword.currentPassword, '', 'Current password is required');
    await expectMessage(changePassword.newPassword, '', 'New password is required');
    await expectMessage(changePassword.newPassword, 'abc', 'Password must be at least 6 characters');
    await expectMessage(changePassword.confirmNewPassword, '', 'Please confirm your new password');
    await changePassword.newPassword.fill('Another123');
    await expectMessage(changePassword.confirmNewPassword, 'Another12', 'Passwords do not match');
  });
});
