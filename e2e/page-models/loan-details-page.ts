import { expect, type Locator, type Page } from '@playwright/test';

/** /loans/{id}, 'Loan Details'. */
export class LoanDetailsPage {
  readonly heading: Locator;
  readonly editLoan: Locator;
  readonly regenerateSchedule: Locator;
  readonly viewSchedule: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Loan Details', level: 1 });
    this.editLoan = page.getByRole('button', { name: 'Edit Loan' });
    this.regenerateSchedule = page.getByRole('button', { name: /^(Re)?[gG]enerate Schedule$/ });
    this.viewSchedule = page.getByRole('button', { name: 'View Schedule' });
  }

  card(title: 'Basic Information' | 'Financial Details' | 'Date Information' | 'Loan Summary'): Locator {
    return this.page.locator('.bp6-card').filter({ has: this.page.getByRole('heading', { name: title }) });
  }

  /** A button of the 'Loan changes' toolbar. */
  change(
    name: 'Part-payment' | 'Rate Change' | 'EMI Override' | 'Foreclose' | 'Interest Certificate',
  ): Locator {
    return this.page.getByRole('toolbar', { name: 'Loan changes' }).getByRole('button', { name });
  }

  dialog(title: string): Locator {
    return this.page.getByRole('dialog', { name: title });
  }

  async goto(id: string): Promise<void> {
    await this.page.goto(`/loans/${id}`);
    await expect(this.heading).toBeVisible();
  }
}
