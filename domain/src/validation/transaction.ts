/**
 * The spec's transaction rules (section 5) and their exact messages, shared by the API (422
 * errors) and the transaction form. Field names are the wire names (snake_case), which are also
 * the form's names. Messages the spec does not give are written in its voice.
 */
import { type Paise, toPaise } from '../money/paise';
import type { FieldError } from '../shared/errors';
import type { WireNames } from '../shared/field-table';
import { TRANSACTION_FIELDS, type TransactionFields } from '../transaction/fields';

export type { TransactionFields } from '../transaction/fields';

export const TRANSACTION_MESSAGES = {
  notesRequired: 'Notes are required',
  notesTooLong: 'Notes must not exceed 255 characters',
  typeRequired: 'Transaction type is required',
  typeInvalid: 'Invalid transaction type',
  dateRequired: 'Transaction date is required',
  dateInvalid: 'Invalid transaction date',
  amountPositive: 'Amount must be greater than 0',
  amountDecimals: 'Amount can have maximum 2 decimal places',
  amountTooLarge: 'Amount cannot exceed 9,999,999,999.99',
  payeeTooLong: 'Payee must not exceed 100 characters',
} as const;

export const PAYEE_MAX_LENGTH = 100;

/** "Category not found": the same message whether the id is malformed or not the user's. */
export const TRANSACTION_CATEGORY_NOT_FOUND = 'Category not found';

export const NOTES_MAX_LENGTH = 255;
/** The largest amount `numeric(14,2)` holds with room for the sign: ₹9,999,999,999.99. */
export const TRANSACTION_AMOUNT_MAX: Paise = 999_999_999_999;

export const TRANSACTION_TYPES = TRANSACTION_FIELDS.transactionType.values;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** What the form holds or the API receives, before validation: one per field, by its wire name. */
export type TransactionInput = { [K in WireNames<typeof TRANSACTION_FIELDS>]?: unknown };

/** Checks of every field by its wire name (the compiler points here when a field is added). */
type Checks = Record<keyof TransactionInput, string | null>;

/** "Account not found": the same message whether the id is malformed or not the user's. */
export const TRANSACTION_ACCOUNT_NOT_FOUND = 'Account not found';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function accountIdError(accountId: unknown): string | null {
  if (isBlank(accountId)) return null;
  return typeof accountId === 'string' && UUID.test(accountId.trim()) ? null : TRANSACTION_ACCOUNT_NOT_FOUND;
}

/** The account of a valid input: absent stays absent, blank is null. */
function accountIdOf(input: TransactionInput): { accountId?: string | null } {
  if (input.account_id === undefined) return {};
  return { accountId: isBlank(input.account_id) ? null : (input.account_id as string).trim().toLowerCase() };
}

function categoryIdError(categoryId: unknown): string | null {
  if (isBlank(categoryId)) return null;
  return typeof categoryId === 'string' && UUID.test(categoryId.trim())
    ? null
    : TRANSACTION_CATEGORY_NOT_FOUND;
}

/** The category of a valid input: absent stays absent, blank is null. */
function categoryIdOf(input: TransactionInput): { categoryId?: string | null } {
  if (input.category_id === undefined) return {};
  return {
    categoryId: isBlank(input.category_id) ? null : (input.category_id as string).trim().toLowerCase(),
  };
}

function payeeError(payee: unknown): string | null {
  if (isBlank(payee)) return null;
  if (typeof payee !== 'string') return TRANSACTION_MESSAGES.payeeTooLong;
  return characterCount(payee.trim()) > PAYEE_MAX_LENGTH ? TRANSACTION_MESSAGES.payeeTooLong : null;
}

/** The payee of a valid input: absent stays absent, blank is null, else trimmed. */
function payeeOf(input: TransactionInput): { payee?: string | null } {
  if (input.payee === undefined) return {};
  return { payee: isBlank(input.payee) ? null : (input.payee as string).trim() };
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const AMOUNT_PATTERN = /^\d+(\.\d+)?$/;

/** A real calendar date written `YYYY-MM-DD` (2025-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Length in characters (code points), as PostgreSQL counts them. */
const characterCount = (text: string): number => [...text].length;

function notesError(notes: unknown): string | null {
  if (isBlank(notes) || typeof notes !== 'string') return TRANSACTION_MESSAGES.notesRequired;
  if (characterCount(notes.trim()) > NOTES_MAX_LENGTH) return TRANSACTION_MESSAGES.notesTooLong;
  return null;
}

function typeError(type: unknown): string | null {
  if (isBlank(type)) return TRANSACTION_MESSAGES.typeRequired;
  return TRANSACTION_TYPES.includes(type as TransactionType) ? null : TRANSACTION_MESSAGES.typeInvalid;
}

function dateError(date: unknown): string | null {
  if (isBlank(date)) return TRANSACTION_MESSAGES.dateRequired;
  return typeof date === 'string' && isCalendarDate(date) ? null : TRANSACTION_MESSAGES.dateInvalid;
}

/** Decimal text of a form or JSON amount, or null when it is not a plain non-negative decimal. */
export function amountText(amount: unknown): string | null {
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) return null;
    return amount < 0 ? '-' : String(amount).includes('e') ? amount.toFixed(20) : String(amount);
  }
  return typeof amount === 'string' ? amount.trim() : null;
}

/** The message of what is wrong with a form or JSON amount, or null (shared with recurring entries). */
export function amountError(amount: unknown): string | null {
  // Spec section 5 has one message for a missing, zero or negative amount.
  if (isBlank(amount)) return TRANSACTION_MESSAGES.amountPositive;
  if (typeof amount === 'number' && amount > TRANSACTION_AMOUNT_MAX / 100)
    return TRANSACTION_MESSAGES.amountTooLarge;
  const text = amountText(amount);
  if (text === null || !AMOUNT_PATTERN.test(text)) return TRANSACTION_MESSAGES.amountPositive;
  const fraction = text.split('.')[1] ?? '';
  if (/[1-9]/.test(fraction.slice(2))) return TRANSACTION_MESSAGES.amountDecimals;
  const paise = toPaise(text);
  if (paise <= 0) return TRANSACTION_MESSAGES.amountPositive;
  if (paise > TRANSACTION_AMOUNT_MAX) return TRANSACTION_MESSAGES.amountTooLarge;
  return null;
}

/** Every failing field with its first message, in form order; empty when valid. */
export function validateTransaction(input: TransactionInput): FieldError[] {
  const checks: Checks = {
    notes: notesError(input.notes),
    transaction_type: typeError(input.transaction_type),
    transaction_date: dateError(input.transaction_date),
    amount: amountError(input.amount),
    account_id: accountIdError(input.account_id),
    category_id: categoryIdError(input.category_id),
    payee: payeeError(input.payee),
  };
  return Object.entries(checks).flatMap(([field, message]) => (message ? [{ field, message }] : []));
}

/** The validated fields (notes trimmed, amount in paise), or the errors. */
export function parseTransaction(
  input: TransactionInput,
): { ok: true; value: TransactionFields } | { ok: false; errors: FieldError[] } {
  const errors = validateTransaction(input);
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      notes: (input.notes as string).trim(),
      transactionType: input.transaction_type as TransactionType,
      transactionDate: input.transaction_date as string,
      amount: toPaise(amountText(input.amount) as string),
      ...accountIdOf(input),
      ...categoryIdOf(input),
      ...payeeOf(input),
    },
  };
}

/** The same rules over already-parsed fields, for the decider (a command may come from anywhere). */
export function validateTransactionFields(fields: TransactionFields): FieldError[] {
  const amountMessage =
    !Number.isSafeInteger(fields.amount) || fields.amount <= 0
      ? TRANSACTION_MESSAGES.amountPositive
      : fields.amount > TRANSACTION_AMOUNT_MAX
        ? TRANSACTION_MESSAGES.amountTooLarge
        : null;
  const checks: Checks = {
    notes: notesError(fields.notes),
    transaction_type: typeError(fields.transactionType),
    transaction_date: dateError(fields.transactionDate),
    amount: amountMessage,
    account_id: accountIdError(fields.accountId),
    category_id: categoryIdError(fields.categoryId),
    payee: payeeError(fields.payee),
  };
  return Object.entries(checks).flatMap(([field, message]) => (message ? [{ field, message }] : []));
}
