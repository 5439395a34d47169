import { expect, test } from '@playwright/test';
import { LoginPage } from './page-models/login-page';
import { SettingsPage } from './page-models/settings-page';
import { captureScreen } from './support/screens';
import { createVerifiedUser } from './support/users';

test('settings stay on the device; dark mode and compact view apply at once and persist', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Kiran');
  const sentToServer: string[] = [];
  const login = new LoginPage(page);
  await login.goto();
  await login.signInAs(user.email, user.password, { remember: true });
  await expect(page).toHaveURL(/\/dashboard$/);

  const settings = new SettingsPage(page);
  await settings.goto();
  page.on('request', (r) => {
    if (r.url().includes('/api/') && r.method() !== 'GET') sentToServer.push(`${r.method()} ${r.url()}`);
  });
  await expect(settings.darkMode).not.toBeChecked();
  await settings.darkMode.check({ force: true });
  await expect(page.locator('body')).toHaveClass(/bp6-dark/);
  await settings.compactView.check({ force: true });
  await expect(page.locator('body')).toHaveClass(/kosh-compact/);

  await settings.saveSettings.click();
  const alert = page.getByRole('alertdialog');
  await expect(alert.getByText('Settings saved successfully!')).toBeVisible();
  // Portals (this dialog) are dark too: Blueprint's dark dialog background, not white.
  await expect(page.locator('.bp6-portal .bp6-alert')).toHaveCSS('background-color', 'rgb(28, 33, 39)');
  await alert.getByRole('button', { name: 'OK' }).click();
  await expect(alert).toHaveCount(0);
  await captureScreen(page, 'settings-dark-compact');

  await page.reload();
  await expect(page.locator('body')).toHaveClass(/bp6-dark/);
  await expect(settings.darkMode).toBeChecked();
  await expect(settings.compactView).toBeChecked();
  expect(sentToServer).toEqual([]);

  await settings.darkMode.uncheck({ force: true });
  await expect(page.locator('body')).not.toHaveClass(/bp6-dark/);
});
