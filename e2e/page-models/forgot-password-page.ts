import { expect, type Locator, type Page } from '@playwright/test';

export class ForgotPasswordPage {
  readonly heading: Locator;
  readonly email: Locator;
  readonly sendResetLink: Locator;
  readonly checkYourEmail: Locator;
  readonly backToSignIn: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Reset Password' });
    this.email = page.getByLabel('Email');
    this.sendResetLink = page.getByRole('button', { name: 'Send Reset Link' });
    this.checkYourEmail = page.getByRole('heading', { name: 'Check Your Email' });
    this.backToSignIn = page.getByRole('button', { name: 'Back to Sign In' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/forgot-password');
    await expect(this.heading).toBeVisible();
  }

  async requestLink(email: string): Promise<void> {
    await this.email.fill(email);
    await this.sendResetLink.click();
  }
}
