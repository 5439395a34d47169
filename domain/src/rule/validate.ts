import { toPaise } from '../money/paise';
import type { FieldError } from '../shared/errors';
import type { WireNames } from '../shared/field-table';
import { decimalText } from '../validation/decimal';
import { TRANSACTION_AMOUNT_MAX } from '../validation/transaction';
import type { RULE_FIELDS, RuleFields } from './fields';

export const RULE_NAME_MAX_LENGTH = 60;
export const RULE_TEXT_MAX_LENGTH = 100;

export const RULE_MESSAGES = {
  notFound: 'Rule not found',
  nameRequired: 'Name is required',
  nameTooLong: `Name must not exceed ${RULE_NAME_MAX_LENGTH} characters`,
  textTooLong: `Text must not exceed ${RULE_TEXT_MAX_LENGTH} characters`,
  amountInvalid: 'Amount must be greater than 0, with at most 2 decimal places',
  amountOrder: 'Amount to must not be less than amount from',
  typeInvalid: 'Invalid transaction type',
  accountNotFound: 'Account not found',
  categoryNotFound: 'Category not found',
  payeeTooLong: 'Payee must not exceed 100 characters',
  noCondition: 'Give at least one condition: text, pattern, amount, account or type',
  noAction: 'Choose a category or a payee to set',
} as const;

/** What the form holds or the API receives, by wire name, before validation. */
export type RuleInput = { [K in WireNames<typeof RULE_FIELDS>]?: unknown };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
const length = (text: string) => [...text].length;

function textOf(value: unknown): string | null {
  if (isBlank(value)) return null;
  return typeof value === 'string' ? value.trim() : String(value);
}

function amountOf(value: unknown): number | null | 'invalid' {
  if (isBlank(value)) return null;
  const text = decimalText(value);
  if (text === null || text.startsWith('-') || /\.\d{3,}/.test(text.replace(/0+$/, ''))) return 'invalid';
  const paise = toPaise(text);
  return paise <= 0 || paise > TRANSACTION_AMOUNT_MAX ? 'invalid' : paise;
}

/**
 * The validated rule (text trimmed, blanks null, money in paise), or every failing field.
 * `patternProblem` judges the pattern: the server passes `patternError` (`@kosh/domain/rule-engine`,
 * which brings the RE2 engine); the web's form leaves it to the server's 422 and ships no engine.
 */
export function parseRule(
  input: RuleInput,
  patternProblem: (pattern: string) => string | null,
): { ok: true; value: RuleFields } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const add = (field: string, message: string) => errors.push({ field, message });
  const name = textOf(input.name);
  if (name === null) add('name', RULE_MESSAGES.nameRequired);
  else if (length(name) > RULE_NAME_MAX_LENGTH) add('name', RULE_MESSAGES.nameTooLong);
  // The pattern is kept as typed (spaces may matter); only a blank one is none.
  const matchText = textOf(input.match_text);
  if (matchText !== null && length(matchText) > RULE_TEXT_MAX_LENGTH)
    add('match_text', RULE_MESSAGES.textTooLong);
  const matchPattern = isBlank(input.match_pattern) ? null : String(input.match_pattern);
  const problem = matchPattern === null ? null : patternProblem(matchPattern);
  if (problem) add('match_pattern', problem);
  const amountMin = amountOf(input.amount_min);
  const amountMax = amountOf(input.amount_max);
  if (amountMin === 'invalid') add('amount_min', RULE_MESSAGES.amountInvalid);
  if (amountMax === 'invalid') add('amount_max', RULE_MESSAGES.amountInvalid);
  if (typeof amountMin === 'number' && typeof amountMax === 'number' && amountMax < amountMin)
    add('amount_max', RULE_MESSAGES.amountOrder);
  const accountId = textOf(input.account_id);
  if (accountId !== null && !UUID.test(accountId)) add('account_id', RULE_MESSAGES.accountNotFound);
  const type = textOf(input.transaction_type);
  if (type !== null && type !== 'C' && type !== 'D') add('transaction_type', RULE_MESSAGES.typeInvalid);
  const categoryId = textOf(input.category_id);
  if (categoryId !== null && !UUID.test(categoryId)) add('category_id', RULE_MESSAGES.categoryNotFound);
  const payee = textOf(input.payee);
  if (payee !== null && length(payee) > RULE_TEXT_MAX_LENGTH) add('payee', RULE_MESSAGES.payeeTooLong);
  const conditions = [matchText, matchPattern, amountMin, amountMax, accountId, type];
  if (conditions.every((c) => c === null)) add('match_text', RULE_MESSAGES.noCondition);
  if (categoryId === null && payee === null) add('category_id', RULE_MESSAGES.noAction);
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      name: name as string,
      matchText,
      matchPattern,
      amountMin: amountMin as number | null,
      amountMax: amountMax as number | null,
      accountId: accountId?.toLowerCase() ?? null,
      transactionType: type as 'C' | 'D' | null,
      categoryId: categoryId?.toLowerCase() ?? null,
      payee,
    },
  };
}
