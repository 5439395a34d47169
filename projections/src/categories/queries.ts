import type { Queryable } from '@kosh/event-store';
import { type CategoryRow, categoryColumns, categoryFromDb, type DbCategoryRow } from './projector';

export type CategoryWithCount = CategoryRow & Readonly<{ transactionCount: number }>;

/**
 * The user's live categories, top-level ones first (income, then expense), each followed by
 * its subcategories, by position; with how many transactions each holds (the transactions read
 * model).
 */
export async function listCategories(db: Queryable, userId: string): Promise<CategoryWithCount[]> {
  const { rows } = await db.query<DbCategoryRow & { transaction_count: string | number }>(
    `SELECT ${categoryColumns('c')},
            coalesce(n.count, 0) AS transaction_count
       FROM categories c
       LEFT JOIN categories p ON p.id = c.parent_id
       LEFT JOIN (SELECT category_id, count(*) AS count FROM transactions
                   WHERE user_id = $1 AND category_id IS NOT NULL GROUP BY category_id) n ON n.category_id = c.id
      WHERE c.user_id = $1 AND NOT c.deleted
      ORDER BY c.kind DESC, coalesce(p.position, c.position), coalesce(p.id, c.id),
               c.parent_id IS NOT NULL, c.position, c.id`,
    [userId],
  );
  return rows.map((r) => ({ ...categoryFromDb(r), transactionCount: Number(r.transaction_count) }));
}

/** One of the user's live categories, or null. */
export async function getCategory(
  db: Queryable,
  userId: string,
  id: string,
): Promise<CategoryWithCount | null> {
  const all = await listCategories(db, userId);
  return all.find((c) => c.id === id) ?? null;
}
