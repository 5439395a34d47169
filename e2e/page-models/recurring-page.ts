import { expect, type Locator, type Page } from '@playwright/test';

/** /recurring: the recurring entries and their upcoming occurrences. */
export class RecurringPage {
  readonly heading: Locator;
  readonly addEntry: Locator;
  readonly entries: Locator;
  readonly upcoming: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Recurring', level: 1 });
    this.addEntry = page.getByRole('button', { name: 'Add Recurring Entry' });
    this.entries = page.getByRole('table', { name: 'Recurring entries' }).locator('tbody tr');
    this.upcoming = page.getByRole('table', { name: 'Upcoming occurrences' }).locator('tbody tr');
    this.dialog = page.getByRole('dialog');
  }

  async open(): Promise<void> {
    await this.page.getByRole('navigation').getByRole('link', { name: 'Recurring' }).click();
    await expect(this.heading).toBeVisible();
  }

  /** The upcoming row of a date (DD/MM/YYYY as shown). */
  occurrence(shownDate: string): Locator {
    return this.upcoming.filter({ hasText: shownDate });
  }

  async add(entry: { notes: string; payee: string; amount: string; day: string; type?: 'Credit' | 'Debit' }) {
    await this.addEntry.click();
    const form = this.dialog;
    if (entry.type === 'Credit') await form.getByLabel('Credit (money in)').check();
    await form.getByLabel('Amount (₹)').fill(entry.amount);
    await form.getByLabel('Notes').fill(entry.notes);
    await form.getByLabel('Payee').fill(entry.payee);
    await form.getByLabel('On', { exact: true }).selectOption({ label: entry.day });
    await form.getByRole('button', { name: 'Create Entry' }).click();
    await expect(form).toHaveCount(0);
  }
}
