/**
 * Budget rules and their messages (issue 31), shared by the API (422 errors) and the form. Not in
 * the package's index: the web imports `@kosh/domain/validation/budget` so these stay in the
 * Budgets screen's chunk, out of the one every route (the sign-in one too) loads.
 */
import { BUDGET_NOT_FOUND } from '../budget/decide';
import type { BudgetTerms } from '../budget/events';
import { toPaise } from '../money/paise';
import type { FieldError } from '../shared/errors';
import { isUuid } from './account';

/** ₹1,00,00,000.00 a month: more is a typing slip. */
export const BUDGET_AMOUNT_MAX = 1_000_000_000;

export const BUDGET_MESSAGES = {
  categoryRequired: 'Category is required',
  categoryInvalid: 'Choose one of your expense categories',
  categoryTaken: 'This category already has a budget',
  categoryFixed: 'A budget keeps its category: delete it and set one for the other category',
  amountRequired: 'Amount is required',
  amountPositive: 'Amount must be greater than 0',
  amountDecimals: 'Amount can have maximum 2 decimal places',
  amountTooLarge: 'Amount cannot exceed 1,00,00,000.00 a month',
  rolloverInvalid: 'Rollover must be on or off',
  budgetNotFound: BUDGET_NOT_FOUND,
} as const;

export type BudgetInput = { category_id?: unknown; amount?: unknown; rollover?: unknown };

const amountText = (value: unknown): string | null => {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim().replace(/,/g, '');
  return text === '' ? null : text;
};

/** The body's amount and rollover (a missing rollover is off), or the per-field errors. */
export function parseBudgetTerms(
  body: BudgetInput,
): { ok: true; value: BudgetTerms } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const text = amountText(body.amount);
  let amount = 0;
  if (text === null) errors.push({ field: 'amount', message: BUDGET_MESSAGES.amountRequired });
  else if (!/^-?\d+(\.\d+)?$/.test(text) || Number(text) <= 0)
    errors.push({ field: 'amount', message: BUDGET_MESSAGES.amountPositive });
  else if (/\.\d{3,}$/.test(text)) errors.push({ field: 'amount', message: BUDGET_MESSAGES.amountDecimals });
  else {
    amount = toPaise(text);
    if (amount > BUDGET_AMOUNT_MAX) errors.push({ field: 'amount', message: BUDGET_MESSAGES.amountTooLarge });
  }
  const r = body.rollover;
  const rollover =
    r === undefined || r === null || r === false || r === 0 || r === '0' || r === 'false'
      ? false
      : r === true || r === 1 || r === '1' || r === 'true'
        ? true
        : null;
  if (rollover === null) errors.push({ field: 'rollover', message: BUDGET_MESSAGES.rolloverInvalid });
  return errors.length > 0
    ? { ok: false, errors }
    : { ok: true, value: { amount, rollover: rollover as boolean } };
}

/** The body's category id, well formed (whose it is, the route checks), or its error. */
export function parseBudgetCategory(
  body: BudgetInput,
): { ok: true; value: string } | { ok: false; errors: FieldError[] } {
  const id = typeof body.category_id === 'string' ? body.category_id.trim() : body.category_id;
  if (id === undefined || id === null || id === '')
    return { ok: false, errors: [{ field: 'category_id', message: BUDGET_MESSAGES.categoryRequired }] };
  if (!isUuid(id))
    return { ok: false, errors: [{ field: 'category_id', message: BUDGET_MESSAGES.categoryInvalid }] };
  return { ok: true, value: id.toLowerCase() };
}
