import { expect, type Locator, type Page, test } from '@playwright/test';
import { AmortizationPage } from './page-models/amortization-page';
import { LedgerPage } from './page-models/ledger-page';
import { fifteenth, isoDate, MoneyApi, signInThroughUi } from './support/money';
import { expectAccessible, screenshotPath, viewports } from './support/screens';
import { createVerifiedUser } from './support/users';

/**
 * Issue 33: tables of more than 100 rows render the rows near the viewport only. A user still
 * reaches every row by scrolling, assistive technology hears the whole row count, keyboard focus
 * is not lost, and the browser's find (Ctrl+F) sees every row.
 */

/** Wheels the mouse over `over` until `target` is in view, as a user scrolls down to a row. */
async function wheelUntilVisible(page: Page, over: Locator, target: Locator): Promise<void> {
  const box = await over.boundingBox();
  if (!box) throw new Error('nothing to scroll over');
  await page.mouse.move(box.x + box.width / 2, Math.min(box.y + box.height / 2, 700));
  await expect(async () => {
    await page.mouse.wheel(0, 2500);
    await expect(target).toBeInViewport({ timeout: 300 });
  }).toPass({ timeout: 30_000 });
}

/**
 * At 1280 and 390 px: scrolled halfway down by `scroll`, the table is accessible (the count on
 * the table, the spacer rows hidden) and looks as it should (e2e/screenshots/{name}-{size}.png).
 */
async function checkHalfway(page: Page, name: string, scroll: () => Promise<void>): Promise<void> {
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await scroll();
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await expectAccessible(page, `${name} at ${size}`);
    await page.screenshot({ path: screenshotPath(`${name}-${size}`) });
  }
  await page.setViewportSize(viewports.desktop);
}

test('the 600-row schedule: the count is announced, the last EMI is reached by scrolling, focus survives scrolling, Ctrl+F renders every row', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const user = await createVerifiedUser(request, 'Kavya');
  const api = await MoneyApi.signIn(request, user);
  const bank = await api.createBank('Long Table Bank', 'Pune');
  const type = await api.createLoanType('Long Table Loan');
  const loanId = await api.createLoan({
    bankId: bank,
    loanTypeId: type,
    accountNumber: 'LONG00600',
    principal: 5000000,
    rate: 8.5,
    months: 600,
    startDate: fifteenth(-1),
    emisAutoDebited: false,
  });
  await signInThroughUi(page, user);
  const schedule = new AmortizationPage(page);
  await schedule.goto(loanId);

  // Head, 600 rows, foot: the whole count, though far fewer rows are in the page.
  await expect(schedule.table).toHaveAttribute('aria-rowcount', '602');
  await expect(schedule.rows.first()).toHaveAttribute('aria-rowindex', '2');
  expect(await schedule.rows.count()).toBeLessThan(200);
  const last = schedule.table.locator('tbody tr[aria-rowindex="601"]');
  await expect(last).toHaveCount(0);

  const box = page.getByRole('region', { name: 'Schedule table' });
  await wheelUntilVisible(page, box, last);
  await expect(last.locator('td').first()).toHaveText('600');
  await expect(last.locator('td').nth(6)).toHaveText('₹0.00');

  // Focus on a row's button, then scroll away: the button keeps focus, and Tab goes on to the
  // next row's button, not past the rows that were not rendered.
  await schedule.markPaid(590).focus();
  await box.evaluate((element) => {
    element.scrollTop = 0;
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(schedule.table.locator('tbody tr[aria-rowindex="2"]')).toBeInViewport();
  // The rows between the top and the focused row are not rendered now.
  await expect(schedule.table.locator('tbody tr[aria-rowindex="561"]')).toHaveCount(0);
  await expect(schedule.markPaid(590)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(schedule.markPaid(591)).toBeFocused();

  await checkHalfway(page, 'schedule-600-halfway', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await box.evaluate((element) => {
      element.scrollTop = (element.scrollHeight - element.clientHeight) / 2;
    });
    await box.scrollIntoViewIfNeeded();
  });
  await expect(schedule.table.locator('tbody tr[aria-rowindex="302"]')).toBeVisible();

  // The browser's find searches the page's text: every row is there once it opens.
  await page.keyboard.press('Control+f');
  await expect(schedule.rows).toHaveCount(600);
});

test('a ledger month of 130 entries: the count is announced and the last entry is reached by scrolling the page', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const user = await createVerifiedUser(request, 'Rohan');
  const api = await MoneyApi.signIn(request, user);
  const today = isoDate(new Date());
  for (let i = 1; i <= 130; i += 10)
    await Promise.all(
      Array.from({ length: 10 }, (_, k) =>
        api.createTransaction(`Long month entry ${i + k}`, 'D', today, 100 + i + k),
      ),
    );
  await signInThroughUi(page, user);
  const ledger = new LedgerPage(page);
  await ledger.goto();

  await expect(ledger.debitTable).toHaveAttribute('aria-rowcount', '132');
  const rendered = ledger.debitTable.locator('tbody tr[aria-rowindex]');
  await expect(rendered.first()).toBeVisible();
  expect(await rendered.count()).toBeLessThan(130);
  const lastRow = ledger.debitTable.locator('tbody tr[aria-rowindex="131"]');
  await expect(lastRow).toHaveCount(0);

  await wheelUntilVisible(page, ledger.debitTable, lastRow);
  await expect(lastRow).toContainText('Long month entry');
  await expect(ledger.debitTable.locator('tfoot')).toContainText('Total');
  await checkHalfway(page, 'ledger-130-halfway', () =>
    page.evaluate(() => window.scrollTo(0, (document.documentElement.scrollHeight - window.innerHeight) / 2)),
  );
});
