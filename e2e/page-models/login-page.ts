import { expect, type Locator, type Page } from '@playwright/test';

export class LoginPage {
  readonly heading: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly rememberMe: Locator;
  readonly signIn: Locator;
  readonly forgotPasswordLink: Locator;
  readonly registerLink: Locator;
  readonly notVerifiedBox: Locator;
  readonly resendEmail: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Welcome Back' });
    this.email = page.getByLabel('Email');
    this.password = page.getByLabel('Password', { exact: true });
    this.rememberMe = page.getByLabel('Remember me');
    this.signIn = page.getByRole('button', { name: 'Sign In' });
    this.forgotPasswordLink = page.getByRole('link', { name: 'Forgot password?' });
    this.registerLink = page.getByRole('link', { name: 'Create one' });
    this.notVerifiedBox = page.getByText('Email not verified?');
    this.resendEmail = page.getByRole('button', { name: 'Resend Email' });
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/login${query}`);
    await expect(this.heading).toBeVisible();
  }

  async signInAs(email: string, password: string, { remember = false } = {}): Promise<void> {
    await this.email.fill(email);
    await this.password.fill(password);
    if (remember) await this.rememberMe.check({ force: true });
    await this.signIn.click();
  }
}
