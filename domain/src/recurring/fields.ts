import { fieldTable, type RecordOf } from '../shared/field-table';

export const RECURRING_FREQUENCIES = ['monthly', 'quarterly', 'yearly'] as const;
export type RecurringFrequency = (typeof RECURRING_FREQUENCIES)[number];

export const RECURRING_FREQUENCY_LABELS: Readonly<Record<RecurringFrequency, string>> = {
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  yearly: 'Yearly',
};

/**
 * A recurring entry's fields (issue 31), declared once (see `fieldTable`), in the order its form
 * shows them. Money in paise. Each occurrence is posted as a transaction with these values.
 */
export const RECURRING_FIELDS = fieldTable({
  transactionType: { wire: 'transaction_type', kind: 'code', values: ['C', 'D'], label: 'Type' },
  amount: { wire: 'amount', kind: 'money', label: 'Amount' },
  /** What the posted transaction's notes say ("Salary", "Rent"); trimmed, at most 255 characters. */
  notes: { wire: 'notes', kind: 'text', label: 'Notes' },
  payee: { wire: 'payee', kind: 'text', label: 'Payee', nullable: true },
  /** A category of the user's (issue 31, item 1); kept as a reference. */
  categoryId: { wire: 'category_id', kind: 'ref', label: 'Category', nullable: true },
  accountId: { wire: 'account_id', kind: 'ref', label: 'Account', nullable: true },
  frequency: {
    wire: 'frequency',
    kind: 'code',
    values: RECURRING_FREQUENCIES,
    label: 'Repeats',
  },
  /** 1 to 31 (a shorter month takes its last day); null: the last day of the month. */
  dayOfMonth: { wire: 'day_of_month', kind: 'int', label: 'Day of Month', nullable: true },
  /** YYYY-MM-DD: the first occurrence is the first scheduled day on or after it. */
  startDate: { wire: 'start_date', kind: 'date', label: 'Start Date' },
  endDate: { wire: 'end_date', kind: 'date', label: 'End Date', nullable: true },
});

/** The validated values of a recurring entry (`RECURRING_FIELDS`), money in paise. */
export type RecurringDetails = RecordOf<typeof RECURRING_FIELDS>;
