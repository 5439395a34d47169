import { fieldTable, type RecordOf } from '../shared/field-table';

/**
 * What a user records about a loan, declared once (see `fieldTable`), in the order the loan
 * form shows the fields. Amounts in paise; rates and GST in percent.
 */
export const LOAN_FIELDS = fieldTable({
  bankId: { wire: 'bank_id', kind: 'id', label: 'Bank' },
  loanTypeId: { wire: 'loan_type_id', kind: 'id', label: 'Loan Type' },
  accountNumber: { wire: 'account_number', kind: 'text', label: 'Account Number' },
  shortDetail: { wire: 'short_detail', kind: 'text', label: 'Short Description', nullable: true },
  principalAmount: { wire: 'principal_amount', kind: 'money', label: 'Principal Amount' },
  processingFee: { wire: 'processing_fee', kind: 'money', label: 'Processing Fee' },
  /** Percent per year when `isInterestRateYearly`, else percent per month. */
  interestRate: { wire: 'interest_rate', kind: 'number', label: 'Interest Rate' },
  isInterestRateYearly: {
    wire: 'is_interest_rate_yearly',
    kind: 'flag',
    label: 'Interest rate is',
    words: ['Yearly', 'Monthly'],
  },
  /** Years when `isDurationYearly`, else months. */
  duration: { wire: 'duration', kind: 'int', label: 'Duration' },
  isDurationYearly: {
    wire: 'is_duration_yearly',
    kind: 'flag',
    label: 'Duration in',
    words: ['Years', 'Months'],
  },
  /** YYYY-MM-DD. */
  startDate: { wire: 'start_date', kind: 'date', label: 'Start Date' },
  /** YYYY-MM-DD: start date plus the duration (same day of month, clamped to the month's end). */
  endDate: { wire: 'end_date', kind: 'date', label: 'End Date' },
  hasGst: { wire: 'has_gst', kind: 'flag', label: 'GST applies to the interest' },
  /** Percent charged on each instalment's interest; 0 when `hasGst` is off. */
  gstPercentage: { wire: 'gst_percentage', kind: 'number', label: 'GST Percentage' },
  /**
   * EMIs are debited from the borrower's account on their due dates: each past EMI counts as paid
   * then unless marked otherwise. Off: a past EMI not marked paid is overdue. A stored loan
   * without it reads as on.
   */
  emisAutoDebited: {
    wire: 'emis_auto_debited',
    kind: 'flag',
    label: 'EMIs are auto-debited from my bank account',
    absent: true,
  },
  /** The lender charges 18% GST on top of the processing fee (the APR counts it). Stored loans: on. */
  processingFeeGst: {
    wire: 'processing_fee_has_gst',
    kind: 'flag',
    label: 'GST (18%) is charged on top of the processing fee',
    absent: true,
  },
});

/** What a user records about a loan (`LOAN_FIELDS`). */
export type LoanDetails = RecordOf<typeof LOAN_FIELDS>;
