import { expect, test } from '@playwright/test';
import { LedgerPage } from './page-models/ledger-page';
import { fifteenth, MONTH_NAMES, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

test('the ledger period: 12 months, 10 years, the available periods, and a reload on each change', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Farah');
  const api = await MoneyApi.signIn(request, user);
  const thisMonth = fifteenth(0);
  const earlier = fifteenth(-3);
  await api.createTransaction('Consulting fee', 'C', thisMonth, 42000);
  await api.createTransaction('Car service', 'D', earlier, 8500.25);
  await signInThroughUi(page, user);

  const ledger = new LedgerPage(page);
  await ledger.goto();
  const now = new Date();
  const year = now.getFullYear();
  const monthName = MONTH_NAMES[now.getMonth()] as string;
  await expect(ledger.month.locator('option')).toHaveText(MONTH_NAMES);
  await expect(ledger.year.locator('option')).toHaveText(
    Array.from({ length: 10 }, (_, i) => String(year - 5 + i)),
  );
  // The initial period is the periods answer's current month and year.
  await expect(ledger.month.locator('option:checked')).toHaveText(monthName);
  await expect(ledger.year).toHaveValue(String(year));
  await expect(ledger.periods).toHaveText('Available periods: 2 months of data');
  await expect(page.getByRole('heading', { name: `Ledger for ${monthName} ${year}` })).toBeVisible();
  await expect(ledger.creditTable).toContainText('Consulting fee');
  await expect(ledger.card('Total Credit')).toContainText('₹42,000.00');
  await expect(ledger.card('Total Credit')).toContainText('1 entry');
  await expect(ledger.card('Net Balance')).toContainText('Surplus');
  await expect(ledger.debitTable).toContainText('No debit transactions for this period');
  await expect(ledger.netMessage).toHaveText('You have a surplus this month');

  const [earlierYear, earlierMonth] = earlier.split('-').map(Number) as [number, number];
  await ledger.choose(MONTH_NAMES[earlierMonth - 1] as string, earlierYear);
  await expect(ledger.debitTable).toContainText('Car service');
  await expect(ledger.debitTable.locator('tfoot')).toContainText('₹8,500.25');
  await expect(ledger.card('Net Balance')).toContainText('Deficit');
  await expect(ledger.card('EMI Payments')).toContainText('0');
  await expect(ledger.netMessage).toHaveText('You have a deficit this month');
  await expect(ledger.creditTable).toContainText('No credit transactions for this period');
});

test('the ledger: a full-page spinner on first load, and a failure as a toast and a red alert', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Imran');
  await signInThroughUi(page, user);
  // Hold the periods answer until the spinner has been seen; then fail the month's ledger.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/ledger/periods', async (route) => {
    await held;
    await route.continue();
  });
  await page.route('**/api/ledger?*', (route) =>
    route.fulfill({
      status: 503,
      json: { success: false, message: 'Ledger store unavailable', errorCode: 'INTERNAL', errors: [] },
    }),
  );
  const ledger = new LedgerPage(page);
  await page.goto('/ledger');
  await expect(page.getByRole('status').filter({ hasText: 'Loading ledger data...' })).toBeVisible();
  release();
  await expect(ledger.heading).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Ledger store unavailable' }).first()).toBeVisible();
  await expect(page.locator('.bp6-callout').filter({ hasText: 'Ledger store unavailable' })).toBeVisible();
});
