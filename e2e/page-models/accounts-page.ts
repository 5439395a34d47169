import { expect, type Locator, type Page } from '@playwright/test';

/** /accounts, the accounts with their balances, and /accounts/:id, an account's register. */
export class AccountsPage {
  readonly heading: Locator;
  readonly addAccount: Locator;
  readonly transfer: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly dialog: Locator;
  readonly register: Locator;
  readonly registerRows: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Accounts', level: 1 });
    this.addAccount = page.getByRole('button', { name: 'Add Account' });
    this.transfer = page.getByRole('button', { name: 'Transfer', exact: true });
    this.table = page.getByRole('table', { name: 'Accounts' });
    this.rows = this.table.locator('tbody tr');
    this.dialog = page.getByRole('dialog');
    this.register = page.getByRole('table', { name: 'Register' });
    this.registerRows = this.register.locator('tbody tr');
  }

  async goto(): Promise<void> {
    await this.page.goto('/accounts');
    await expect(this.heading).toBeVisible();
  }

  /** Back to /accounts through the navigation bar (no reload). */
  async open(): Promise<void> {
    await this.page.getByRole('navigation').getByRole('link', { name: 'Accounts' }).click();
    await expect(this.heading).toBeVisible();
  }

  row(name: string): Locator {
    return this.rows.filter({ hasText: name });
  }

  /**
   * Opens the Add Account dialog from the keyboard (the last save's toast may lie over the
   * button), fills it by label and submits it with Enter.
   */
  async add(account: {
    name: string;
    kind?: string;
    bankName?: string;
    lastFour?: string;
    openingBalance: string;
    openingDate: string;
  }): Promise<void> {
    await this.addAccount.press('Enter');
    const d = this.dialog;
    await expect(d.getByLabel('Account Name')).toBeFocused();
    await d.getByLabel('Account Name').fill(account.name);
    if (account.kind) await d.getByLabel('Account Type').selectOption({ label: account.kind });
    if (account.bankName) await d.getByLabel('Bank Name (typed)').fill(account.bankName);
    if (account.lastFour) await d.getByLabel('Last Four Digits').fill(account.lastFour);
    await d.getByLabel('Opening Balance (₹)').fill(account.openingBalance);
    await d.getByLabel('Opening Balance Date').fill(account.openingDate);
    await d.getByLabel('Opening Balance (₹)').press('Enter');
    await expect(this.dialog).toHaveCount(0);
    await expect(this.row(account.name)).toBeVisible();
  }
}
