import { type Paise, toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { monthSpan } from './month-span';

/** A category of the user's tree as a report names it. */
export type ReportCategory = Readonly<{
  id: string;
  name: string;
  kind: 'income' | 'expense';
  parentId: string | null;
  systemKey: string | null;
  position: number;
}>;

type CategoryRow = {
  id: string;
  name: string;
  kind: 'income' | 'expense';
  parent_id: string | null;
  system_key: string | null;
  position: number;
};

const categoryOf = (r: CategoryRow): ReportCategory => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  parentId: r.parent_id,
  systemKey: r.system_key,
  position: Number(r.position),
});

/** The user's live categories: `$1` the user. */
const CATEGORIES = `SELECT id::text AS id, name, kind, parent_id::text AS parent_id, system_key, position
   FROM categories WHERE user_id = $1 AND NOT deleted`;

/** The user's live categories (names and tree only: no counts). */
export async function reportCategories(db: Queryable, userId: string): Promise<ReportCategory[]> {
  const { rows } = await db.query<CategoryRow>(CATEGORIES, [userId], { prepared: true });
  return rows.map(categoryOf);
}

/** Money spent in one category (null: none) over a range, and in how many debits. */
export type CategorySpend = Readonly<{ categoryId: string | null; amount: Paise; count: number }>;

/** A debit matched to an EMI, by id: text in `loan_emi_marks`, a UUID in the book. */
const MATCHED_DEBITS = `SELECT m.transaction_id::uuid FROM loan_emi_marks m
   WHERE m.user_id = $1 AND m.transaction_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`;

/**
 * The period's spending in one statement (one round trip, planned once per connection): the
 * book's debits by category (`part` 'book') and the loans' payments (`part` 'loans', one row).
 * The debits are the whole months' cells of `transaction_months`, the rows of the days at the
 * edges (`$4`–`$7`, null when there are none), less the debits matched to an EMI over the whole
 * period (few: one per EMI at most, found by id). The loans' payments are the ledger's loan
 * entries of the period (ledger migration 004: an index of those rows alone).
 */
const SPENDING = `SELECT 'book' AS part, category_id::text AS category_id, sum(amount)::text AS amount, sum(n)::int AS count
   FROM (SELECT category_id, amount, count AS n FROM transaction_months
          WHERE user_id = $1 AND transaction_type = 'D' AND month BETWEEN $2::date AND $3::date
         UNION ALL
         SELECT category_id, amount, 1 FROM transactions
          WHERE user_id = $1 AND transaction_type = 'D' AND transaction_date BETWEEN $4::date AND $5::date
         UNION ALL
         SELECT category_id, amount, 1 FROM transactions
          WHERE user_id = $1 AND transaction_type = 'D' AND transaction_date BETWEEN $6::date AND $7::date
         UNION ALL
         SELECT category_id, -amount, -1 FROM transactions
          WHERE user_id = $1 AND transaction_type = 'D' AND transaction_date BETWEEN $8::date AND $9::date
            AND id IN (${MATCHED_DEBITS})) AS d
  GROUP BY category_id
 HAVING sum(n) <> 0
 UNION ALL
 SELECT 'loans', NULL, coalesce(sum(amount), 0)::text, count(*)::int FROM ledger_entries
  WHERE user_id = $1 AND side = 'D' AND kind <> 'transaction' AND entry_date BETWEEN $8::date AND $9::date`;

/** The parameters of `SPENDING` for `from`–`to`. */
function spendingParams(userId: string, from: string, to: string): unknown[] {
  const span = monthSpan(from, to);
  const [before, after] = span.edges;
  return [
    userId,
    span.months?.[0] ?? null,
    span.months?.[1] ?? null,
    before?.[0] ?? null,
    before?.[1] ?? null,
    after?.[0] ?? null,
    after?.[1] ?? null,
    from,
    to,
  ];
}

type SpendingRow = { part: 'book' | 'loans'; category_id: string | null; amount: string; count: number };
export type Spent = { categories: CategorySpend[]; loanPayments: { amount: Paise; count: number } };

/**
 * The spending report's reads in one statement (a round trip, not two): the user's categories
 * (`part` 'category') and `SPENDING`'s rows.
 */
const CATEGORIES_AND_SPENDING = `SELECT 'category' AS part, c.*, NULL::text AS category_id, NULL::text AS amount, NULL::int AS count
   FROM (${CATEGORIES}) AS c
 UNION ALL
 SELECT s.part, NULL, NULL, NULL, NULL, NULL, NULL, s.category_id, s.amount, s.count FROM (${SPENDING}) AS s`;

/**
 * What the user spent from `from` to `to` (inclusive), as the ledger debits it, with the user's
 * category tree (`reportCategories`, as `tree`): every debit of the transaction book by its
 * category, except a debit matched to an EMI (the EMI counts it), and the loans' payments (EMIs,
 * part-payments, foreclosures) apart. Transfers between own accounts are not debits of the book.
 * Nothing reads a long period row by row: the book's whole months come from
 * `transaction_months` (month-span.ts), the loans' payments from the ledger's loan entries.
 */
export async function categoriesAndSpending(
  db: Queryable,
  userId: string,
  from: string,
  to: string,
): Promise<{ tree: ReportCategory[] } & Spent> {
  const statement = categoriesAndSpendingStatement(userId, from, to);
  const { rows } = await db.query<Record<string, unknown>>(statement.text, statement.values, {
    prepared: true,
  });
  return statement.parse(rows);
}

/**
 * `categoriesAndSpending` as a statement and the reading of its rows, for a caller that runs it
 * inside a larger one (command-api's read-ahead: the request's checkpoint tags in the same round
 * trip).
 */
export function categoriesAndSpendingStatement(
  userId: string,
  from: string,
  to: string,
): {
  text: string;
  values: unknown[];
  parse: (rows: readonly Record<string, unknown>[]) => { tree: ReportCategory[] } & Spent;
} {
  return { text: CATEGORIES_AND_SPENDING, values: spendingParams(userId, from, to), parse: parseSpent };
}

function parseSpent(rows: readonly Record<string, unknown>[]): { tree: ReportCategory[] } & Spent {
  const tree: ReportCategory[] = [];
  const categories: CategorySpend[] = [];
  let loanPayments = { amount: toPaise('0'), count: 0 };
  for (const row of rows as readonly ((CategoryRow & { part: 'category' }) | (SpendingRow & CategoryRow))[]) {
    if (row.part === 'category') tree.push(categoryOf(row));
    else if (row.part === 'loans') loanPayments = { amount: toPaise(row.amount), count: Number(row.count) };
    else
      categories.push({ categoryId: row.category_id, amount: toPaise(row.amount), count: Number(row.count) });
  }
  return { tree, categories, loanPayments };
}

/** What one month spent in one category (null: none), for budgets' rollover. */
export type MonthCategorySpend = CategorySpend & Readonly<{ month: string }>;

/**
 * `categoriesAndSpending`'s spending month by month (`month`: YYYY-MM) from `from` to `to`; loan
 * payments under the category id `loanEmiId` (the system's Loan EMI category, when the user has
 * one).
 */
export async function spendingByMonthAndCategory(
  db: Queryable,
  userId: string,
  from: string,
  to: string,
  loanEmiId: string | null,
): Promise<MonthCategorySpend[]> {
  const { rows } = await db.query<{
    month: string;
    category_id: string | null;
    amount: string;
    count: number;
  }>(
    `SELECT to_char(t.transaction_date, 'YYYY-MM') AS month, t.category_id::text AS category_id,
            sum(t.amount)::text AS amount, count(*)::int AS count
       FROM transactions t
      WHERE t.user_id = $1 AND t.transaction_type = 'D' AND t.transaction_date BETWEEN $2::date AND $3::date
        AND NOT EXISTS (SELECT 1 FROM loan_emi_marks m WHERE m.user_id = $1 AND m.transaction_id = t.id::text)
      GROUP BY 1, 2
     UNION ALL
     SELECT to_char(entry_date, 'YYYY-MM'), $4::text, sum(amount)::text, count(*)::int FROM ledger_entries
      WHERE user_id = $1 AND entry_date BETWEEN $2::date AND $3::date AND side = 'D' AND kind <> 'transaction'
        AND $4::text IS NOT NULL
      GROUP BY 1`,
    [userId, from, to, loanEmiId],
  );
  return rows.map((r) => ({
    month: r.month,
    categoryId: r.category_id,
    amount: toPaise(r.amount),
    count: Number(r.count),
  }));
}
