import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { AppShell } from './page-models/app-shell';
import { ProfilePage } from './page-models/profile-page';
import { isoDate, MoneyApi, signInThroughUi } from './support/money';
import { captureScreen } from './support/screens';
import { createVerifiedUser } from './support/users';

/**
 * Issue 32 items 3-4 on /profile: "Download my data" (one zip), "Delete my account" (password,
 * the word DELETE; the keyboard only), the cooling-off banner with "Cancel deletion", and signing
 * in again cancelling a pending deletion. The erasure itself (7 days later) is the int test's.
 */
test('profile: download my data, delete my account by keyboard, cancel it, and sign in to cancel it', async ({
  page,
  request,
}, testInfo) => {
  const user = await createVerifiedUser(request, 'Ishita');
  const api = await MoneyApi.signIn(request, user);
  await api.createTransaction('Rent for March', 'D', isoDate(new Date()), 25000);
  await signInThroughUi(page, user);
  const profile = new ProfilePage(page);
  await profile.goto();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^kosh-account-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = testInfo.outputPath('account.zip');
  await download.saveAs(zip);
  const bytes = await readFile(zip);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  expect(bytes.includes(Buffer.from('kosh-data.json'))).toBe(true);
  expect(bytes.includes(Buffer.from('book.csv'))).toBe(true);

  // Keyboard only: focus the button, open the dialog, fill it, submit with Enter.
  const deleteButton = page.getByRole('button', { name: 'Delete my account' });
  await deleteButton.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Delete my account' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Password')).toBeFocused();
  await page.keyboard.type('not-my-password');
  await page.keyboard.press('Tab');
  await page.keyboard.type('delete');
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('Password is incorrect')).toBeVisible();
  await expect(dialog.getByText('Type DELETE to confirm')).toHaveCount(2);
  await captureScreen(page, 'account-delete-dialog', async () => {
    await expect(dialog).toBeVisible();
  });

  await dialog.getByLabel('Password').fill(user.password);
  await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
  await dialog.getByLabel('Type DELETE to confirm').press('Enter');
  await expect(dialog).toBeHidden();
  const banner = page.getByText('Your account is scheduled for deletion');
  await expect(banner).toBeVisible();
  await expect(page.getByText(/will be erased on/)).toBeVisible();
  await expect(deleteButton).toHaveCount(0);
  await captureScreen(page, 'account-deletion-banner', async () => {
    await expect(banner).toBeVisible();
  });

  await page.getByRole('button', { name: 'Cancel deletion' }).click();
  await expect(banner).toBeHidden();
  await expect(deleteButton).toBeVisible();

  // Asked again, then signing in again keeps the account.
  const login = await request.post('/api/auth/login', {
    data: { email: user.email, password: user.password },
  });
  const token = (await login.json()).data.token as string;
  const asked = await request.delete('/api/account', {
    headers: { Authorization: `Bearer ${token}` },
    data: { password: user.password, confirmation: 'DELETE' },
  });
  expect(asked.status()).toBe(200);
  await page.reload();
  await expect(banner).toBeVisible();
  await new AppShell(page).chooseFromUserMenu('Logout');
  await expect(page).toHaveURL(/\/login/);
  await signInThroughUi(page, user);
  await profile.goto();
  await expect(deleteButton).toBeVisible();
  await expect(banner).toHaveCount(0);
});
