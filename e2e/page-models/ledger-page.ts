import { expect, type Locator, type Page } from '@playwright/test';

/** /ledger, the Ledger View. */
export class LedgerPage {
  readonly heading: Locator;
  readonly month: Locator;
  readonly year: Locator;
  readonly periods: Locator;
  readonly creditTable: Locator;
  readonly debitTable: Locator;
  readonly emiRows: Locator;
  readonly netMessage: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Ledger View', level: 1 });
    this.month = page.getByLabel('Month', { exact: true });
    this.year = page.getByLabel('Year', { exact: true });
    this.periods = page.getByText(/^Available periods: \d+ months of data$/);
    this.creditTable = page.getByRole('table', { name: 'Credit entries' });
    this.debitTable = page.getByRole('table', { name: 'Debit entries' });
    this.emiRows = this.debitTable.locator('tbody tr.kosh-emi-row');
    this.netMessage = page.getByText(/^You have a (surplus|deficit) this month$/);
  }

  async goto(): Promise<void> {
    await this.page.goto('/ledger');
    await expect(this.heading).toBeVisible();
  }

  async choose(month: string, year: number): Promise<void> {
    await this.year.selectOption(String(year));
    await this.month.selectOption({ label: month });
    await expect(this.page.getByRole('heading', { name: `Ledger for ${month} ${year}` })).toBeVisible();
  }

  card(label: 'Total Credit' | 'Total Debit' | 'Net Balance' | 'EMI Payments'): Locator {
    return this.page.getByRole('group', { name: label, exact: true });
  }
}
