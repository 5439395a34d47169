import { expect, type Locator, test } from '@playwright/test';
import { LoanFormPage } from './page-models/loan-form-page';
import { TransactionsPage } from './page-models/transactions-page';
import { fifteenth, isoDate, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

test('the loan form shows each create rule, and the edit form its own', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Ritu');
  const api = await MoneyApi.signIn(request, user);
  const bank = await api.createBank('Rules Test Bank', 'Kochi');
  const type = await api.createLoanType('Rules Car Loan');
  await signInThroughUi(page, user);
  const form = new LoanFormPage(page);
  await form.gotoCreate();

  // Spec section 9 defaults.
  await expect(page.getByLabel('Per year', { exact: true })).toBeChecked();
  await expect(page.getByLabel('Years', { exact: true })).toBeChecked();
  await expect(form.processingFee).toHaveValue('0');
  await expect(form.gstSwitch).not.toBeChecked();
  await expect(form.gstPercentage).toHaveCount(0);

  const error = (field: Locator) => form.errorOf(field);
  const expectErrors = async (pairs: [Locator, string][]) => {
    await form.createLoan.click();
    for (const [field, message] of pairs) await expect(error(field)).toHaveText(message);
  };

  await expectErrors([
    [form.bank, 'Bank selection is required'],
    [form.loanType, 'Loan type selection is required'],
    [form.accountNumber, 'Account number is required'],
    [form.principal, 'Principal amount is required'],
    [form.rate, 'Interest rate is required'],
    [form.duration, 'Duration is required'],
    [form.startDate, 'Start date is required'],
  ]);
  await expect(page).toHaveURL(/\/loans\/create$/);

  await form.fill({
    accountNumber: 'AB12',
    principal: '99',
    rate: '0.05',
    duration: '51',
    startDate: '1999-12-31',
  });
  await form.description.fill('x'.repeat(201));
  await form.processingFee.fill('1000001');
  await expectErrors([
    [form.accountNumber, 'Account number must be at least 5 characters'],
    [form.description, 'Description cannot exceed 200 characters'],
    [form.principal, 'Principal amount must be at least ₹100'],
    [form.rate, 'Interest rate must be at least 0.1%'],
    [form.duration, 'Duration cannot exceed 600 months (50 years)'],
    [form.startDate, 'Start date cannot be before 2000-01-01'],
    [form.processingFee, 'Processing fee cannot exceed ₹10,00,000'],
  ]);

  const tomorrow = new Date();
  tomorrow.setDate(tomorrow.getDate() + 1);
  await form.fill({
    accountNumber: 'A'.repeat(31),
    principal: '100000001',
    rate: '51',
    startDate: isoDate(tomorrow),
  });
  await expectErrors([
    [form.accountNumber, 'Account number cannot exceed 30 characters'],
    [form.principal, 'Principal amount cannot exceed ₹10,00,00,000'],
    [form.rate, 'Interest rate cannot exceed 50%'],
    [form.startDate, 'Start date cannot be in the future'],
  ]);

  await form.fill({
    accountNumber: 'AB-12345',
    principal: '1000.555',
    rate: '8.1234',
    durationIn: 'Months',
    duration: '0',
  });
  await expectErrors([
    [form.accountNumber, 'Account number can only contain letters and numbers'],
    [form.principal, 'Principal amount can have maximum 2 decimal places'],
    [form.rate, 'Interest rate can have maximum 3 decimal places'],
    [form.duration, 'Duration must be at least 1 month'],
  ]);
  await form.fill({ duration: '601' });
  await expectErrors([[form.duration, 'Duration cannot exceed 600 months (50 years)']]);

  // GST: 18 when switched on; required, at most 100, two decimals.
  await form.gstSwitch.check({ force: true });
  await expect(form.gstPercentage).toHaveValue('18');
  await form.gstPercentage.fill('');
  await expectErrors([[form.gstPercentage, 'GST percentage is required when GST is enabled']]);
  await form.gstPercentage.fill('101');
  await expectErrors([[form.gstPercentage, 'GST percentage cannot exceed 100']]);
  await form.gstPercentage.fill('18.555');
  await expectErrors([[form.gstPercentage, 'GST percentage can have maximum 2 decimal places']]);

  // Cancel returns to the list.
  await form.cancel.click();
  await expect(page).toHaveURL(/\/loans$/);

  // Edit: decimals of the rate and a future start are allowed; the duration must be whole.
  const id = await api.createLoan({
    bankId: bank,
    loanTypeId: type,
    accountNumber: 'RULES1234',
    principal: 300000,
    rate: 9,
    months: 24,
    startDate: fifteenth(-1),
  });
  await form.gotoEdit(id);
  await expect(form.bank).toHaveValue(String(bank));
  await expect(form.principal).toHaveValue('300000');
  await expect(page.getByLabel('Months', { exact: true })).toBeChecked();
  await form.fill({ rate: '8.1234', duration: '2.5', durationIn: 'Years', startDate: isoDate(tomorrow) });
  await form.updateLoan.click();
  await expect(error(form.duration)).toHaveText('Duration must be a whole number');
  await expect(error(form.rate)).toHaveCount(0);
  await expect(error(form.startDate)).toHaveCount(0);
  await form.fill({ duration: '2' });
  await form.updateLoan.click();
  await expect(page).toHaveURL(new RegExp(`/loans/${id}$`));
  await expect(page.getByText('8.1234% per year')).toBeVisible();
});

test('the loan form warns when there is no bank or loan type to choose', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Vikram');
  await signInThroughUi(page, user);
  // The catalog is seeded for everyone, so an empty list is answered here rather than arranged.
  await page.route('**/api/banks?*', (route) =>
    route.fulfill({
      json: {
        success: true,
        data: [],
        meta: { pagination: { page: 1, limit: 100, total_items: 0, total_pages: 0 } },
      },
    }),
  );
  await page.route('**/api/loans/types', (route) =>
    route.fulfill({ json: { success: true, data: { loanTypes: [] } } }),
  );
  const form = new LoanFormPage(page);
  await form.gotoCreate();
  await expect(page.getByText('No banks are available. Bank selection is still required')).toBeVisible();
  await expect(
    page.getByText('No loan types are available. Loan type selection is still required'),
  ).toBeVisible();
});

test('the transaction form shows each rule per field and defaults to today', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Sana');
  await signInThroughUi(page, user);
  const book = new TransactionsPage(page);
  await book.goto();
  await expect(book.table).toContainText('No transactions found');
  await expect(page.getByRole('button', { name: 'Clear all filters' })).toHaveCount(0);

  await book.openAdd();
  await expect(book.dialog.getByLabel('Transaction Date')).toHaveValue(isoDate(new Date()));
  await book.dialog.getByLabel('Transaction Date').fill('');
  const create = book.dialog.getByRole('button', { name: 'Create Transaction' });
  await create.click();
  await expect(book.dialogError('Notes')).toHaveText('Notes are required');
  await expect(book.dialogError('Transaction Type')).toHaveText('Transaction type is required');
  await expect(book.dialogError('Transaction Date')).toHaveText('Transaction date is required');

  await book.fillDialog({ notes: '   ', amount: '0' });
  await create.click();
  await expect(book.dialogError('Notes')).toHaveText('Notes are required');
  await expect(book.dialogError('Amount (₹)')).toHaveText('Amount must be greater than 0');

  await book.fillDialog({
    notes: 'n'.repeat(256),
    type: 'Debit (Expense)',
    date: '2025-06-01',
    amount: '-5',
  });
  await create.click();
  await expect(book.dialogError('Notes')).toHaveText('Notes must not exceed 255 characters');
  await expect(book.dialogError('Amount (₹)')).toHaveText('Amount must be greater than 0');
  await expect(book.dialogError('Transaction Type')).toHaveCount(0);

  await book.dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(book.dialog).toHaveCount(0);
  await expect(book.stat('Total Transactions')).toContainText('0');
});
