import { LOAN_EVENT_LABELS } from '@kosh/domain';
import { formatDate, formatMoney } from '../format';
import type { FieldChange } from './historyApi';

/** Fields whose values the timeline sends in rupees. */
const MONEY_FIELDS = new Set([
  'Amount',
  'Principal Amount',
  'Processing Fee',
  'EMI',
  'Interest',
  'GST',
  'Total EMI',
  'Charge',
  'Principal',
  'Settlement',
  'EMI (before GST)',
  'New EMI (before GST)',
  'Opening Balance',
]);
const DATE_FIELDS = new Set([
  'Date',
  'Start Date',
  'End Date',
  'Effective Date',
  'Paid On',
  'Opening Balance Date',
]);

/** A changed value as the screens show it: money in ₹, dates in en-IN, nothing as '—'. */
export function changeValue(field: string, value: FieldChange['from']): string {
  if (value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return MONEY_FIELDS.has(field) ? formatMoney(value) : String(value);
  if (DATE_FIELDS.has(field) && /^\d{4}-\d{2}-\d{2}/.test(value)) return formatDate(value);
  return value;
}

/** 'LoanUpdated' → 'Loan updated'. */
export function typeLabel(type: string): string {
  const words = type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An event type in the screens' words: a loan event's own name ('Part-payment'), else its type's. */
export function eventLabel(type: string): string {
  return type in LOAN_EVENT_LABELS
    ? LOAN_EVENT_LABELS[type as keyof typeof LOAN_EVENT_LABELS]
    : typeLabel(type);
}

/** The event types of the History page's Type filter, grouped by what they are about. */
export const TYPE_GROUPS: readonly { label: string; types: readonly string[] }[] = [
  // Every loan event has its name in the domain's table, so a new one is offered here too.
  { label: 'Loans', types: Object.keys(LOAN_EVENT_LABELS) },
  {
    label: 'Transactions',
    types: [
      'TransactionRecorded',
      'TransactionUpdated',
      'TransactionDeleted',
      'ImportedTransactionUpdated',
      'ImportedTransactionDeleted',
    ],
  },
  {
    label: 'Accounts',
    types: [
      'AccountOpened',
      'AccountUpdated',
      'AccountDeleted',
      'TransferRecorded',
      'TransferDeleted',
      'ImportCommitted',
      'ImportUndone',
    ],
  },
  {
    label: 'Profile',
    types: [
      'UserRegistered',
      'EmailVerified',
      'ProfileUpdated',
      'EmailChanged',
      'PasswordChanged',
      'SignedOut',
      'PasswordResetCompleted',
      'ProfilePictureSet',
      'ProfilePictureRemoved',
    ],
  },
  { label: 'Lists', types: ['BankAdded', 'LoanTypeAdded'] },
];

/** 'loan:…' → 'Loan', 'transaction:…' → 'Transaction', 'profile' → 'Profile'. */
export function streamKind(stream: string): string {
  const kind = stream.split(':')[0] ?? stream;
  return typeLabel(
    kind.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()).replace(/^./, (c) => c.toUpperCase()),
  );
}
