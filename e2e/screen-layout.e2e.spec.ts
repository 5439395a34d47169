import { expect, type Locator, type Page, test } from '@playwright/test';
import { AmortizationPage } from './page-models/amortization-page';
import { AppShell } from './page-models/app-shell';
import { LedgerPage } from './page-models/ledger-page';
import { LoanDetailsPage } from './page-models/loan-details-page';
import { LoanFormPage } from './page-models/loan-form-page';
import { TransactionsPage } from './page-models/transactions-page';
import { fifteenth, isoDate, MoneyApi, signInThroughUi } from './support/money';
import { screenshotPath, viewports } from './support/screens';
import { createVerifiedUser } from './support/users';

type Box = { x: number; y: number; width: number; height: number };

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator} has no box`);
  return box;
}

/** Rupees of a formatted amount ('₹9,964.29' → 9964.29). */
const rupees = (text: string | null) => Number((text ?? '').replace(/[₹,\s]/g, ''));

/** The value cell beside a row heading (preview table) or a fact label (details cards). */
const figureBeside = (page: Page, scope: Locator, label: string) =>
  scope
    .locator('tr, .kosh-fact')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('td, dd');

test('item 4: every EMI row of the ledger is highlighted, odd or even', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Isha');
  const api = await MoneyApi.signIn(request, user);
  const bankId = await api.createBank('Canara Bank', 'Indiranagar');
  const typeId = await api.createLoanType('Vehicle Loan');
  // Both first EMIs fall on the 15th of this month: two EMI rows, the first odd, the second even.
  for (const accountNumber of ['CAR00001', 'CAR00002'])
    await api.createLoan({
      bankId,
      loanTypeId: typeId,
      accountNumber,
      principal: 300000,
      rate: 9,
      months: 24,
      startDate: fifteenth(-1),
    });
  await api.createTransaction('Salary', 'C', fifteenth(0), 90000);
  await signInThroughUi(page, user);
  const ledger = new LedgerPage(page);
  await ledger.goto();
  await expect(ledger.emiRows).toHaveCount(2);
  const backgrounds = await ledger.emiRows.evaluateAll((rows) =>
    rows.map((row) => getComputedStyle(row.querySelector('td') as Element).backgroundColor),
  );
  const plain = await ledger.creditTable
    .locator('tbody tr td')
    .first()
    .evaluate((cell) => getComputedStyle(cell).backgroundColor);
  expect(backgrounds[0]).toBe(backgrounds[1]);
  expect(backgrounds[0]).not.toBe(plain);
  expect(backgrounds[0]).toMatch(/^rgba\(200, 118, 25/);
  await page.screenshot({ path: screenshotPath('issue13-ledger-emis-desktop'), fullPage: true });
});

test('item 5: preview, details and schedule name the EMI, the GST on it and the outflow alike', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Isha');
  const api = await MoneyApi.signIn(request, user);
  const bankId = await api.createBank('Axis Bank', 'Koramangala');
  const typeId = await api.createLoanType('Personal Loan');
  const loan = { principal: 360000, rate: 10, months: 48, gstPercentage: 18 };
  const id = await api.createLoan({
    bankId,
    loanTypeId: typeId,
    accountNumber: 'GST00001',
    startDate: fifteenth(-2),
    ...loan,
  });
  await signInThroughUi(page, user);

  // The preview: EMI 9,130.60-ish, GST on the first month's interest (₹3,000 × 18%) = ₹540.00.
  const form = new LoanFormPage(page);
  await form.gotoCreate();
  await form.fill({
    principal: '360000',
    rate: '10',
    ratePer: 'Per year',
    durationIn: 'Months',
    duration: '48',
    gst: '18',
  });
  const emi = rupees(
    await figureBeside(page, form.preview, 'Monthly EMI (principal + interest)').textContent(),
  );
  expect(emi).toBeGreaterThan(9000);
  await expect(figureBeside(page, form.preview, 'GST on the first EMI')).toHaveText('₹540.00');
  const outflow = rupees(
    await figureBeside(page, form.preview, 'First month’s outflow (EMI + GST)').textContent(),
  );
  expect(Math.round((outflow - emi) * 100)).toBe(54000);

  // The details: the same three figures under the same names.
  const details = new LoanDetailsPage(page);
  await details.goto(id);
  const summary = details.card('Loan Summary');
  await expect(figureBeside(page, summary, 'Monthly EMI (principal + interest)')).toHaveText(
    `₹${emi.toLocaleString('en-IN', { minimumFractionDigits: 2 })}`,
  );
  await expect(figureBeside(page, summary, 'GST on the first EMI')).toHaveText('₹540.00');
  await expect(figureBeside(page, summary, 'First month’s outflow (EMI + GST)')).toHaveText(
    `₹${outflow.toLocaleString('en-IN', { minimumFractionDigits: 2 })}`,
  );

  // The schedule says its EMI Amount column is that outflow.
  const schedule = new AmortizationPage(page);
  await schedule.goto(id);
  await expect(
    page.getByText(
      'EMI Amount is each month’s total outflow: the EMI (principal + interest) plus GST on that month’s interest.',
    ),
  ).toBeVisible();
  expect(rupees(await schedule.cell(1, 5).textContent())).toBe(outflow);
  expect(rupees(await schedule.cell(1, 4).textContent())).toBe(540);
});

for (const [name, size] of Object.entries(viewports)) {
  test(`item 6: a success toast covers neither the title nor Add Transaction (${name})`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(size);
    const user = await createVerifiedUser(request, 'Isha');
    await signInThroughUi(page, user);
    const book = new TransactionsPage(page);
    await book.goto();
    await book.add({ notes: 'Coffee', type: 'Debit (Expense)', date: isoDate(new Date()), amount: '120' });
    const toast = new AppShell(page).toast('Transaction created successfully!');
    await expect(toast).toBeVisible();
    // The toast slides in: wait for its box to settle before measuring it.
    let last = '';
    await expect
      .poll(async () => {
        const now = JSON.stringify(await toast.boundingBox());
        const settled = now === last;
        last = now;
        return settled;
      })
      .toBe(true);
    const toastBox = await boxOf(toast);
    expect(overlaps(toastBox, await boxOf(book.heading)), 'toast over the title').toBe(false);
    expect(overlaps(toastBox, await boxOf(book.addTransaction)), 'toast over Add Transaction').toBe(false);
    await book.addTransaction.click({ timeout: 3000 });
    await expect(book.dialog.getByRole('heading', { name: 'Add New Transaction' })).toBeVisible();
  });
}

test.describe('item 7: on a phone', () => {
  test.use({ viewport: viewports.mobile });

  test('transactions pagination on a middle page fits 390 px', async ({ page, request }) => {
    const user = await createVerifiedUser(request, 'Isha');
    const api = await MoneyApi.signIn(request, user);
    for (let i = 1; i <= 100; i++)
      await api.createTransaction(
        `Entry ${i}`,
        i % 2 ? 'C' : 'D',
        `2025-01-${String((i % 28) + 1).padStart(2, '0')}`,
        i,
      );
    await signInThroughUi(page, user);
    const book = new TransactionsPage(page);
    await book.goto();
    await book.pageButton('Page 1').scrollIntoViewIfNeeded();
    await book.pageButton('Last page').click();
    await book.pageButton('Previous page').click();
    await book.pageButton('Previous page').click();
    await book.pageButton('Previous page').click();
    await book.pageButton('Previous page').click();
    await book.pageButton('Previous page').click();
    await expect(book.caption).toHaveText('Showing 41 to 50 of 100 transactions');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const button of ['First page', 'Previous page', 'Page 5', 'Next page', 'Last page']) {
      const box = await boxOf(book.pageButton(button));
      expect(box.x, button).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, button).toBeLessThanOrEqual(390);
    }
    await book.pagination.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('issue13-transactions-pagination-mobile') });
  });

  test('a focused loan field is scrolled into view above the sticky preview', async ({ page, request }) => {
    const user = await createVerifiedUser(request, 'Isha');
    await signInThroughUi(page, user);
    const form = new LoanFormPage(page);
    await form.gotoCreate();
    await form.fill({ principal: '360000', rate: '10', duration: '48', gst: '18' });
    for (const field of [form.processingFee, form.rate, form.startDate, form.gstPercentage, form.principal]) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await field.focus();
      await expect(field).toBeFocused();
      await expect
        .poll(
          async () => {
            const [fieldBox, previewBox] = [await boxOf(field), await boxOf(form.preview)];
            return fieldBox.y + fieldBox.height <= previewBox.y && fieldBox.y >= 50;
          },
          { message: `${await field.getAttribute('id')} above the preview` },
        )
        .toBe(true);
    }
    await form.processingFee.focus();
    await page.screenshot({ path: screenshotPath('issue13-loan-form-preview-mobile') });
  });
});
