import { expect, type Locator, type Page } from '@playwright/test';

export type LoanEntry = {
  bank?: string;
  loanType?: string;
  accountNumber?: string;
  description?: string;
  principal?: string;
  rate?: string;
  ratePer?: 'Per year' | 'Per month';
  duration?: string;
  durationIn?: 'Years' | 'Months';
  startDate?: string;
  processingFee?: string;
  gst?: string;
};

/** /loans/create and /loans/{id}/edit: the four sections and the live preview. */
export class LoanFormPage {
  readonly bank: Locator;
  readonly loanType: Locator;
  readonly accountNumber: Locator;
  readonly description: Locator;
  readonly principal: Locator;
  readonly processingFee: Locator;
  readonly rate: Locator;
  readonly duration: Locator;
  readonly startDate: Locator;
  readonly endDate: Locator;
  readonly gstSwitch: Locator;
  readonly gstPercentage: Locator;
  readonly preview: Locator;
  readonly previewEmi: Locator;
  readonly previewInterest: Locator;
  readonly previewGst: Locator;
  readonly previewTotal: Locator;
  readonly createLoan: Locator;
  readonly updateLoan: Locator;
  readonly cancel: Locator;

  constructor(readonly page: Page) {
    this.bank = page.getByLabel('Bank', { exact: true });
    this.loanType = page.getByLabel('Loan Type', { exact: true });
    this.accountNumber = page.getByLabel('Account Number');
    this.description = page.getByLabel('Short Description (optional)');
    this.principal = page.getByLabel('Principal Amount (₹)');
    this.processingFee = page.getByLabel('Processing Fee (₹)');
    this.rate = page.getByLabel('Interest Rate (%)');
    this.duration = page.getByLabel(/^Duration \(/);
    this.startDate = page.getByLabel('Start Date');
    this.endDate = page.getByLabel('End Date (computed)');
    this.gstSwitch = page.getByLabel('GST applies to the interest');
    this.gstPercentage = page.getByLabel('GST Percentage (%)');
    this.preview = page.getByRole('region', { name: 'Loan preview' });
    this.previewEmi = page.getByTestId('preview-emi');
    this.previewInterest = page.getByTestId('preview-interest');
    this.previewGst = page.getByTestId('preview-gst');
    this.previewTotal = page.getByTestId('preview-total');
    this.createLoan = page.getByRole('button', { name: 'Create Loan' });
    this.updateLoan = page.getByRole('button', { name: 'Update Loan' });
    this.cancel = page.getByRole('button', { name: 'Cancel' });
  }

  async gotoCreate(): Promise<void> {
    await this.page.goto('/loans/create');
    await expect(this.page.getByRole('heading', { name: 'Create New Loan' })).toBeVisible();
  }

  async gotoEdit(id: string): Promise<void> {
    await this.page.goto(`/loans/${id}/edit`);
    await expect(this.page.getByRole('heading', { name: 'Edit Loan' })).toBeVisible();
    await expect(this.accountNumber).not.toHaveValue('');
  }

  async fill(entry: LoanEntry): Promise<void> {
    if (entry.bank !== undefined) await this.bank.selectOption({ label: entry.bank });
    if (entry.loanType !== undefined) await this.loanType.selectOption({ label: entry.loanType });
    if (entry.accountNumber !== undefined) await this.accountNumber.fill(entry.accountNumber);
    if (entry.description !== undefined) await this.description.fill(entry.description);
    if (entry.principal !== undefined) await this.principal.fill(entry.principal);
    if (entry.processingFee !== undefined) await this.processingFee.fill(entry.processingFee);
    if (entry.rate !== undefined) await this.rate.fill(entry.rate);
    if (entry.ratePer !== undefined)
      await this.page.getByLabel(entry.ratePer, { exact: true }).check({ force: true });
    if (entry.durationIn !== undefined)
      await this.page.getByLabel(entry.durationIn, { exact: true }).check({ force: true });
    if (entry.duration !== undefined) await this.duration.fill(entry.duration);
    if (entry.startDate !== undefined) await this.startDate.fill(entry.startDate);
    if (entry.gst !== undefined) {
      await this.gstSwitch.check({ force: true });
      await this.gstPercentage.fill(entry.gst);
    }
  }

  /** The error shown under a field. */
  errorOf(field: Locator): Locator {
    return this.page.locator('.bp6-form-group').filter({ has: field }).locator('.bp6-form-helper-text');
  }
}
