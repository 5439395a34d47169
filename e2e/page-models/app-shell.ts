import type { Locator, Page } from '@playwright/test';

/** The signed-in frame: navigation bar, user menu and the shared toaster. */
export class AppShell {
  readonly userMenu: Locator;
  readonly openNavigation: Locator;
  readonly toasts: Locator;

  constructor(readonly page: Page) {
    this.userMenu = page.getByRole('button', { name: /^Hello, / });
    this.openNavigation = page.getByRole('button', { name: 'Open navigation' });
    this.toasts = page.locator('.bp6-toast-container').getByRole('alert');
  }

  navLink(name: 'Dashboard' | 'All Loans' | 'Transaction Book' | 'Ledger View'): Locator {
    return this.page.getByRole('link', { name });
  }

  toast(text: string | RegExp): Locator {
    return this.toasts.filter({ hasText: text });
  }

  async chooseFromUserMenu(item: 'Profile' | 'Change Password' | 'Settings' | 'Logout'): Promise<void> {
    await this.userMenu.click();
    await this.page.getByRole('menuitem', { name: item }).click();
  }
}
