/**
 * Account and transfer rules and their messages, shared by the API (422 errors) and the forms.
 * Field names are the wire names (ACCOUNT_FIELDS), which are also the forms' names.
 */
import { ACCOUNT_FIELDS, ACCOUNT_KINDS, type AccountDetails, type AccountKind } from '../account/fields';
import { type Paise, toDecimalString, toPaise } from '../money/paise';
import type { FieldError } from '../shared/errors';
import { isCalendarDate, NOTES_MAX_LENGTH, TRANSACTION_AMOUNT_MAX } from './transaction';

export const ACCOUNT_NAME_MAX_LENGTH = 100;

export const ACCOUNT_MESSAGES = {
  nameRequired: 'Account name is required',
  nameTooLong: `Account name must not exceed ${ACCOUNT_NAME_MAX_LENGTH} characters`,
  kindRequired: 'Account type is required',
  kindInvalid: 'Account type must be savings, current, credit-card, cash or wallet',
  bankInvalid: 'Please select a valid bank',
  bankNameTooLong: `Bank name must not exceed ${ACCOUNT_NAME_MAX_LENGTH} characters`,
  bankBoth: 'Choose a bank from the list or type its name, not both',
  lastFourInvalid: 'Last four digits must be exactly 4 digits',
  openingBalanceRequired: 'Opening balance is required',
  openingBalanceInvalid: 'Opening balance must be an amount with at most 2 decimal places',
  openingBalanceNegative: 'Opening balance can be negative only for a credit card',
  openingBalanceTooLarge: 'Opening balance cannot exceed 9,999,999,999.99',
  openingDateRequired: 'Opening balance date is required',
  openingDateInvalid: 'Invalid opening balance date',
  accountNotFound: 'Account not found',
  accountHasEntries: 'This account has transactions or transfers. Delete or move them first.',
} as const;

export const TRANSFER_MESSAGES = {
  fromRequired: 'From account is required',
  toRequired: 'To account is required',
  sameAccount: 'To account must differ from the from account',
  dateRequired: 'Transfer date is required',
  dateInvalid: 'Invalid transfer date',
  amountPositive: 'Amount must be greater than 0',
  amountDecimals: 'Amount can have maximum 2 decimal places',
  amountTooLarge: 'Amount cannot exceed 9,999,999,999.99',
  notesTooLong: 'Notes must not exceed 255 characters',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const characterCount = (text: string): number => [...text].length;

/** Decimal text of a form or JSON amount (a sign allowed), or null when it is not one. */
function signedDecimalText(amount: unknown): string | null {
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) return null;
    return String(amount).includes('e') ? amount.toFixed(20) : String(amount);
  }
  if (typeof amount !== 'string') return null;
  const text = amount.trim();
  return /^-?\d+(\.\d+)?$/.test(text) ? text : null;
}

/** Paise of an amount, or the message of what is wrong with it. */
function paiseOf(
  amount: unknown,
  messages: { invalid: string; decimals: string; tooLarge: string },
): Paise | { error: string } {
  const text = signedDecimalText(amount);
  if (text === null) return { error: messages.invalid };
  if (/[1-9]/.test((text.split('.')[1] ?? '').slice(2))) return { error: messages.decimals };
  const paise = toPaise(text);
  if (Math.abs(paise) > TRANSACTION_AMOUNT_MAX) return { error: messages.tooLarge };
  return paise;
}

/** What the account form holds or the API receives, before validation (wire names). */
export type AccountInput = {
  name?: unknown;
  kind?: unknown;
  bank_id?: unknown;
  bank_name?: unknown;
  last_four?: unknown;
  opening_balance?: unknown;
  opening_date?: unknown;
};

function nameError(name: unknown): string | null {
  if (isBlank(name) || typeof name !== 'string') return ACCOUNT_MESSAGES.nameRequired;
  return characterCount(name.trim()) > ACCOUNT_NAME_MAX_LENGTH ? ACCOUNT_MESSAGES.nameTooLong : null;
}

function kindError(kind: unknown): string | null {
  if (isBlank(kind)) return ACCOUNT_MESSAGES.kindRequired;
  return ACCOUNT_KINDS.includes(kind as AccountKind) ? null : ACCOUNT_MESSAGES.kindInvalid;
}

function bankIdError(bankId: unknown, bankName: unknown): string | null {
  if (isBlank(bankId)) return null;
  const text = String(bankId).trim();
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) return ACCOUNT_MESSAGES.bankInvalid;
  return isBlank(bankName) ? null : ACCOUNT_MESSAGES.bankBoth;
}

function bankNameError(bankName: unknown): string | null {
  if (isBlank(bankName)) return null;
  if (typeof bankName !== 'string') return ACCOUNT_MESSAGES.bankNameTooLong;
  return characterCount(bankName.trim()) > ACCOUNT_NAME_MAX_LENGTH ? ACCOUNT_MESSAGES.bankNameTooLong : null;
}

function lastFourError(lastFour: unknown): string | null {
  if (isBlank(lastFour)) return null;
  const text = typeof lastFour === 'number' ? String(lastFour) : lastFour;
  return typeof text === 'string' && /^\d{4}$/.test(text.trim()) ? null : ACCOUNT_MESSAGES.lastFourInvalid;
}

function openingBalanceError(balance: unknown, kind: unknown): string | null {
  if (isBlank(balance)) return ACCOUNT_MESSAGES.openingBalanceRequired;
  const paise = paiseOf(balance, {
    invalid: ACCOUNT_MESSAGES.openingBalanceInvalid,
    decimals: ACCOUNT_MESSAGES.openingBalanceInvalid,
    tooLarge: ACCOUNT_MESSAGES.openingBalanceTooLarge,
  });
  if (typeof paise !== 'number') return paise.error;
  return paise < 0 && kind !== 'credit-card' ? ACCOUNT_MESSAGES.openingBalanceNegative : null;
}

function dateError(date: unknown, required: string, invalid: string): string | null {
  if (isBlank(date)) return required;
  return typeof date === 'string' && isCalendarDate(date.trim()) ? null : invalid;
}

const collect = (checks: [string, string | null][]): FieldError[] =>
  checks.flatMap(([field, message]) => (message ? [{ field, message }] : []));

/** Every failing field with its first message, in form order; empty when valid. */
export function validateAccount(input: AccountInput): FieldError[] {
  const f = ACCOUNT_FIELDS;
  return collect([
    [f.name.wire, nameError(input.name)],
    [f.kind.wire, kindError(input.kind)],
    [f.bankId.wire, bankIdError(input.bank_id, input.bank_name)],
    [f.bankName.wire, bankNameError(input.bank_name)],
    [f.lastFour.wire, lastFourError(input.last_four)],
    [f.openingBalance.wire, openingBalanceError(input.opening_balance, input.kind)],
    [
      f.openingDate.wire,
      dateError(
        input.opening_date,
        ACCOUNT_MESSAGES.openingDateRequired,
        ACCOUNT_MESSAGES.openingDateInvalid,
      ),
    ],
  ]);
}

const textOrNull = (value: unknown): string | null =>
  isBlank(value) ? null : String(value as string | number).trim();

/** The validated details (texts trimmed, money in paise), or the errors. */
export function parseAccount(
  input: AccountInput,
): { ok: true; value: AccountDetails } | { ok: false; errors: FieldError[] } {
  const errors = validateAccount(input);
  if (errors.length > 0) return { ok: false, errors };
  const bankId = textOrNull(input.bank_id);
  return {
    ok: true,
    value: {
      name: (input.name as string).trim(),
      kind: input.kind as AccountKind,
      bankId: bankId === null ? null : Number(bankId),
      bankName: textOrNull(input.bank_name),
      lastFour: textOrNull(input.last_four),
      openingBalance: toPaise(signedDecimalText(input.opening_balance) as string),
      openingDate: (input.opening_date as string).trim(),
    },
  };
}

/** The same rules over already-parsed details, for the decider. */
export function validateAccountDetails(details: AccountDetails): FieldError[] {
  const f = ACCOUNT_FIELDS;
  const balance = details.openingBalance;
  const balanceMessage = !Number.isSafeInteger(balance)
    ? ACCOUNT_MESSAGES.openingBalanceInvalid
    : Math.abs(balance) > TRANSACTION_AMOUNT_MAX
      ? ACCOUNT_MESSAGES.openingBalanceTooLarge
      : balance < 0 && details.kind !== 'credit-card'
        ? ACCOUNT_MESSAGES.openingBalanceNegative
        : null;
  const bankIdMessage =
    details.bankId === null
      ? null
      : !Number.isSafeInteger(details.bankId) || details.bankId < 1
        ? ACCOUNT_MESSAGES.bankInvalid
        : details.bankName !== null
          ? ACCOUNT_MESSAGES.bankBoth
          : null;
  return collect([
    [f.name.wire, nameError(details.name)],
    [f.kind.wire, kindError(details.kind)],
    [f.bankId.wire, bankIdMessage],
    [f.bankName.wire, bankNameError(details.bankName)],
    [f.lastFour.wire, lastFourError(details.lastFour)],
    [f.openingBalance.wire, balanceMessage],
    [
      f.openingDate.wire,
      dateError(
        details.openingDate,
        ACCOUNT_MESSAGES.openingDateRequired,
        ACCOUNT_MESSAGES.openingDateInvalid,
      ),
    ],
  ]);
}

/** What the transfer dialog holds or the API receives (wire names). */
export type TransferInput = {
  from_account_id?: unknown;
  to_account_id?: unknown;
  amount?: unknown;
  transfer_date?: unknown;
  notes?: unknown;
};

/** The validated values of a transfer; money in paise, notes trimmed ('' when none). */
export type TransferFields = {
  fromAccountId: string;
  toAccountId: string;
  amount: Paise;
  transferDate: string;
  notes: string;
};

function transferAmountError(amount: unknown): string | null {
  if (isBlank(amount)) return TRANSFER_MESSAGES.amountPositive;
  const paise = paiseOf(amount, {
    invalid: TRANSFER_MESSAGES.amountPositive,
    decimals: TRANSFER_MESSAGES.amountDecimals,
    tooLarge: TRANSFER_MESSAGES.amountTooLarge,
  });
  if (typeof paise !== 'number') return paise.error;
  return paise <= 0 ? TRANSFER_MESSAGES.amountPositive : null;
}

function transferNotesError(notes: unknown): string | null {
  if (isBlank(notes)) return null;
  if (typeof notes !== 'string') return TRANSFER_MESSAGES.notesTooLong;
  return characterCount(notes.trim()) > NOTES_MAX_LENGTH ? TRANSFER_MESSAGES.notesTooLong : null;
}

function accountIdError(id: unknown, required: string): string | null {
  if (isBlank(id)) return required;
  return isUuid(typeof id === 'string' ? id.trim() : id) ? null : ACCOUNT_MESSAGES.accountNotFound;
}

/** Every failing field with its first message, in dialog order; empty when valid. */
export function validateTransfer(input: TransferInput): FieldError[] {
  const from = accountIdError(input.from_account_id, TRANSFER_MESSAGES.fromRequired);
  let to = accountIdError(input.to_account_id, TRANSFER_MESSAGES.toRequired);
  if (!from && !to && String(input.from_account_id).trim() === String(input.to_account_id).trim()) {
    to = TRANSFER_MESSAGES.sameAccount;
  }
  return collect([
    ['from_account_id', from],
    ['to_account_id', to],
    ['amount', transferAmountError(input.amount)],
    [
      'transfer_date',
      dateError(input.transfer_date, TRANSFER_MESSAGES.dateRequired, TRANSFER_MESSAGES.dateInvalid),
    ],
    ['notes', transferNotesError(input.notes)],
  ]);
}

export function parseTransfer(
  input: TransferInput,
): { ok: true; value: TransferFields } | { ok: false; errors: FieldError[] } {
  const errors = validateTransfer(input);
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      fromAccountId: String(input.from_account_id).trim().toLowerCase(),
      toAccountId: String(input.to_account_id).trim().toLowerCase(),
      amount: toPaise(signedDecimalText(input.amount) as string),
      transferDate: String(input.transfer_date).trim(),
      notes: textOrNull(input.notes) ?? '',
    },
  };
}

/** The same rules over parsed fields, for the decider. */
export function validateTransferFields(fields: TransferFields): FieldError[] {
  return validateTransfer({
    from_account_id: fields.fromAccountId,
    to_account_id: fields.toAccountId,
    amount: Number.isSafeInteger(fields.amount) ? toDecimalString(fields.amount) : null,
    transfer_date: fields.transferDate,
    notes: fields.notes,
  });
}
