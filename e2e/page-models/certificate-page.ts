import { expect, type Locator, type Page } from '@playwright/test';

/** /loans/{id}/certificate, 'Interest Certificate'. */
export class CertificatePage {
  readonly heading: Locator;
  readonly financialYear: Locator;
  readonly figures: Locator;
  readonly printable: Locator;
  readonly pdf: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Interest Certificate', level: 1 });
    this.financialYear = page.getByLabel('Financial year (April–March)');
    this.figures = page.getByRole('table', { name: 'Certificate figures' });
    this.printable = page.getByRole('button', { name: 'Printable Page (HTML)' });
    this.pdf = page.getByRole('button', { name: 'PDF' });
  }

  figure(label: string | RegExp): Locator {
    return this.figures.getByRole('row', { name: label }).getByRole('cell');
  }

  async goto(id: string): Promise<void> {
    await this.page.goto(`/loans/${id}/certificate`);
    await expect(this.heading).toBeVisible();
  }
}
