import { expect, type Page, test } from '@playwright/test';
import { AppShell } from './page-models/app-shell';
import { RecurringPage } from './page-models/recurring-page';
import { TransactionsPage } from './page-models/transactions-page';
import { signInThroughUi } from './support/money';
import { captureScreen } from './support/screens';
import { createVerifiedUser } from './support/users';

/** Today in India (the app's business dates), and the same day of the next months. */
function indiaDate(monthsAhead = 0): { iso: string; shown: string; day: number } {
  const iso = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + monthsAhead;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const day = Math.min(d, new Date(Date.UTC(year, month, 0)).getUTCDate());
  const pad = (n: number) => String(n).padStart(2, '0');
  const iso2 = `${year}-${pad(month)}-${pad(day)}`;
  // As the screens write a business date: "05 Jan 2026".
  const shown = new Intl.DateTimeFormat('en-IN', {
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${iso2}T00:00:00Z`));
  return { iso: iso2, shown, day: d };
}

/** Reloads until `check` passes: the posting is the workers' (in-process here), after the answer. */
async function eventually(page: Page, check: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout: 30_000, intervals: [500, 1000, 2000] });
}

test('recurring: an entry is posted to the book on its day, once; skip and change one; reminders; forecast', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const user = await createVerifiedUser(request, 'Kiran');
  await signInThroughUi(page, user);
  const recurring = new RecurringPage(page);
  const shell = new AppShell(page);
  await recurring.open();
  await expect(page.getByText('No recurring entries yet')).toBeVisible();

  // A monthly debit on today's day (a shorter month takes its last day, as indiaDate does).
  const today = indiaDate();
  await recurring.addEntry.click();
  await captureScreen(page, 'recurring-dialog', async () => {
    await expect(recurring.dialog.getByLabel('Notes')).toBeVisible();
  });
  await recurring.dialog.getByRole('button', { name: 'Cancel' }).click();
  await recurring.add({ notes: 'Flat rent', payee: 'Mr Sharma', amount: '25,000', day: `Day ${today.day}` });
  await expect(shell.toast('Recurring entry created successfully!')).toBeVisible();
  await expect(recurring.entries).toHaveCount(1);
  await expect(recurring.entries.first()).toContainText('Monthly on day');

  // The workers post today's occurrence: the upcoming list says Posted, the book has it once.
  await eventually(page, async () => {
    await expect(recurring.occurrence(today.shown)).toContainText('Posted', { timeout: 1000 });
  });
  const book = new TransactionsPage(page);
  await book.goto();
  await expect(book.rows.filter({ hasText: 'Flat rent' })).toHaveCount(1);
  await expect(book.rows.filter({ hasText: 'Flat rent' })).toContainText('₹25,000.00');

  // Skip next month's, change the one after.
  await recurring.open();
  const next = indiaDate(1);
  const after = indiaDate(2);
  await recurring
    .occurrence(next.shown)
    .getByRole('button', { name: /^Skip / })
    .click();
  await expect(recurring.occurrence(next.shown)).toContainText('Skipped');
  await recurring
    .occurrence(after.shown)
    .getByRole('button', { name: /^Change / })
    .click();
  await recurring.dialog.getByLabel('Amount (₹)').fill('26,500');
  await recurring.dialog.getByRole('button', { name: 'Save Change' }).click();
  await expect(recurring.dialog).toHaveCount(0);
  await expect(recurring.occurrence(after.shown)).toContainText('Changed');
  await expect(recurring.occurrence(after.shown)).toContainText('₹26,500.00');
  await captureScreen(page, 'recurring', async () => {
    await expect(recurring.occurrence(after.shown)).toContainText('Changed');
  });
  // The book still holds the one posting.
  await book.goto();
  await expect(book.rows.filter({ hasText: 'Flat rent' })).toHaveCount(1);

  // Reminders by mail, chosen on the profile.
  await shell.chooseFromUserMenu('Profile');
  const reminders = page.getByRole('form', { name: 'Reminders by mail' });
  await reminders.getByText('Recurring entry due').click();
  await reminders.getByLabel('When').selectOption({ label: '5 days before' });
  await reminders.getByRole('button', { name: 'Save Reminders' }).click();
  await expect(shell.toast('Reminder preferences saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('form', { name: 'Reminders by mail' }).getByLabel('When')).toHaveValue('5');
  await captureScreen(page, 'profile-reminders', async () => {
    await expect(page.getByRole('form', { name: 'Reminders by mail' })).toBeVisible();
  });

  // The forecast: next month's skipped, the one after changed.
  await page.getByRole('navigation').getByRole('link', { name: 'Reports' }).click();
  await page.getByRole('tab', { name: 'Cash flow' }).click();
  await expect(page.getByRole('heading', { name: /^Cash-flow forecast/ })).toBeVisible();
  const items = page.getByRole('table', { name: 'Forecast items' }).locator('tbody tr');
  await expect(items.filter({ hasText: after.shown })).toContainText('₹26,500.00');
  await expect(items.filter({ hasText: next.shown })).toHaveCount(0);
  await expect(page.getByTestId('cash-flow-chart')).toBeVisible();
  await captureScreen(page, 'cash-flow', async () => {
    await expect(page.getByTestId('cash-flow-chart')).toBeVisible();
  });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  expect((await download).suggestedFilename()).toBe(`cash-flow-${today.iso}.csv`);

  // Deleting the entry asks first; what it posted stays in the book.
  await recurring.open();
  await recurring.entries.first().getByRole('button', { name: 'Delete recurring entry Flat rent' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Entry' }).click();
  await expect(page.getByText('No recurring entries yet')).toBeVisible();
  await book.goto();
  await expect(book.rows.filter({ hasText: 'Flat rent' })).toHaveCount(1);
});
