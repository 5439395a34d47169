import { expect, type Locator, type Page } from '@playwright/test';

/** /dashboard. */
export class DashboardPage {
  readonly cashflowChart: Locator;
  readonly outstandingChart: Locator;
  readonly cashflowRegion: Locator;
  readonly outstandingRegion: Locator;

  constructor(readonly page: Page) {
    this.cashflowRegion = page.getByRole('region', { name: 'Credits and debits, last 12 months' });
    this.outstandingRegion = page.getByRole('region', { name: 'Outstanding principal over time' });
    this.cashflowChart = page.getByTestId('cashflow-chart');
    this.outstandingChart = page.getByTestId('outstanding-chart');
  }

  async goto(): Promise<void> {
    await this.page.goto('/dashboard');
    await expect(this.page.getByRole('heading', { name: /^Welcome back, / })).toBeVisible();
  }

  card(label: 'Total Loans' | 'Active Loans' | 'Total Amount' | 'Remaining Amount'): Locator {
    return this.page.getByRole('group', { name: label, exact: true });
  }

  quickAction(name: 'Create New Loan' | 'Transaction Book' | 'All Loans' | 'Profile'): Locator {
    return this.page.getByRole('main').getByRole('button', { name, exact: true });
  }
}
