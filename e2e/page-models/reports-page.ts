import { expect, type Locator, type Page } from '@playwright/test';

/** /reports: one report at a time, chosen by tab. */
export class ReportsPage {
  readonly heading: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly exportCsv: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Reports', level: 1 });
    this.table = page.locator('.kosh-report-table');
    this.rows = this.table.locator('tbody tr');
    this.exportCsv = page.getByRole('button', { name: 'Export CSV' });
  }

  async goto(report?: string): Promise<void> {
    await this.page.goto(report ? `/reports?report=${report}` : '/reports');
    await expect(this.heading).toBeVisible();
  }

  tab(name: string): Locator {
    return this.page.getByRole('tab', { name });
  }

  row(text: string): Locator {
    return this.rows.filter({ hasText: text });
  }

  /** Downloads the shown report's CSV: its file name and text. */
  async downloadCsv(): Promise<{ name: string; text: string }> {
    const download = this.page.waitForEvent('download');
    await this.exportCsv.click();
    const file = await download;
    const path = await file.path();
    const { readFile } = await import('node:fs/promises');
    return { name: file.suggestedFilename(), text: await readFile(path, 'utf8') };
  }
}
