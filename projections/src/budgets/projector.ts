import {
  assertNever,
  BUDGET_EVENT_TYPES,
  type BudgetEvent,
  fromPaise,
  type Paise,
  type RecordedEvent,
  toPaise,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { rowProjection } from '../runner/row-projection';

/** A budget's amount from a month (YYYY-MM) on. */
export type BudgetAmount = Readonly<{ from: string; amount: Paise }>;

/** One row of `budgets`; instants ISO-8601 UTC. */
export type BudgetRow = Readonly<{
  id: string;
  userId: string;
  categoryId: string;
  amount: Paise;
  rollover: boolean;
  startMonth: string;
  amounts: readonly BudgetAmount[];
  createdAt: string;
  updatedAt: string;
  deleted: boolean;
  version: number;
}>;

type Versioned = Pick<RecordedEvent, 'streamVersion'>;

/** Pure fold of one budget's events into its row (null before it is set). */
export function evolveBudgetRow(row: BudgetRow | null, event: BudgetEvent & Versioned): BudgetRow | null {
  if (row && event.streamVersion <= row.version) return row;
  const version = event.streamVersion;
  switch (event.type) {
    case 'BudgetSet': {
      const d = event.data;
      return {
        id: d.budgetId,
        userId: d.userId,
        categoryId: d.categoryId,
        amount: d.amount,
        rollover: d.rollover,
        startMonth: d.startMonth,
        amounts: [{ from: d.startMonth, amount: d.amount }],
        createdAt: d.setAt,
        updatedAt: d.setAt,
        deleted: false,
        version,
      };
    }
    case 'BudgetChanged': {
      if (!row) return row;
      const { changes, fromMonth, changedAt } = event.data;
      const amount = changes.amount ?? row.amount;
      // A second change in the same month replaces that month's amount.
      const amounts =
        changes.amount === undefined
          ? row.amounts
          : [...row.amounts.filter((a) => a.from < fromMonth), { from: fromMonth, amount }];
      return {
        ...row,
        amount,
        rollover: changes.rollover ?? row.rollover,
        amounts,
        updatedAt: changedAt,
        version,
      };
    }
    case 'BudgetDeleted':
      return row && { ...row, deleted: true, updatedAt: event.data.deletedAt, version };
    default:
      return assertNever(event);
  }
}

export const BUDGET_COLUMNS = `b.id::text AS id, b.user_id, b.category_id::text AS category_id, b.amount::text AS amount,
  b.rollover, b.start_month, b.amounts,
  to_char(b.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(b.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at, b.deleted, b.version`;

export type DbBudgetRow = {
  id: string;
  user_id: string;
  category_id: string;
  amount: string;
  rollover: boolean;
  start_month: string;
  amounts: BudgetAmount[];
  created_at: string;
  updated_at: string;
  deleted: boolean;
  version: number;
};

export const budgetFromDb = (r: DbBudgetRow): BudgetRow => ({
  id: r.id,
  userId: r.user_id,
  categoryId: r.category_id,
  amount: toPaise(r.amount),
  rollover: r.rollover,
  startMonth: r.start_month,
  amounts: r.amounts,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  deleted: r.deleted,
  version: Number(r.version),
});

/** The user's budgets: one row per budget stream. */
export const budgetsProjection = rowProjection({
  name: 'budgets',
  handles: BUDGET_EVENT_TYPES,
  tables: ['budgets'],
  migrations: new URL('./migrations', import.meta.url),
  keyOf: (event) => event.data.budgetId,
  evolve: evolveBudgetRow,
  async load(tx: Queryable, ids) {
    const { rows } = await tx.query<DbBudgetRow>(
      `SELECT ${BUDGET_COLUMNS} FROM budgets b WHERE b.id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, budgetFromDb(r)]));
  },
  async write(tx, changes) {
    const rows = changes.flatMap((c) => (c.after ? [{ ...c.after, amount: fromPaise(c.after.amount) }] : []));
    if (rows.length === 0) return;
    await tx.query(
      `INSERT INTO budgets (id, user_id, category_id, amount, rollover, start_month, amounts, created_at, updated_at,
         deleted, version)
       SELECT r."id", r."userId", r."categoryId", r."amount", r."rollover", r."startMonth", r."amounts",
              r."createdAt", r."updatedAt", r."deleted", r."version"
         FROM jsonb_to_recordset($1::jsonb) AS r("id" uuid, "userId" text, "categoryId" uuid, "amount" numeric(14, 2),
              "rollover" boolean, "startMonth" text, "amounts" jsonb, "createdAt" timestamptz,
              "updatedAt" timestamptz, "deleted" boolean, "version" integer)
       ON CONFLICT (id) DO UPDATE SET amount = EXCLUDED.amount, rollover = EXCLUDED.rollover,
         amounts = EXCLUDED.amounts, updated_at = EXCLUDED.updated_at, deleted = EXCLUDED.deleted,
         version = EXCLUDED.version`,
      [JSON.stringify(rows)],
    );
  },
});
