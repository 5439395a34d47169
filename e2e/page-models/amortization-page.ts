import { expect, type Locator, type Page } from '@playwright/test';

/** /loans/{id}/amortization, 'Amortization Schedule'. */
export class AmortizationPage {
  readonly heading: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly totalsRow: Locator;
  readonly regenerateSchedule: Locator;
  readonly editLoan: Locator;
  readonly markPaidUpTo: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Amortization Schedule', level: 1 });
    this.table = page.getByRole('table', { name: 'Amortization schedule' });
    this.rows = this.table.locator('tbody tr');
    this.totalsRow = this.table.locator('tfoot tr');
    this.regenerateSchedule = page.getByRole('button', { name: 'Regenerate Schedule' });
    this.editLoan = page.getByRole('button', { name: 'Edit Loan' });
    this.markPaidUpTo = page.getByRole('button', { name: 'Mark Paid Up To…' });
  }

  async goto(id: string): Promise<void> {
    await this.page.goto(`/loans/${id}/amortization`);
    await expect(this.heading).toBeVisible();
  }

  summary(
    label:
      | 'Principal'
      | 'Interest'
      | 'GST'
      | 'Total EMI'
      | 'Number of Payments'
      | 'Part-payments and Foreclosure'
      | 'EMIs Paid',
  ): Locator {
    return this.page.getByRole('group', { name: label, exact: true });
  }

  markPaid(n: number): Locator {
    return this.table.getByRole('button', { name: `Mark paid, EMI ${n}`, exact: true });
  }

  /** The Undo of a mark on EMI `n` (the first when it has several). */
  undo(n: number): Locator {
    return this.table.getByRole('button', { name: `Undo a mark on EMI ${n}` }).first();
  }

  /** The payment state cell of EMI `n`. */
  payment(n: number): Locator {
    return this.cell(n, 7);
  }

  /** Cell `column` (0-based) of 1-based payment `n`. */
  cell(n: number, column: number): Locator {
    return this.rows
      .nth(n - 1)
      .locator('td')
      .nth(column);
  }
}
