import { expect, type Locator, type Page } from '@playwright/test';

/** /transactions, the Transaction Book. */
export class TransactionsPage {
  readonly heading: Locator;
  readonly addTransaction: Locator;
  readonly search: Locator;
  readonly type: Locator;
  readonly dateFrom: Locator;
  readonly dateTo: Locator;
  readonly searchButton: Locator;
  readonly clearButton: Locator;
  readonly badges: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly caption: Locator;
  readonly pagination: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Transaction Book', level: 1 });
    this.addTransaction = page.getByRole('button', { name: 'Add Transaction' });
    this.search = page.getByPlaceholder('Search by notes...');
    this.type = page.getByLabel('Transaction Type', { exact: true }).first();
    this.dateFrom = page.getByLabel('Date From');
    this.dateTo = page.getByLabel('Date To');
    this.searchButton = page.getByRole('button', { name: 'Search', exact: true });
    this.clearButton = page.getByRole('button', { name: 'Clear', exact: true });
    this.badges = page.getByRole('list', { name: 'Active filters' }).getByRole('listitem');
    this.table = page.getByRole('table', { name: 'Transactions' });
    this.rows = this.table.locator('tbody tr');
    this.caption = page.getByText(/^Showing \d+ to \d+ of \d+ transactions$/);
    this.pagination = page.getByRole('navigation', { name: 'Transaction pages' });
    this.dialog = page.getByRole('dialog');
  }

  async goto(): Promise<void> {
    await this.page.goto('/transactions');
    await expect(this.heading).toBeVisible();
    await this.settled();
  }

  /** The list has answered (no loading row). */
  async settled(): Promise<void> {
    await expect(this.table.getByText('Loading transactions...')).toHaveCount(0);
  }

  stat(label: 'Total Transactions' | 'Total Credits' | 'Total Debits' | 'Net Amount'): Locator {
    return this.page.getByRole('group', { name: label, exact: true });
  }

  pageButton(name: string): Locator {
    return this.pagination.getByRole('button', { name, exact: true });
  }

  row(notes: string): Locator {
    return this.rows.filter({ hasText: notes });
  }

  async openAdd(): Promise<void> {
    await this.addTransaction.click();
    await expect(this.dialog.getByRole('heading', { name: 'Add New Transaction' })).toBeVisible();
    await this.focusInDialog();
  }

  /** Blueprint moves focus into a dialog a frame after it shows; keys go there only then. */
  private async focusInDialog(): Promise<void> {
    await expect
      .poll(() => this.page.evaluate(() => Boolean(document.activeElement?.closest('.bp6-overlay'))))
      .toBe(true);
  }

  async fillDialog(entry: {
    notes?: string;
    type?: 'Credit (Income)' | 'Debit (Expense)';
    date?: string;
    amount?: string;
  }) {
    if (entry.notes !== undefined) await this.dialog.getByLabel('Notes').fill(entry.notes);
    if (entry.type !== undefined)
      await this.dialog.getByLabel('Transaction Type').selectOption({ label: entry.type });
    if (entry.date !== undefined) await this.dialog.getByLabel('Transaction Date').fill(entry.date);
    if (entry.amount !== undefined) await this.dialog.getByLabel('Amount (₹)').fill(entry.amount);
  }

  async add(entry: {
    notes: string;
    type: 'Credit (Income)' | 'Debit (Expense)';
    date: string;
    amount: string;
  }) {
    await this.openAdd();
    await this.fillDialog(entry);
    await this.dialog.getByRole('button', { name: 'Create Transaction' }).click();
    await expect(this.dialog).toHaveCount(0);
  }

  async edit(
    notes: string,
    changes: { notes?: string; amount?: string; type?: 'Credit (Income)' | 'Debit (Expense)' },
  ) {
    await this.page.getByRole('button', { name: `Edit transaction ${notes}` }).click();
    await expect(this.dialog.getByRole('heading', { name: 'Edit Transaction' })).toBeVisible();
    await this.fillDialog(changes);
    await this.dialog.getByRole('button', { name: 'Update Transaction' }).click();
    await expect(this.dialog).toHaveCount(0);
  }

  async openDelete(notes: string): Promise<void> {
    await this.page.getByRole('button', { name: `Delete transaction ${notes}` }).click();
    await expect(this.dialog.getByRole('heading', { name: 'Confirm Delete' })).toBeVisible();
    await this.focusInDialog();
  }

  dialogError(label: string): Locator {
    return this.dialog
      .locator('.bp6-form-group')
      .filter({ has: this.page.getByLabel(label, { exact: true }) })
      .locator('.bp6-form-helper-text');
  }
}
