import { expect, type Page, test } from '@playwright/test';
import { AmortizationPage } from './page-models/amortization-page';
import { AppShell } from './page-models/app-shell';
import { CertificatePage } from './page-models/certificate-page';
import { LoanDetailsPage } from './page-models/loan-details-page';
import { TransactionsPage } from './page-models/transactions-page';
import { fifteenth, isoDate, type LoanSeed, MoneyApi, signInThroughUi } from './support/money';
import { captureScreen } from './support/screens';
import { createVerifiedUser } from './support/users';

/**
 * Issue 27 in the browser: EMIs paid as people pay them (paid up to a date, matches and their
 * undo), the foreclosure quote before committing, and pre-EMI interest on the certificate.
 */
async function seedLoan(
  page: Page,
  request: Parameters<typeof createVerifiedUser>[0],
  loan: Omit<LoanSeed, 'bankId' | 'loanTypeId'>,
) {
  const user = await createVerifiedUser(request, 'Meera');
  const api = await MoneyApi.signIn(request, user);
  const bankId = await api.createBank('Kosh Payments Bank', 'Pune');
  const loanTypeId = await api.createLoanType('Payments Home Loan');
  const loanId = await api.createLoan({ bankId, loanTypeId, ...loan });
  await signInThroughUi(page, user);
  return { api, loanId };
}

type WireRow = { kind: string; payment_number: number; emi: number; emi_date: string };

test('marks every EMI up to a date paid in one step, then undoes it at once', async ({ page, request }) => {
  const { loanId } = await seedLoan(page, request, {
    accountNumber: 'UPTO000001',
    principal: 240000,
    rate: 10,
    months: 24,
    startDate: fifteenth(-7),
    emisAutoDebited: false,
  });
  const shell = new AppShell(page);
  const schedule = new AmortizationPage(page);
  await schedule.goto(loanId);
  await expect(schedule.payment(1)).toContainText('Overdue');

  await schedule.markPaidUpTo.click();
  const dialog = page.getByRole('dialog', { name: 'Mark EMIs Paid Up To a Date' });
  // Up to last month's 15th: EMIs 1 to 6.
  await dialog.getByLabel('Paid up to').fill(fifteenth(-1));
  await expect(dialog.getByRole('status')).toContainText('This marks 6 EMIs paid, each on its due date');
  await captureScreen(page, 'loan-paid-up-to');
  await dialog.getByRole('button', { name: 'Mark Paid' }).click();
  await expect(shell.toast('6 EMIs marked paid')).toBeVisible();
  for (const n of [1, 3, 6]) await expect(schedule.payment(n)).toContainText('Paid');
  await expect(schedule.summary('EMIs Paid')).toContainText('6 of 24');

  await schedule.undo(3).click();
  const alert = page.getByRole('alertdialog');
  await expect(alert).toContainText('Undo marking EMIs 1 to 6 paid? All 6 EMIs of that step lose the mark.');
  await alert.getByRole('button', { name: 'Undo' }).click();
  await expect(shell.toast('Mark undone')).toBeVisible();
  await expect(schedule.payment(1)).toContainText('Overdue');
  await expect(schedule.summary('EMIs Paid')).toContainText('0 of 24');
});

test('a debit matched to an EMI, then the match undone: the EMI counts as auto-debited again', async ({
  page,
  request,
}) => {
  const { api, loanId } = await seedLoan(page, request, {
    accountNumber: 'MATCH00001',
    principal: 120000,
    rate: 12,
    months: 24,
    startDate: fifteenth(-4),
  });
  const rows = (await api.get<{ schedule: WireRow[] }>(`/loans/${loanId}/amortization`)).schedule;
  const second = rows.find((r) => r.kind === 'emi' && r.payment_number === 2) as WireRow;
  await api.createTransaction('Loan EMI auto-debit', 'D', second.emi_date, second.emi);
  const shell = new AppShell(page);
  const schedule = new AmortizationPage(page);
  await schedule.goto(loanId);
  await expect(schedule.payment(2)).toContainText(`Auto-debited`);

  await schedule.table.getByRole('button', { name: 'Mark EMI 2 missed' }).click();
  await expect(shell.toast('EMI 2 marked missed')).toBeVisible();
  await expect(schedule.payment(2)).toContainText('Missed');
  await schedule.markPaid(2).click();
  const dialog = page.getByRole('dialog', { name: 'Mark EMI 2 Paid' });
  await dialog.getByLabel('Matched debit (optional)').selectOption({ index: 1 });
  await dialog.getByRole('button', { name: 'Mark Paid' }).click();
  await expect(shell.toast('Debit matched to the EMI')).toBeVisible();
  await expect(schedule.payment(2)).toContainText('matched');

  // The debit's delete dialog says what deleting it would do to the EMI.
  const book = new TransactionsPage(page);
  await book.goto();
  await book.openDelete('Loan EMI auto-debit');
  await expect(book.dialog.getByRole('alert')).toHaveText(
    'This debit is matched to EMI 2 of Kosh Payments Bank Payments Home Loan MATCH00001; deleting it releases the match.',
  );
  await book.dialog.getByRole('button', { name: 'Cancel' }).click();
  await schedule.goto(loanId);

  // Two marks on EMI 2, its payments first, then the missed mark: undo the match.
  await expect(schedule.table.getByRole('button', { name: 'Undo a mark on EMI 2' })).toHaveCount(2);
  await schedule.undo(2).click();
  const alert = page.getByRole('alertdialog');
  await expect(alert).toContainText('A matched debit is released and shows again in the ledger.');
  await alert.getByRole('button', { name: 'Undo' }).click();
  await expect(shell.toast('Match released')).toBeVisible();
  await expect(schedule.payment(2)).toContainText('Missed');
  await schedule.undo(2).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Undo' }).click();
  await expect(schedule.payment(2)).toContainText('Auto-debited');
});

test('the foreclosure quote is shown before foreclosing', async ({ page, request }) => {
  const { loanId } = await seedLoan(page, request, {
    accountNumber: 'QUOTE00001',
    principal: 300000,
    rate: 9,
    months: 24,
    startDate: fifteenth(-6),
  });
  const details = new LoanDetailsPage(page);
  const shell = new AppShell(page);
  await details.goto(loanId);
  await details.change('Foreclose').click();
  const dialog = details.dialog('Foreclose Loan');
  const yesterday = isoDate(new Date(Date.now() - 24 * 60 * 60 * 1000));
  await dialog.getByLabel('Foreclosure date').fill(yesterday);
  await dialog.getByLabel('Foreclosure charge (₹, optional)').fill('1500');
  const quote = dialog.getByRole('table', { name: 'Foreclosure quote' });
  await expect(quote).toContainText('Outstanding principal');
  await expect(quote).toContainText(/Interest since .* \(\d+ days? at 9%, actual\/365\)/);
  await expect(quote.getByRole('row', { name: /^Foreclosure charge/ })).toContainText('₹1,500.00');
  await expect(quote.getByRole('row', { name: /^To pay/ })).toContainText('₹');
  await captureScreen(page, 'loan-foreclosure-quote');
  await dialog.getByRole('button', { name: 'Foreclose Loan' }).click();
  await expect(shell.toast('Loan foreclosed successfully')).toBeVisible();
});

test('the certificate with pre-EMI interest: a fifth deductible from the year construction completed', async ({
  page,
  request,
}) => {
  const { loanId } = await seedLoan(page, request, {
    accountNumber: 'PREEMI0001',
    principal: 2500000,
    rate: 8.5,
    months: 240,
    startDate: fifteenth(-26),
  });
  const shell = new AppShell(page);
  const certificate = new CertificatePage(page);
  await certificate.goto(loanId);
  const fy = await certificate.financialYear.inputValue();

  await page.getByRole('button', { name: 'Record Pre-EMI Interest' }).click();
  const pre = page.getByRole('dialog', { name: 'Record Pre-EMI Interest' });
  await pre.getByLabel('Paid on').fill(fifteenth(-25));
  await pre.getByLabel('Pre-EMI interest paid (₹)').fill('50000');
  await pre.getByRole('button', { name: 'Record' }).click();
  await expect(shell.toast('Pre-EMI interest recorded')).toBeVisible();

  await page.getByRole('button', { name: 'Construction Completed' }).click();
  const done = page.getByRole('dialog', { name: 'Construction Completed' });
  // Completed at the start of the year the certificate shows: this year is the first of five.
  const fyStart = `${fy.slice(0, 4)}-04-01`;
  await done.getByLabel('Construction completed on').fill(fyStart);
  await done.getByRole('button', { name: 'Save Date' }).click();
  await expect(shell.toast('Construction completion recorded')).toBeVisible();

  await expect(certificate.figure(/Pre-EMI interest deductible this year \(part 1 of 5\)/)).toHaveText(
    '₹10,000.00',
  );
  await expect(page.getByText(/₹50,000.00 of pre-EMI interest is recorded/)).toBeVisible();
  await captureScreen(page, 'loan-certificate-pre-emi');
});
