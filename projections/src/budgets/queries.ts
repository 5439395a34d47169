import { type BudgetStanding, budgetStanding, LOAN_EMI_KEY, monthRange } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { reportCategories, spendingByMonthAndCategory } from '../reports/spending';
import { BUDGET_COLUMNS, type BudgetRow, budgetFromDb, type DbBudgetRow } from './projector';

export type { BudgetRow } from './projector';

/** A budget with its category's name (and its parent's), as the screens show it. */
export type BudgetView = BudgetRow &
  Readonly<{
    categoryName: string;
    parentName: string | null;
    /** The category was merged away or deleted since: nothing is spent in it any more. */
    categoryGone: boolean;
  }>;

type DbBudgetView = DbBudgetRow & {
  category_name: string | null;
  parent_name: string | null;
  category_gone: boolean;
};

const VIEW = `SELECT ${BUDGET_COLUMNS}, c.name AS category_name, p.name AS parent_name,
         coalesce(c.deleted, true) AS category_gone
    FROM budgets b
    LEFT JOIN categories c ON c.id = b.category_id
    LEFT JOIN categories p ON p.id = c.parent_id`;

const viewOf = (r: DbBudgetView): BudgetView => ({
  ...budgetFromDb(r),
  categoryName: r.category_name ?? 'Deleted category',
  parentName: r.parent_name,
  categoryGone: r.category_gone,
});

/** The user's budgets, by category name. */
export async function listBudgets(db: Queryable, userId: string): Promise<BudgetView[]> {
  const { rows } = await db.query<DbBudgetView>(
    `${VIEW} WHERE b.user_id = $1 AND NOT b.deleted ORDER BY coalesce(p.name, c.name), p.name IS NOT NULL, c.name, b.id`,
    [userId],
  );
  return rows.map(viewOf);
}

/** The user's own budget, or null (also for another user's id). */
export async function getBudget(db: Queryable, userId: string, id: string): Promise<BudgetView | null> {
  const { rows } = await db.query<DbBudgetView>(
    `${VIEW} WHERE b.user_id = $1 AND b.id = $2::uuid AND NOT b.deleted`,
    [userId, id],
  );
  return rows[0] ? viewOf(rows[0]) : null;
}

/** The id of the user's budget for a category, or null. */
export async function budgetOfCategory(
  db: Queryable,
  userId: string,
  categoryId: string,
): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id::text AS id FROM budgets WHERE user_id = $1 AND category_id = $2::uuid AND NOT deleted LIMIT 1',
    [userId, categoryId],
  );
  return rows[0]?.id ?? null;
}

export type BudgetStatus = BudgetView & Readonly<{ standing: BudgetStanding }>;

/**
 * Each budget's standing in `month` (YYYY-MM): what its category and subcategories spent then, as
 * the spending report counts it (loan payments under Loan EMI), against its amount and, with
 * rollover, what was left of the months since it started. One grouped read of the months needed.
 */
export async function budgetStatus(db: Queryable, userId: string, month: string): Promise<BudgetStatus[]> {
  const [budgets, categories] = await Promise.all([listBudgets(db, userId), reportCategories(db, userId)]);
  if (budgets.length === 0) return [];
  const first = budgets.reduce((min, b) => (b.rollover && b.startMonth < min ? b.startMonth : min), month);
  const loanEmi = categories.find((c) => c.systemKey === LOAN_EMI_KEY)?.id ?? null;
  const { endDate } = monthRange(Number(month.slice(0, 4)), Number(month.slice(5, 7)));
  const spends = await spendingByMonthAndCategory(db, userId, `${first}-01`, endDate, loanEmi);
  const parentOf = new Map(categories.map((c) => [c.id, c.parentId]));
  // month → category (rolled up to its parent too) → paise
  const spent = new Map<string, Map<string, number>>();
  for (const s of spends) {
    if (s.categoryId === null) continue;
    const byCategory = spent.get(s.month) ?? new Map<string, number>();
    spent.set(s.month, byCategory);
    const parent = parentOf.get(s.categoryId) ?? null;
    for (const id of parent === null ? [s.categoryId] : [s.categoryId, parent])
      byCategory.set(id, (byCategory.get(id) ?? 0) + s.amount);
  }
  return budgets.map((budget) => ({
    ...budget,
    standing: budgetStanding(budget, month, (m) => spent.get(m)?.get(budget.categoryId) ?? 0),
  }));
}
