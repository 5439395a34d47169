import { expect, type Locator, type Page } from '@playwright/test';

export class ChangePasswordPage {
  readonly heading: Locator;
  readonly currentPassword: Locator;
  readonly newPassword: Locator;
  readonly confirmNewPassword: Locator;
  readonly updatePassword: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Change Password' });
    this.currentPassword = page.getByLabel('Current Password', { exact: true });
    this.newPassword = page.getByLabel('New Password', { exact: true });
    this.confirmNewPassword = page.getByLabel('Confirm New Password', { exact: true });
    this.updatePassword = page.getByRole('button', { name: 'Update Password' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/change-password');
    await expect(this.heading).toBeVisible();
  }

  async change(current: string, next: string, confirmation = next): Promise<void> {
    await this.currentPassword.fill(current);
    await this.newPassword.fill(next);
    await this.confirmNewPassword.fill(confirmation);
    await this.updatePassword.click();
  }
}
