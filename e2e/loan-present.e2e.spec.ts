import { expect, test } from '@playwright/test';
import { AppShell } from './page-models/app-shell';
import { HistoryPage } from './page-models/history-page';
import { LedgerPage } from './page-models/ledger-page';
import { LoanDetailsPage } from './page-models/loan-details-page';
import { LoansPage } from './page-models/loans-page';
import { fifteenth, MoneyApi, signInThroughUi } from './support/money';
import { captureScreen, screenshotPath, viewports } from './support/screens';
import { createVerifiedUser } from './support/users';

/**
 * Issue 27 item 7 in the browser: after a rate reset the loan says its present (the new rate
 * beside the contract's, the EMI now, the EMIs left), on a 390 px phone without sideways scroll.
 */
test('after a rate reset the loan details at 390 px show the current rate and EMI, without sideways scroll', async ({
  page,
  request,
}) => {
  // Three screens, each checked by axe at two sizes.
  test.setTimeout(120_000);
  const user = await createVerifiedUser(request, 'Meera');
  const api = await MoneyApi.signIn(request, user);
  const bankId = await api.createBank('Kosh Present Bank', 'Koramangala, Bengaluru');
  const loanTypeId = await api.createLoanType('Present Home Loan');
  // ₹50 lakh at 8.5% over 20 years, started 20 months ago, GST 18% on the interest.
  const loanId = await api.createLoan({
    bankId,
    loanTypeId,
    accountNumber: 'HL20240505',
    principal: 5000000,
    rate: 8.5,
    months: 240,
    startDate: fifteenth(-20),
    gstPercentage: 18,
  });
  await signInThroughUi(page, user);

  const details = new LoanDetailsPage(page);
  await details.goto(loanId);
  await expect(details.card('Financial Details')).toContainText('8.5% per year');
  await details.change('Rate Change').click();
  const dialog = details.dialog('Rate Change');
  const resetOn = fifteenth(-8);
  await dialog.getByLabel('Effective date').fill(resetOn);
  await dialog.getByLabel('New annual rate (%)').fill('9.25');
  await dialog.getByRole('radio', { name: 'Increase the EMI (same tenure)' }).check({ force: true });
  await dialog.getByRole('button', { name: 'Change Rate' }).click();
  await expect(new AppShell(page).toast('Interest rate changed successfully')).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.setViewportSize(viewports.mobile);
  await details.goto(loanId);
  const since = new Intl.DateTimeFormat('en-IN', {
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${resetOn}T00:00:00Z`));
  const rate = details.card('Financial Details').getByText(`8.5% → 9.25% per year since ${since}`);
  await expect(rate).toBeVisible();
  const summary = details.card('Loan Summary');
  await expect(summary).toContainText(/EMI now \(principal \+ interest\)₹[\d,]+\.\d\d/);
  await expect(summary).toContainText(/Next EMI \(with GST\)₹[\d,]+\.\d\d on \d{2} \w{3,4} \d{4}/);
  await expect(summary).toContainText(/EMIs Left22\d/);
  // The EMI rose with the rate: the one now is above the first.
  const amounts = async (label: RegExp) =>
    Number(
      ((await summary.getByText(label).locator('xpath=..').textContent()) ?? '')
        .replace(/^[^₹]*₹/, '')
        .replace(/,/g, '')
        .replace(/[^\d.].*$/, ''),
    );
  expect(await amounts(/^EMI now/)).toBeGreaterThan(await amounts(/^Monthly EMI/));
  // Nothing is wider than the phone: no sideways scroll, and the rate line is inside the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const box = await rate.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  await captureScreen(page, 'loan-details-after-reset', async () => {
    await expect(rate).toBeVisible();
  });

  // The schedule's versions say why in words, and compare the EMI after the reset.
  await page.setViewportSize(viewports.desktop);
  await page.goto(`/loans/${loanId}/amortization`);
  const versions = page.getByRole('table', { name: 'Schedule versions' });
  await expect(versions.locator('tbody tr').nth(1)).toContainText(
    `Rate reset to 9.25% from ${since}, EMI increased`,
  );
  const emiRow = page
    .getByRole('table', { name: 'Version 1 against version 2' })
    .getByRole('row', { name: /^EMI/ });
  await expect(emiRow).toHaveText(
    /^EMI \(principal \+ interest\)\s*₹43,391\.16\s*₹[\d,]+\.\d\d\s*\+₹[\d,]+\.\d\d$/,
  );
  // The table has 240 rows: a picture of the versions only (axe checks this page in history.e2e).
  await versions.scrollIntoViewIfNeeded();
  await page
    .locator('.kosh-schedule-versions')
    .screenshot({ path: screenshotPath('schedule-versions-after-reset-desktop') });

  // The list says it too.
  const loans = new LoansPage(page);
  await page.goto('/loans');
  await expect(loans.row('HL20240505')).toContainText('8.5% → 9.25% per year');
  await captureScreen(page, 'loans-after-reset', async () => {
    await expect(loans.row('HL20240505')).toBeVisible();
  });

  // And the dashboard, with the EMI now and the EMIs left.
  await page.goto('/dashboard');
  const today = page.getByRole('region', { name: 'Your loans today' });
  await expect(today).toContainText(/HL20240505 · Kosh Present Bank - Koramangala, Bengaluru/);
  await expect(today).toContainText(
    /EMI ₹[\d,]+\.\d\d · 8\.5% → 9\.25% per year since .+ · 22\d EMIs left · ends /,
  );
  await captureScreen(page, 'dashboard-loans-today', async () => {
    await expect(today).toBeVisible();
  });
});

test('the ledger shows a part-payment as a part-payment, not an EMI, and the EMI card counts the EMI only', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Kabir');
  const api = await MoneyApi.signIn(request, user);
  const bankId = await api.createBank('Kosh Ledger Bank', 'Pune');
  const loanTypeId = await api.createLoanType('Ledger Car Loan');
  // The first EMI falls on the 15th of this month.
  const loanId = await api.createLoan({
    bankId,
    loanTypeId,
    accountNumber: 'CAR2026001',
    principal: 600000,
    rate: 9,
    months: 36,
    startDate: fifteenth(-1),
  });
  await signInThroughUi(page, user);
  const details = new LoanDetailsPage(page);
  await details.goto(loanId);
  await details.change('Part-payment').click();
  const dialog = details.dialog('Part-payment');
  // Dated the 15th, with this month's EMI: both are this month's debits.
  await dialog.getByLabel('Date').fill(fifteenth(0));
  await dialog.getByLabel('Amount (₹)').fill('100000');
  await dialog.getByRole('button', { name: 'Compare Choices' }).click();
  await dialog.getByRole('button', { name: 'Record Part-payment' }).click();
  await expect(new AppShell(page).toast('Prepayment recorded successfully')).toBeVisible();

  const ledger = new LedgerPage(page);
  await ledger.goto();
  const payment = ledger.debitTable.getByRole('row', {
    name: /Part-payment — Kosh Ledger Bank Ledger Car Loan · CAR2026001/,
  });
  await expect(payment).toBeVisible();
  await expect(payment.getByText('Part-payment', { exact: true })).toBeVisible();
  await expect(payment.getByText('EMI Payment')).toHaveCount(0);
  await expect(
    ledger.debitTable.getByRole('row', { name: /EMI 1\/\d+ · Kosh Ledger Bank/ }).getByText('EMI Payment'),
  ).toBeVisible();
  await expect(ledger.card('EMI Payments')).toHaveText(/^EMI Payments\s*1\s*This month/);

  // The History page offers the part-payment as a type, and speaks of it in the screens' words.
  const history = new HistoryPage(page);
  await history.goto();
  await history.type.selectOption({ label: 'Part-payment' });
  await history.apply.click();
  await expect(history.entries).toHaveCount(1);
  const entry = history.entry(
    'Part-payment of ₹1,00,000.00 on loan CAR2026001 · Kosh Ledger Bank - Pune, tenure reduced',
  );
  await expect(entry).toBeVisible();
  await expect(history.change(entry, 'After the part-payment')).toHaveText(/—\s*Reduce tenure$/);
  await expect(history.change(entry, 'Amount')).toHaveText(/—\s*₹1,00,000\.00$/);
  await captureScreen(page, 'history-part-payment', async () => {
    await expect(entry).toBeVisible();
  });
});
