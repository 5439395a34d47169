import type { Locator, Page } from '@playwright/test';

export class VerifyEmailPage {
  readonly verified: Locator;
  readonly failed: Locator;
  readonly goToLogin: Locator;
  readonly resendVerification: Locator;
  readonly backToLogin: Locator;

  constructor(readonly page: Page) {
    this.verified = page.getByRole('heading', { name: 'Email Verified!' });
    this.failed = page.getByRole('heading', { name: 'Verification Failed' });
    this.goToLogin = page.getByRole('button', { name: 'Go to Login' });
    this.resendVerification = page.getByRole('button', { name: 'Resend Verification Email' });
    this.backToLogin = page.getByRole('button', { name: 'Back to Login' });
  }
}
