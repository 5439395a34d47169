import type { Locator, Page } from '@playwright/test';

/** /history, the timeline (issue 14). */
export class HistoryPage {
  readonly heading: Locator;
  readonly entries: Locator;
  readonly stream: Locator;
  readonly type: Locator;
  readonly apply: Locator;
  readonly beginning: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'History', level: 1 });
    this.entries = page.getByRole('list', { name: 'History entries' }).getByRole('listitem');
    this.stream = page.getByLabel('Stream');
    this.type = page.getByLabel('Type', { exact: true });
    this.apply = page.getByRole('button', { name: 'Apply' });
    this.beginning = page.getByText('The beginning of the history.');
  }

  async goto(): Promise<void> {
    await this.page.goto('/history');
  }

  /** The entry whose summary is `summary`. */
  entry(summary: string): Locator {
    return this.page.getByRole('listitem', { name: summary });
  }

  /** The From and To cells of `field` in an entry's changes table. */
  change(entry: Locator, field: string): Locator {
    return entry.getByRole('row', { name: new RegExp(`^${field}\\b`) });
  }
}

/** The as-of control and banner of the as-of screens. */
export class AsOfMode {
  readonly date: Locator;
  readonly view: Locator;
  readonly banner: Locator;
  readonly backToToday: Locator;

  constructor(readonly page: Page) {
    this.date = page.getByLabel('As of', { exact: true });
    this.view = page.getByRole('button', { name: 'View', exact: true });
    this.banner = page.getByText(/^Showing .* as of /);
    this.backToToday = page.getByRole('button', { name: 'Back to today' });
  }

  async choose(date: string): Promise<void> {
    await this.date.fill(date);
    await this.view.click();
  }
}
