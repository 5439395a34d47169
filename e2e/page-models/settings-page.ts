import { expect, type Locator, type Page } from '@playwright/test';

export class SettingsPage {
  readonly heading: Locator;
  readonly darkMode: Locator;
  readonly compactView: Locator;
  readonly saveSettings: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Settings', exact: true });
    this.darkMode = page.getByRole('switch', { name: /Dark mode/ });
    this.compactView = page.getByRole('switch', { name: /Compact view/ });
    this.saveSettings = page.getByRole('button', { name: 'Save Settings' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/settings');
    await expect(this.heading).toBeVisible();
  }
}
