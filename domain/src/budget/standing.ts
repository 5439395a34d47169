import type { Paise } from '../money/paise';

/** A budget's amount from a month (YYYY-MM) on. */
export type MonthlyAmount = Readonly<{ from: string; amount: Paise }>;

export type BudgetStanding = Readonly<{
  /** The month's budgeted amount. */
  amount: Paise;
  /** Left over from the months before and rolled into this one (0 without rollover). */
  carried: Paise;
  /** amount + carried. */
  available: Paise;
  spent: Paise;
  /** available − spent: below 0 when overspent. */
  remaining: Paise;
  overspent: boolean;
}>;

/** The month after `month` (YYYY-MM). */
export function nextMonth(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12
    ? `${String(y + 1).padStart(4, '0')}-01`
    : `${month.slice(0, 4)}-${String(m + 1).padStart(2, '0')}`;
}

/** The amount in force in `month`: the last set on or before it (before the first: the first). */
export function amountIn(amounts: readonly MonthlyAmount[], month: string): Paise {
  let amount = amounts[0]?.amount ?? 0;
  for (const a of amounts) if (a.from <= month) amount = a.amount;
  return amount;
}

/**
 * Where a budget stands in `month` given what its category spent each month (`spentIn`). With
 * rollover, what is left of each month from `startMonth` on is carried into the next; a month
 * overspent carries nothing (and takes nothing from the next). Integer paise throughout.
 */
export function budgetStanding(
  budget: Readonly<{ amounts: readonly MonthlyAmount[]; rollover: boolean; startMonth: string }>,
  month: string,
  spentIn: (month: string) => Paise,
): BudgetStanding {
  let carried = 0;
  if (budget.rollover) {
    for (let m = budget.startMonth; m < month; m = nextMonth(m)) {
      carried = Math.max(0, amountIn(budget.amounts, m) + carried - spentIn(m));
    }
  }
  const amount = amountIn(budget.amounts, month);
  const available = amount + carried;
  const spent = spentIn(month);
  return { amount, carried, available, spent, remaining: available - spent, overspent: spent > available };
}
