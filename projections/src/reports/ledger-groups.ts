import { LOAN_EMI_KEY, type Paise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import type { LedgerLine } from '../ledger/queries';
import { type ReportCategory, reportCategories } from './spending';
import { LOAN_EMI_NAME, UNCATEGORISED } from './tree';

/** A ledger side's entries of one category. */
export type LedgerGroup = Readonly<{
  categoryId: string | null;
  name: string;
  total: Paise;
  entryIds: string[];
}>;

/** "Parent › Child" for a subcategory. */
const labelOf = (category: ReportCategory, byId: ReadonlyMap<string, ReportCategory>) => {
  const parent = category.parentId === null ? undefined : byId.get(category.parentId);
  return parent ? `${parent.name} › ${category.name}` : category.name;
};

/**
 * The ledger's "group by category" (issue 31): each entry under its transaction's category,
 * loan payments under Loan EMI, the rest Uncategorised; groups by total, largest first, entries
 * in the side's own order. Reads the categories of the side's transactions once.
 */
export async function groupLedgerByCategory(
  db: Queryable,
  userId: string,
  entries: readonly LedgerLine[],
): Promise<LedgerGroup[]> {
  const transactionIds = entries.filter((e) => e.kind === 'transaction').map((e) => e.id);
  const [categories, assigned] = await Promise.all([
    reportCategories(db, userId),
    transactionIds.length === 0
      ? Promise.resolve({ rows: [] as { id: string; category_id: string | null }[] })
      : db.query<{ id: string; category_id: string | null }>(
          `SELECT id::text AS id, category_id::text AS category_id FROM transactions
            WHERE user_id = $1 AND id = ANY($2::uuid[])`,
          [userId, transactionIds],
        ),
  ]);
  const byId = new Map(categories.map((c) => [c.id, c]));
  const categoryOf = new Map(assigned.rows.map((r) => [r.id, r.category_id]));
  const loanEmi = categories.find((c) => c.systemKey === LOAN_EMI_KEY) ?? null;
  const groups = new Map<
    string,
    { categoryId: string | null; name: string; total: Paise; entryIds: string[] }
  >();
  for (const entry of entries) {
    let category: ReportCategory | null = null;
    let key = '';
    let name = UNCATEGORISED;
    if (entry.kind !== 'transaction') {
      category = loanEmi;
      key = LOAN_EMI_KEY;
      name = LOAN_EMI_NAME;
    } else {
      category = byId.get(categoryOf.get(entry.id) ?? '') ?? null;
    }
    if (category) {
      key = category.id;
      name = labelOf(category, byId);
    }
    const group = groups.get(key) ?? { categoryId: category?.id ?? null, name, total: 0, entryIds: [] };
    group.total += entry.amount;
    group.entryIds.push(entry.id);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
}
