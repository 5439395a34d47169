import { type Paise, toDecimalString } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import type { RowChange } from '../runner/row-projection';

/**
 * `transaction_months` (issue 31, migration 009): the book summed per user, month, type and
 * category, kept by the transactions projection in the batch that changes the rows, so the
 * spending report sums whole months from it and reads the rows of a range's partial months only.
 */

/** What a batch adds to one cell (negative: what leaves it). `month`: the month's first day. */
export type MonthDelta = Readonly<{
  userId: string;
  month: string;
  type: 'C' | 'D';
  categoryId: string | null;
  amount: Paise;
  count: number;
}>;

/** What a cell reads of a transaction's row (projector.ts `TransactionRow`). */
type CellRow = Readonly<{
  userId: string;
  transactionDate: string;
  transactionType: 'C' | 'D';
  categoryId?: string | null;
  amount: Paise;
}>;

/** The first day of a business date's month. */
export const monthOf = (date: string) => `${date.slice(0, 7)}-01`;

/**
 * Each cell's change: the rows after added, the rows before taken away. A change that keeps a
 * row's cell and amount (its notes, say) adds nothing.
 */
export function monthsDeltaOf(changes: readonly RowChange<CellRow>[]): MonthDelta[] {
  const deltas = new Map<string, MonthDelta>();
  const add = (row: CellRow, sign: 1 | -1) => {
    const cell = {
      userId: row.userId,
      month: monthOf(row.transactionDate),
      type: row.transactionType,
      categoryId: row.categoryId ?? null,
    };
    const key = JSON.stringify(cell);
    const was = deltas.get(key);
    deltas.set(key, {
      ...cell,
      amount: (was?.amount ?? 0) + sign * row.amount,
      count: (was?.count ?? 0) + sign,
    });
  };
  for (const { before, after } of changes) {
    if (before) add(before, -1);
    if (after) add(after, 1);
  }
  return [...deltas.values()].filter((d) => d.amount !== 0 || d.count !== 0);
}

/** The records of `monthsDeltaOf` for `ADD_TO_MONTHS` (amounts as decimal rupees). */
export const monthRecords = (deltas: readonly MonthDelta[]) =>
  deltas.map((d) => ({ ...d, amount: toDecimalString(d.amount) }));

/**
 * Adds the changes of cells in `$param` (records of `monthRecords`) or, with `from`, the rows of
 * that query (columns user_id, month, transaction_type, category_id, amount, count); answers
 * the owners of cells whose count reached 0 (`emptied`).
 */
export const ADD_TO_MONTHS = (
  source: { param: string } | { from: string },
) => `INSERT INTO transaction_months AS m
       (user_id, month, transaction_type, category_id, amount, count)
     ${
       'param' in source
         ? `SELECT r."userId", r."month", r."type", r."categoryId", r."amount", r."count"
       FROM jsonb_to_recordset(${source.param}::jsonb) AS r("userId" text, "month" date, "type" char(1),
            "categoryId" uuid, "amount" numeric, "count" bigint)`
         : `SELECT user_id, month, transaction_type, category_id, amount, count FROM ${source.from}`
     }
     ON CONFLICT (user_id, transaction_type, month, category_id) DO UPDATE SET
       amount = m.amount + EXCLUDED.amount, count = m.count + EXCLUDED.count
     RETURNING m.user_id AS emptied_user_id, m.count = 0 AS emptied`;

/** Removes the cells of `userIds` whose count reached 0 (a rebuild never makes them). */
export async function dropEmptyMonths(tx: Queryable, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx.query('DELETE FROM transaction_months WHERE user_id = ANY($1::text[]) AND count = 0', [
    [...new Set(userIds)],
  ]);
}

/**
 * Runs `update`, an UPDATE of `transactions t` that re-categorises rows and RETURNs
 * `t.id, t.user_id, t.transaction_date, t.transaction_type, t.amount` with `before` (the
 * category the row had: read from a self-join, which sees the rows as they were before the
 * statement) and `after` (`t.category_id`), and, in the same statement, moves the cells of what
 * it moved and notes that the event at `position` moved those rows (`transaction_category_moves`:
 * the transaction's History shows it).
 */
export async function recategorise(
  tx: Queryable,
  update: string,
  params: readonly unknown[],
  position: string,
): Promise<void> {
  const { rows } = await tx.query<{ emptied_user_id: string; emptied: boolean }>(
    `WITH moved AS (${update}),
     noted AS (
       INSERT INTO transaction_category_moves (user_id, transaction_id, position)
       SELECT user_id, id, $${params.length + 1} FROM moved WHERE before IS DISTINCT FROM after
       ON CONFLICT DO NOTHING
     ),
     delta AS (
       SELECT user_id, date_trunc('month', transaction_date)::date AS month, transaction_type, category_id,
              sum(amount) AS amount, sum(n) AS count
         FROM (SELECT user_id, transaction_date, transaction_type, before AS category_id, -amount AS amount, -1 AS n
                 FROM moved WHERE before IS DISTINCT FROM after
               UNION ALL
               SELECT user_id, transaction_date, transaction_type, after, amount, 1
                 FROM moved WHERE before IS DISTINCT FROM after) AS d
        GROUP BY 1, 2, 3, 4
       HAVING sum(n) <> 0 OR sum(amount) <> 0
     )
     ${ADD_TO_MONTHS({ from: 'delta' })}`,
    [...params, position],
  );
  await dropEmptyMonths(
    tx,
    rows.filter((r) => r.emptied).map((r) => r.emptied_user_id),
  );
}
