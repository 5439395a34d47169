/**
 * An account's fields, declared once: the wire name (the form's and the API's), the label the
 * screens and the history show, and the read model's column. The table `satisfies` a record over
 * every key of `AccountDetails`, so a field added to one and not the other does not compile.
 */
import type { Paise } from '../money/paise';

export const ACCOUNT_KINDS = ['savings', 'current', 'credit-card', 'cash', 'wallet'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export const ACCOUNT_KIND_LABELS: Readonly<Record<AccountKind, string>> = {
  savings: 'Savings',
  current: 'Current',
  'credit-card': 'Credit card',
  cash: 'Cash',
  wallet: 'Wallet',
};

/** What the user tells about an account; money in paise. */
export type AccountDetails = {
  name: string;
  kind: AccountKind;
  /** A bank of the catalog, or null (then `bankName` may hold a typed name). */
  bankId: number | null;
  bankName: string | null;
  /** Exactly four digits, or null. */
  lastFour: string | null;
  /** May be negative (a credit card's dues). */
  openingBalance: Paise;
  openingDate: string;
};

export type AccountFieldShape = 'text' | 'kind' | 'bank' | 'money' | 'date';

export type AccountFieldSpec = Readonly<{
  wire: string;
  label: string;
  column: string;
  shape: AccountFieldShape;
}>;

export const ACCOUNT_FIELDS = {
  name: { wire: 'name', label: 'Name', column: 'name', shape: 'text' },
  kind: { wire: 'kind', label: 'Type', column: 'kind', shape: 'kind' },
  bankId: { wire: 'bank_id', label: 'Bank', column: 'bank_id', shape: 'bank' },
  bankName: { wire: 'bank_name', label: 'Bank Name', column: 'bank_name', shape: 'text' },
  lastFour: { wire: 'last_four', label: 'Last Four Digits', column: 'last_four', shape: 'text' },
  openingBalance: {
    wire: 'opening_balance',
    label: 'Opening Balance',
    column: 'opening_balance',
    shape: 'money',
  },
  openingDate: { wire: 'opening_date', label: 'Opening Balance Date', column: 'opening_date', shape: 'date' },
} as const satisfies Record<keyof AccountDetails, AccountFieldSpec>;

export const ACCOUNT_FIELD_NAMES = Object.keys(ACCOUNT_FIELDS) as (keyof AccountDetails)[];
