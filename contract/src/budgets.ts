import { type Static, Type } from 'typebox';
import { MessageResponse, success } from './envelope';
import { AsOfParam, IdParams, Loose, QueryText } from './request';

/**
 * Budgets (issue 31), wire names in snake_case: a monthly amount per expense category, with an
 * optional rollover of what is left. Body fields are loose so a bad value gets its own message
 * (domain/src/validation/budget.ts).
 */
export const BudgetBody = Type.Object({
  category_id: Loose('One of your expense categories (GET /api/categories); fixed once set'),
  amount: Loose('Rupees a month, more than 0, at most 2 decimals'),
  rollover: Type.Optional(
    Type.Union([Type.Boolean(), Type.String(), Type.Number(), Type.Null()], {
      description: 'true or 1: what is left of a month is added to the next (default off)',
    }),
  ),
});
export type BudgetBody = Static<typeof BudgetBody>;

const budgetFields = {
  id: Type.String(),
  category_id: Type.String(),
  category_name: Type.String(),
  parent_name: Type.Union([Type.String(), Type.Null()], { description: "The category's parent, if any" }),
  category_gone: Type.Boolean({ description: 'The category was merged away or deleted since' }),
  amount: Type.Number({ description: 'Rupees a month (today’s amount)' }),
  rollover: Type.Boolean(),
  start_month: Type.String({ description: 'YYYY-MM: the first month it counts' }),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const WireBudget = Type.Object(budgetFields);
export type WireBudget = Static<typeof WireBudget>;

export const BudgetParams = IdParams;
export const BudgetListResponse = success(Type.Object({ budgets: Type.Array(WireBudget) }));
export type BudgetListResponse = Static<typeof BudgetListResponse>;
export const BudgetResponse = success(Type.Object({ budget: WireBudget }));
export type BudgetResponse = Static<typeof BudgetResponse>;
export const BudgetDeletedResponse = MessageResponse;

export const BudgetStatusQuery = Type.Object({
  month: QueryText('1 to 12 (default the current month)'),
  year: QueryText('Four digits (default the current year)'),
  as_of: AsOfParam,
});
export type BudgetStatusQuery = Static<typeof BudgetStatusQuery>;

export const WireBudgetStatus = Type.Object({
  ...budgetFields,
  month_amount: Type.Number({
    description: "Rupees: the month's amount (a change counts from its month on)",
  }),
  carried: Type.Number({ description: 'Rupees left over from earlier months (rollover), else 0' }),
  available: Type.Number({ description: 'month_amount + carried' }),
  spent: Type.Number({ description: 'Rupees spent in the category and its subcategories that month' }),
  remaining: Type.Number({ description: 'available − spent; below 0 when overspent' }),
  overspent: Type.Boolean(),
  percent_used: Type.Number({ description: 'spent ÷ available × 100, one decimal' }),
});
export type WireBudgetStatus = Static<typeof WireBudgetStatus>;

export const BudgetStatusResponse = success(
  Type.Object({
    month: Type.Integer(),
    year: Type.Integer(),
    month_name: Type.String(),
    budgets: Type.Array(WireBudgetStatus, { description: 'Overspent first, then by share used' }),
    totals: Type.Object({ available: Type.Number(), spent: Type.Number(), remaining: Type.Number() }),
    overspent_count: Type.Integer(),
  }),
);
export type BudgetStatusResponse = Static<typeof BudgetStatusResponse>;
