import { expect, type Locator, type Page } from '@playwright/test';

/** /loans, 'All Loans'. */
export class LoansPage {
  readonly heading: Locator;
  readonly search: Locator;
  readonly bankFilter: Locator;
  readonly pageSize: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly caption: Locator;
  readonly nextPage: Locator;
  readonly previousPage: Locator;
  readonly emptyState: Locator;
  readonly createNewLoan: Locator;
  readonly deleteAlert: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'All Loans', level: 1 });
    this.search = page.getByPlaceholder(/Search by account number/);
    this.bankFilter = page.getByLabel('Bank', { exact: true });
    this.pageSize = page.getByLabel('Loans per page');
    this.table = page.getByRole('table', { name: 'Loans' });
    this.rows = this.table.locator('tbody tr');
    this.caption = page.getByText(/^Showing \d+ to \d+ of \d+ results$/);
    this.nextPage = page
      .getByRole('navigation', { name: 'Loan pages' })
      .getByRole('button', { name: 'Next page' });
    this.previousPage = page
      .getByRole('navigation', { name: 'Loan pages' })
      .getByRole('button', { name: 'Previous page' });
    this.emptyState = page.getByRole('heading', { name: 'No loans found' });
    this.createNewLoan = page.getByRole('button', { name: 'Create New Loan' });
    this.deleteAlert = page.getByRole('alertdialog');
  }

  async goto(): Promise<void> {
    await this.page.goto('/loans');
    await expect(this.heading).toBeVisible();
  }

  row(accountNumber: string): Locator {
    return this.rows.filter({ hasText: accountNumber });
  }

  async deleteLoan(accountNumber: string): Promise<void> {
    await this.page.getByRole('button', { name: `Delete loan ${accountNumber}` }).click();
    await expect(this.deleteAlert).toContainText('Are you sure you want to delete this loan?');
    await this.deleteAlert.getByRole('button', { name: 'Delete' }).click();
  }
}
