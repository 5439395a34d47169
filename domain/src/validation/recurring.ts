/**
 * Recurring entries' rules (issue 31) and their messages, shared by the API (422 errors) and the
 * form. Field names are the wire names (`RECURRING_FIELDS`), which are also the form's names.
 * Type, amount and notes follow the transaction's rules: each occurrence becomes a transaction.
 */
import { type Paise, toPaise } from '../money/paise';
import {
  type RECURRING_FIELDS,
  RECURRING_FREQUENCIES,
  type RecurringDetails,
  type RecurringFrequency,
} from '../recurring/fields';
import type { FieldError } from '../shared/errors';
import type { WireNames } from '../shared/field-table';
import { isUuid } from './account';
import {
  amountError,
  amountText,
  isCalendarDate,
  NOTES_MAX_LENGTH,
  PAYEE_MAX_LENGTH,
  TRANSACTION_MESSAGES,
  type TransactionType,
} from './transaction';

export const RECURRING_MESSAGES = {
  typeRequired: TRANSACTION_MESSAGES.typeRequired,
  typeInvalid: TRANSACTION_MESSAGES.typeInvalid,
  amountPositive: TRANSACTION_MESSAGES.amountPositive,
  amountDecimals: TRANSACTION_MESSAGES.amountDecimals,
  amountTooLarge: TRANSACTION_MESSAGES.amountTooLarge,
  notesRequired: TRANSACTION_MESSAGES.notesRequired,
  notesTooLong: TRANSACTION_MESSAGES.notesTooLong,
  payeeTooLong: TRANSACTION_MESSAGES.payeeTooLong,
  categoryNotFound: 'Category not found',
  accountNotFound: 'Account not found',
  frequencyRequired: 'Repeats is required',
  frequencyInvalid: 'Repeats must be monthly, quarterly or yearly',
  dayInvalid: 'Day of month must be a whole number from 1 to 31, or last',
  startRequired: 'Start date is required',
  startInvalid: 'Invalid start date',
  endInvalid: 'Invalid end date',
  endBeforeStart: 'End date must be on or after the start date',
  dateRequired: 'Occurrence date is required',
  notAnOccurrence: 'This date is not an occurrence of the entry',
  recurringNotFound: 'Recurring entry not found',
} as const;

/** What the form holds or the API receives, before validation, by wire name. */
export type RecurringInput = { [K in WireNames<typeof RECURRING_FIELDS>]?: unknown };

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const characterCount = (text: string): number => [...text].length;

/** Paise of a positive amount with at most 2 decimals (the transaction's rule), or the message. */
export function recurringAmountOf(amount: unknown): Paise | { error: string } {
  const message = amountError(amount);
  return message ? { error: message } : toPaise(amountText(amount) as string);
}

/** Trimmed notes, or the message of what is wrong. */
export function recurringNotesOf(notes: unknown): string | { error: string } {
  if (isBlank(notes) || typeof notes !== 'string') return { error: RECURRING_MESSAGES.notesRequired };
  const text = notes.trim();
  return characterCount(text) > NOTES_MAX_LENGTH ? { error: RECURRING_MESSAGES.notesTooLong } : text;
}

function dayOf(value: unknown): number | null | { error: string } {
  if (isBlank(value)) return null;
  if (typeof value === 'string' && value.trim().toLowerCase() === 'last') return null;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,2}$/.test(text) || Number(text) < 1 || Number(text) > 31)
    return { error: RECURRING_MESSAGES.dayInvalid };
  return Number(text);
}

const refOf = (value: unknown, message: string): string | null | { error: string } => {
  if (isBlank(value)) return null;
  return isUuid(typeof value === 'string' ? value.trim() : value)
    ? (value as string).trim().toLowerCase()
    : { error: message };
};

const failed = (v: unknown): v is { error: string } => typeof v === 'object' && v !== null && 'error' in v;

/** The validated entry (amount in paise, texts trimmed, blanks null), or every failing field. */
export function parseRecurring(
  input: RecurringInput,
): { ok: true; value: RecurringDetails } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const check = <T>(field: keyof RecurringInput, value: T | { error: string }): T | null => {
    if (failed(value)) {
      errors.push({ field, message: value.error });
      return null;
    }
    return value;
  };
  const type = isBlank(input.transaction_type)
    ? { error: RECURRING_MESSAGES.typeRequired }
    : input.transaction_type === 'C' || input.transaction_type === 'D'
      ? (input.transaction_type as TransactionType)
      : { error: RECURRING_MESSAGES.typeInvalid };
  const transactionType = check('transaction_type', type);
  const amount = check('amount', recurringAmountOf(input.amount));
  const notes = check('notes', recurringNotesOf(input.notes));
  const payeeText = typeof input.payee === 'string' ? input.payee.trim() : input.payee;
  const payee = check<string | null>(
    'payee',
    isBlank(payeeText)
      ? null
      : typeof payeeText === 'string' && characterCount(payeeText) <= PAYEE_MAX_LENGTH
        ? payeeText
        : { error: RECURRING_MESSAGES.payeeTooLong },
  );
  const categoryId = check('category_id', refOf(input.category_id, RECURRING_MESSAGES.categoryNotFound));
  const accountId = check('account_id', refOf(input.account_id, RECURRING_MESSAGES.accountNotFound));
  const frequency = check(
    'frequency',
    isBlank(input.frequency)
      ? { error: RECURRING_MESSAGES.frequencyRequired }
      : RECURRING_FREQUENCIES.includes(input.frequency as RecurringFrequency)
        ? (input.frequency as RecurringFrequency)
        : { error: RECURRING_MESSAGES.frequencyInvalid },
  );
  const dayOfMonth = check('day_of_month', dayOf(input.day_of_month));
  const dateOf = (value: unknown, required: string | null, invalid: string) => {
    if (isBlank(value)) return required === null ? null : { error: required };
    return typeof value === 'string' && isCalendarDate(value.trim()) ? value.trim() : { error: invalid };
  };
  const startDate = check(
    'start_date',
    dateOf(input.start_date, RECURRING_MESSAGES.startRequired, RECURRING_MESSAGES.startInvalid),
  );
  let endDate = check('end_date', dateOf(input.end_date, null, RECURRING_MESSAGES.endInvalid));
  if (endDate && startDate && endDate < startDate) {
    errors.push({ field: 'end_date', message: RECURRING_MESSAGES.endBeforeStart });
    endDate = null;
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      transactionType: transactionType as TransactionType,
      amount: amount as Paise,
      notes: notes as string,
      payee,
      categoryId,
      accountId,
      frequency: frequency as RecurringFrequency,
      dayOfMonth,
      startDate: startDate as string,
      endDate,
    },
  };
}

/** The same rules over parsed details, for the decider (a command may come from anywhere). */
export function validateRecurringDetails(details: RecurringDetails): FieldError[] {
  const parsed = parseRecurring({
    transaction_type: details.transactionType,
    amount: Number.isSafeInteger(details.amount) ? (details.amount / 100).toFixed(2) : null,
    notes: details.notes,
    payee: details.payee,
    category_id: details.categoryId,
    account_id: details.accountId,
    frequency: details.frequency,
    day_of_month: details.dayOfMonth,
    start_date: details.startDate,
    end_date: details.endDate,
  });
  return parsed.ok ? [] : parsed.errors;
}
