import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { AmortizationPage } from './page-models/amortization-page';
import { AppShell } from './page-models/app-shell';
import { CertificatePage } from './page-models/certificate-page';
import { LoanDetailsPage } from './page-models/loan-details-page';
import { LoansPage } from './page-models/loans-page';
import { fifteenth, isoDate, type LoanSeed, MoneyApi, signInThroughUi } from './support/money';
import { captureScreen, screenshotPath } from './support/screens';
import { createVerifiedUser } from './support/users';

/**
 * Issue 15 in the browser: a loan's life after it starts. Part-payment with the what-if of both
 * choices before committing, an RBI rate reset (and the server's refusal of negative
 * amortisation), paid EMIs and Overdue, and the financial-year interest certificate.
 */
async function seedLoan(
  page: Page,
  request: Parameters<typeof createVerifiedUser>[0],
  loan: Omit<LoanSeed, 'bankId' | 'loanTypeId'>,
) {
  const user = await createVerifiedUser(request, 'Rohan');
  const api = await MoneyApi.signIn(request, user);
  const bankId = await api.createBank('Kosh Reset Bank', 'Indore');
  const loanTypeId = await api.createLoanType('Reset Home Loan');
  const loanId = await api.createLoan({ bankId, loanTypeId, ...loan });
  await signInThroughUi(page, user);
  return { api, loanId };
}

const rupees = (text: string | null) => Number((text ?? '').replace(/[₹,]/g, ''));

test('a part-payment: both choices side by side, then the chosen one recorded', async ({ page, request }) => {
  const { loanId } = await seedLoan(page, request, {
    accountNumber: 'PREPAY0001',
    principal: 300000,
    rate: 9,
    months: 24,
    startDate: fifteenth(-6),
  });
  const details = new LoanDetailsPage(page);
  const shell = new AppShell(page);
  await details.goto(loanId);
  await expect(page.getByTestId('loan-balance-chart')).toBeVisible();

  await details.change('Part-payment').click();
  const dialog = details.dialog('Part-payment');
  await dialog.getByLabel('Amount (₹)').fill('50000');
  await dialog.getByRole('button', { name: 'Compare Choices' }).click();
  const comparison = dialog.getByRole('table', { name: 'What-if comparison' });
  await expect(comparison).toBeVisible();
  // Focus goes to the answer (the busy button had dropped it), so Escape and Tab keep working.
  await expect(comparison).toBeFocused();
  const cells = (figure: string) =>
    comparison.getByRole('row', { name: new RegExp(`^${figure}`) }).getByRole('cell');
  // Columns: without, reduce EMI, reduce tenure.
  const emis = await cells('EMI \\(before GST\\)').allTextContents();
  const counts = await cells('Number of EMIs').allTextContents();
  expect(rupees(emis[1] ?? '')).toBeLessThan(rupees(emis[0] ?? ''));
  expect(emis[2]).toBe(emis[0]);
  expect(counts[1]).toBe(counts[0]);
  expect(Number(counts[2])).toBeLessThan(Number(counts[0]));
  const saved = await cells('Interest saved').allTextContents();
  expect(rupees(saved[2] ?? '')).toBeGreaterThan(rupees(saved[1] ?? ''));
  await expect(cells('Months saved').nth(2)).toHaveText(`${Number(counts[0]) - Number(counts[2])} months`);

  await dialog.getByRole('radio', { name: 'Reduce EMI (same tenure)' }).check({ force: true });
  await expect(comparison.getByRole('columnheader', { name: /your choice/ })).toContainText('Reduce EMI');
  await captureScreen(page, 'loan-whatif');
  await dialog.getByRole('button', { name: 'Record Part-payment' }).click();
  await expect(shell.toast('Prepayment recorded successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  // Focus returns to the button that opened the dialog.
  await expect(details.change('Part-payment')).toBeFocused();
  // The summary keeps the first EMI and names the lower one now in force (the server's present).
  await expect(details.card('Loan Summary')).toContainText(`EMI now (principal + interest)${emis[1]}`);

  const schedule = new AmortizationPage(page);
  await schedule.goto(loanId);
  await expect(schedule.table.getByText('Part-payment')).toBeVisible();
  // The part-payment is a payment, not an EMI: still 24 EMIs, and the EMIs after it are the new EMI.
  await expect(schedule.summary('Number of Payments')).toContainText('24');
  await expect(schedule.summary('Part-payments and Foreclosure')).toContainText('₹50,');
  await expect(schedule.rows).toHaveCount(25);
  await expect(schedule.rows.nth(23).locator('td').nth(5)).toHaveText(emis[1] as string);
});

test('a compared part-payment left unrecorded stays on the balance chart as the what-if, until cleared', async ({
  page,
  request,
}) => {
  const { loanId } = await seedLoan(page, request, {
    accountNumber: 'WHATIF0001',
    principal: 300000,
    rate: 9,
    months: 24,
    startDate: fifteenth(-6),
  });
  const details = new LoanDetailsPage(page);
  await details.goto(loanId);
  const chart = page.getByRole('region', { name: /^Outstanding principal/ });
  await expect(chart).toHaveAccessibleName('Outstanding principal, contract and actual');

  await details.change('Part-payment').click();
  const dialog = details.dialog('Part-payment');
  await dialog.getByLabel('Amount (₹)').fill('100000');
  await dialog.getByRole('button', { name: 'Compare Choices' }).click();
  await expect(dialog.getByRole('table', { name: 'What-if comparison' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await expect(chart).toHaveAccessibleName('Outstanding principal, contract, actual and what-if');
  await expect(chart.getByText('What-if: reduce EMI')).toBeVisible();
  await expect(chart.getByText('What-if: reduce tenure')).toBeVisible();
  await captureScreen(page, 'loan-whatif-chart', async () => {
    await expect(chart.locator('.recharts-line')).toHaveCount(4);
  });
  await chart.getByRole('button', { name: 'Clear what-if' }).click();
  await expect(chart).toHaveAccessibleName('Outstanding principal, contract and actual');
  await expect(chart.locator('.recharts-line')).toHaveCount(2);
});

test('a rate reset: the RBI options, the refusal of negative amortisation, then a higher EMI', async ({
  page,
  request,
}) => {
  const { loanId } = await seedLoan(page, request, {
    accountNumber: 'RESET00001',
    principal: 300000,
    rate: 9,
    months: 240,
    startDate: fifteenth(-3),
  });
  const details = new LoanDetailsPage(page);
  const shell = new AppShell(page);
  await details.goto(loanId);
  await details.change('Rate Change').click();
  const dialog = details.dialog('Rate Change');
  for (const option of [
    'Increase the EMI (same tenure)',
    'Extend the tenure (same EMI)',
    'A combination: a new EMI I choose, the tenure follows',
    'Switch to a fixed rate (same tenure)',
  ])
    await expect(dialog.getByRole('radio', { name: option })).toBeVisible();

  // At 50% the EMI of about ₹2,700 does not cover the month's interest of about ₹12,400.
  await dialog.getByLabel('New annual rate (%)').fill('50');
  await dialog.getByRole('radio', { name: 'Extend the tenure (same EMI)' }).check({ force: true });
  await dialog.getByRole('button', { name: 'Change Rate' }).click();
  await expect(dialog.getByText(/does not cover the new monthly interest of ₹/)).toBeVisible();
  await expect(dialog.getByRole('radio', { name: 'Extend the tenure (same EMI)' })).toBeChecked();
  await captureScreen(page, 'loan-rate-reset');

  await dialog
    .getByRole('radio', { name: 'A combination: a new EMI I choose, the tenure follows' })
    .check({ force: true });
  await dialog.getByLabel('New EMI (₹, before GST)').fill('100');
  await dialog.getByRole('button', { name: 'Change Rate' }).click();
  await expect(dialog.getByText('The EMI of ₹100.00 does not cover the monthly interest of')).toBeVisible();
  // The server's refusal names the EMI field: focus goes there, ready for a new figure.
  await expect(dialog.getByLabel('New EMI (₹, before GST)')).toBeFocused();

  await dialog.getByLabel('New annual rate (%)').fill('10');
  await dialog.getByRole('radio', { name: 'Increase the EMI (same tenure)' }).check({ force: true });
  await dialog.getByRole('button', { name: 'Change Rate' }).click();
  await expect(shell.toast('Interest rate changed successfully')).toBeVisible();
  await expect(dialog).toBeHidden();

  const schedule = new AmortizationPage(page);
  await schedule.goto(loanId);
  await expect(schedule.summary('Number of Payments')).toContainText('240');
  const before = rupees(await schedule.cell(1, 5).textContent());
  const after = rupees(await schedule.cell(10, 5).textContent());
  expect(after).toBeGreaterThan(before);
});

test("the lender's EMI override, then a foreclosure that closes the loan", async ({ page, request }) => {
  const { loanId } = await seedLoan(page, request, {
    accountNumber: 'OVERRIDE01',
    principal: 300000,
    rate: 9,
    months: 24,
    startDate: fifteenth(-6),
  });
  const details = new LoanDetailsPage(page);
  const shell = new AppShell(page);
  await details.goto(loanId);

  await details.change('EMI Override').click();
  const override = details.dialog('EMI Override');
  // Both in the past, so the foreclosed loan is Completed today (a loan completes once its last payment is past).
  const daysAgo = (n: number) => isoDate(new Date(Date.now() - n * 24 * 60 * 60 * 1000));
  await override.getByLabel('From').fill(daysAgo(3));
  await override.getByLabel('EMI the lender debits (₹, before GST)').fill('14000');
  await override.getByRole('button', { name: 'Save EMI' }).click();
  await expect(shell.toast('EMI updated successfully')).toBeVisible();
  await expect(override).toBeHidden();
  await expect(details.card('Loan Summary')).toContainText('EMI now (principal + interest)₹14,000.00');

  const schedule = new AmortizationPage(page);
  await schedule.goto(loanId);
  // The EMIs from then on are the lender's (the last takes what is left); the first stays.
  const count = await schedule.rows.count();
  const level = async (n: number) =>
    Math.round(
      (rupees(await schedule.cell(n, 2).textContent()) + rupees(await schedule.cell(n, 3).textContent())) *
        100,
    );
  expect(await level(count - 1)).toBe(1400000);
  expect(await level(1)).not.toBe(1400000);

  await details.goto(loanId);
  await details.change('Foreclose').click();
  const foreclose = details.dialog('Foreclose Loan');
  await foreclose.getByLabel('Foreclosure date').fill(daysAgo(1));
  await foreclose.getByLabel('Foreclosure charge (₹, optional)').fill('1000');
  await foreclose.getByRole('button', { name: 'Foreclose Loan' }).click();
  await expect(shell.toast('Loan foreclosed successfully')).toBeVisible();
  await expect(foreclose).toBeHidden();
  await expect(details.card('Basic Information')).toContainText('Completed');
  await expect(details.card('Loan Summary')).toContainText('Remaining Balance₹0.00');
  // A closed loan takes no more changes.
  await expect(details.change('Part-payment')).toBeDisabled();

  await schedule.goto(loanId);
  await expect(schedule.table.getByText('Foreclosure')).toBeVisible();
  await expect(schedule.summary('Part-payments and Foreclosure')).toBeVisible();
  await expect(schedule.rows.last().locator('td').nth(6)).toHaveText('₹0.00');
});

test('EMIs marked paid, one matched to a debit; an earlier unpaid EMI makes the loan Overdue', async ({
  page,
  request,
}) => {
  const { api, loanId } = await seedLoan(page, request, {
    accountNumber: 'PAIDEMI001',
    principal: 120000,
    rate: 12,
    months: 24,
    startDate: fifteenth(-4),
    emisAutoDebited: false,
  });
  await api.createTransaction('Home loan EMI debit', 'D', fifteenth(-3), 5700);
  const shell = new AppShell(page);
  const schedule = new AmortizationPage(page);
  await schedule.goto(loanId);
  // Not auto-debited: a past EMI not marked paid is overdue from the start.
  await expect(schedule.payment(1)).toContainText('Overdue');

  await schedule.markPaid(2).click();
  const dialog = page.getByRole('dialog', { name: 'Mark EMI 2 Paid' });
  await expect(dialog.getByLabel('Paid on')).toHaveValue(fifteenth(-2));
  await dialog.getByRole('button', { name: 'Mark Paid' }).click();
  await expect(shell.toast('EMI marked paid')).toBeVisible();
  await expect(schedule.rows.nth(1)).toHaveClass(/kosh-row-paid/);
  await expect(schedule.cell(2, 7)).toContainText('Paid');
  await expect(schedule.cell(1, 7)).toContainText('Overdue');
  await expect(schedule.summary('EMIs Paid')).toContainText('1 of 24');

  const details = new LoanDetailsPage(page);
  await details.goto(loanId);
  await expect(details.card('Basic Information')).toContainText('Overdue');
  const loans = new LoansPage(page);
  await loans.goto();
  await expect(page.getByRole('row', { name: /PAIDEMI001/ })).toContainText('Overdue');

  await schedule.goto(loanId);
  await schedule.markPaid(1).click();
  const first = page.getByRole('dialog', { name: 'Mark EMI 1 Paid' });
  const debit = first.getByLabel('Matched debit (optional)');
  await expect(debit.locator('option').nth(1)).toContainText('Home loan EMI debit · ₹5,700.00');
  await debit.selectOption({ index: 1 });
  await expect(first.getByLabel('Paid on')).toBeHidden();
  // ₹5,700.00 is not the EMI's ₹5,648.82: the match needs a yes.
  await expect(first.getByRole('alert')).toContainText('differs from EMI 1');
  await first.getByRole('checkbox', { name: 'Match this debit anyway' }).check({ force: true });
  await first.getByRole('button', { name: 'Mark Paid' }).click();
  await expect(shell.toast('Debit matched to the EMI')).toBeVisible();
  await expect(schedule.cell(1, 7)).toContainText('matched');
  await expect(schedule.cell(1, 7)).toContainText('₹5,700.00');
  // EMI 3 (last month) is still unpaid: still Overdue.
  await expect(schedule.cell(3, 7)).toContainText('Overdue');
});

test('the interest certificate of a financial year, with its note, printable page and PDF', async ({
  page,
  request,
}) => {
  const { api, loanId } = await seedLoan(page, request, {
    accountNumber: 'CERTIF0001',
    principal: 2500000,
    rate: 8.5,
    months: 240,
    startDate: fifteenth(-26),
  });
  const details = new LoanDetailsPage(page);
  await details.goto(loanId);
  await details.change('Interest Certificate').click();
  const certificate = new CertificatePage(page);
  await expect(certificate.heading).toBeVisible();
  const fy = await certificate.financialYear.inputValue();
  expect(fy).toMatch(/^\d{4}-\d{2}$/);
  const expected = await api.get<{
    certificate: { interest: number; principal: number; emis_due: number; emis_paid: number };
  }>(`/loans/${loanId}/certificate?fy=${fy}`);
  const money = (n: number) =>
    `₹${n.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  await expect(certificate.figure(/Interest \(Section 24\(b\), due basis\)/)).toHaveText(
    money(expected.certificate.interest),
  );
  await expect(certificate.figure(/Principal repaid \(Section 80C, paid basis\)/)).toHaveText(
    money(expected.certificate.principal),
  );
  await expect(certificate.figure('EMIs due in the year / paid in it')).toHaveText(
    `${expected.certificate.emis_due} / ${expected.certificate.emis_paid}`,
  );
  expect(expected.certificate.emis_due).toBe(12);
  await expect(page.getByText(/depend on your situation/)).toBeVisible();
  await captureScreen(page, 'loan-certificate');

  const [pdf] = await Promise.all([page.waitForEvent('download'), certificate.pdf.click()]);
  expect(pdf.suggestedFilename()).toBe(`interest-certificate-${fy}-CERTIF0001.pdf`);
  expect(
    readFileSync(await pdf.path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  // The printable page opens as a page (a new tab), styled: its title centred, amounts right-aligned.
  const [printable] = await Promise.all([page.context().waitForEvent('page'), certificate.printable.click()]);
  const title = printable.getByRole('heading', { name: `Interest Certificate for the Financial Year ${fy}` });
  await expect(title).toBeVisible();
  await expect(title).toHaveCSS('text-align', 'center');
  await expect(printable.locator('td.amount').first()).toHaveCSS('text-align', 'right');
  await expect(
    printable.getByRole('row', { name: /^Interest \(Section 24\(b\), due basis\)/ }),
  ).toContainText(money(expected.certificate.interest));
  await printable.screenshot({ path: screenshotPath('loan-certificate-printable-desktop') });
  await printable.close();

  // Another year from the picker: its own figures, in the address.
  const other = await certificate.financialYear.locator('option').nth(1).getAttribute('value');
  await certificate.financialYear.selectOption(other as string);
  await expect(page).toHaveURL(new RegExp(`certificate\\?fy=${other}$`));
  await expect(page.getByRole('heading', { name: new RegExp(`^FY ${other}`) })).toBeVisible();
});
