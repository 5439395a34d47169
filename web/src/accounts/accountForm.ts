import { ACCOUNT_KIND_LABELS, ACCOUNT_KINDS, type AccountInput, validateAccount } from '@kosh/domain';
import { amountText, formValidator } from '../forms';
import type { Account, AccountBody, AccountKind } from './accountsApi';

/** The form holds the wire names (also the validator's field names); a cleared field is undefined. */
export type AccountValues = {
  name?: string;
  kind?: string;
  bank_id?: string;
  bank_name?: string;
  last_four?: string;
  opening_balance?: string;
  opening_date?: string;
};

export const ACCOUNT_FORM_FIELDS: readonly string[] = [
  'name',
  'kind',
  'bank_id',
  'bank_name',
  'last_four',
  'opening_balance',
  'opening_date',
];

export const KIND_OPTIONS = [
  { value: '', label: 'Select type' },
  ...ACCOUNT_KINDS.map((kind) => ({ value: kind, label: ACCOUNT_KIND_LABELS[kind] })),
];

/** A signed amount as typed: "-2,500" and "₹ 1,00,000" read as the numbers they say. */
export function signedAmountText(typed: string | undefined): string {
  const text = (typed ?? '').trim();
  return text.startsWith('-') ? `-${amountText(text.slice(1))}` : amountText(text);
}

const validateTyped = formValidator<AccountInput>(validateAccount);
export const validateAccountForm = (values: AccountValues) =>
  validateTyped({ ...values, opening_balance: signedAmountText(values.opening_balance) });

export function accountInitialValues(editing: Account | null, today: string): AccountValues {
  if (!editing) return { kind: 'savings', opening_date: today };
  return {
    name: editing.name,
    kind: editing.kind,
    bank_id: editing.bank_id === null ? '' : String(editing.bank_id),
    bank_name: editing.bank_id === null ? (editing.bank_name ?? '') : '',
    last_four: editing.last_four ?? '',
    opening_balance: editing.opening_balance.toFixed(2),
    opening_date: editing.opening_date,
  };
}

const blankToNull = (text: string | undefined): string | null => (text?.trim() ? text.trim() : null);

export function accountBodyOf(values: AccountValues): AccountBody {
  const bankId = blankToNull(values.bank_id);
  return {
    name: (values.name ?? '').trim(),
    kind: values.kind as AccountKind,
    bank_id: bankId === null ? null : Number(bankId),
    bank_name: bankId === null ? blankToNull(values.bank_name) : null,
    last_four: blankToNull(values.last_four),
    opening_balance: Number(signedAmountText(values.opening_balance)),
    opening_date: values.opening_date ?? '',
  };
}
