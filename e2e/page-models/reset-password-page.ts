import type { Locator, Page } from '@playwright/test';

export class ResetPasswordPage {
  readonly heading: Locator;
  readonly newPassword: Locator;
  readonly confirmPassword: Locator;
  readonly resetPassword: Locator;
  readonly requestNewLink: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Choose a New Password' });
    this.newPassword = page.getByLabel('New Password', { exact: true });
    this.confirmPassword = page.getByLabel('Confirm Password', { exact: true });
    this.resetPassword = page.getByRole('button', { name: 'Reset Password' });
    this.requestNewLink = page.getByRole('link', { name: 'Request a new reset link' });
  }

  async choose(password: string, confirmation = password): Promise<void> {
    await this.newPassword.fill(password);
    await this.confirmPassword.fill(confirmation);
    await this.resetPassword.click();
  }
}
