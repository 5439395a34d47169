import { fieldKeys, fieldTable, type RecordOf } from '../shared/field-table';

export const ACCOUNT_KINDS = ['savings', 'current', 'credit-card', 'cash', 'wallet'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export const ACCOUNT_KIND_LABELS: Readonly<Record<AccountKind, string>> = {
  savings: 'Savings',
  current: 'Current',
  'credit-card': 'Credit card',
  cash: 'Cash',
  wallet: 'Wallet',
};

/**
 * What the user tells about an account, declared once (see `fieldTable`), in the order the form
 * and History list them. Money in paise. A catalog bank (`bankId`) or a typed name
 * (`bankName`), not both; `lastFour` is exactly four digits; the opening balance may be
 * negative only for a credit card (validation/account.ts).
 */
export const ACCOUNT_FIELDS = fieldTable({
  name: { wire: 'name', kind: 'text', label: 'Name' },
  kind: { wire: 'kind', kind: 'code', values: ACCOUNT_KINDS, label: 'Type' },
  bankId: { wire: 'bank_id', kind: 'id', label: 'Bank', nullable: true },
  bankName: { wire: 'bank_name', kind: 'text', label: 'Bank Name', nullable: true },
  lastFour: { wire: 'last_four', kind: 'text', label: 'Last Four Digits', nullable: true },
  openingBalance: { wire: 'opening_balance', kind: 'money', label: 'Opening Balance' },
  openingDate: { wire: 'opening_date', kind: 'date', label: 'Opening Balance Date' },
});

/**
 * The validated details of an account (`ACCOUNT_FIELDS`). Every account event has carried every
 * field since accounts began, so none is ever absent: the optional fields are null, not missing.
 */
export type AccountDetails = Required<RecordOf<typeof ACCOUNT_FIELDS>>;

export const ACCOUNT_FIELD_NAMES = fieldKeys(ACCOUNT_FIELDS);
