import { expect, type Locator, type Page } from '@playwright/test';

/** /budgets: each budget against what its category spent in a month. */
export class BudgetsPage {
  readonly heading: Locator;
  readonly setBudget: Locator;
  readonly dialog: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Budgets', level: 1 });
    this.setBudget = page.getByRole('button', { name: 'Set Budget' }).first();
    this.dialog = page.getByRole('dialog');
    this.rows = page.getByTestId('budget-row');
  }

  async open(): Promise<void> {
    await this.page.getByRole('navigation').getByRole('link', { name: 'Budgets' }).click();
    await expect(this.heading).toBeVisible();
  }

  row(category: string): Locator {
    return this.rows.filter({ hasText: category });
  }

  /** Sets a budget through the dialog: category by its label, amount as typed. */
  async add(category: string, amount: string, rollover = false): Promise<void> {
    await this.setBudget.click();
    await this.dialog.getByLabel('Category').selectOption({ label: category });
    await this.dialog.getByLabel('Monthly Amount (₹)').fill(amount);
    if (rollover) await this.dialog.getByText('Roll over what is left').click();
    await this.dialog.getByRole('button', { name: 'Set Budget' }).click();
    await expect(this.dialog).toHaveCount(0);
  }
}
