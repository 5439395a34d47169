import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '@kosh/event-store';
import { createPgliteDb, eventStoreMigrations, migrate } from '@kosh/event-store';
import { createTestDatabase, type TestDatabase } from '@kosh/event-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSources } from '../registry';
import { addToNoteGrams } from './projector';
import { listTransactions, type TransactionListQuery } from './queries';

/**
 * Notes search reads the searching user's rows only, through the per-user trigram index (a
 * search of one or two characters: its count from the note pieces, its page from the sort
 * order's index), on both stores: another user with many matching rows (and a burst of new
 * ones, not yet analysed) changes neither the answer nor what the plan reads.
 */
const MINE = ['Swiggy order', 'Rent', 'Uber ride', 'Zomato order', 'Fruit juice'];
const MY_ROWS = 300;
const THEIR_ROWS = 20_000;

/** Rows straight into the read model, with the note pieces the projection keeps beside them. */
async function insertRows(db: Queryable, userId: string, notes: string[], count: number): Promise<void> {
  const { rows } = await db.query<{ notes: string }>(
    `INSERT INTO transactions (id, user_id, notes, transaction_type, transaction_date, amount, created_at,
                               updated_at, version)
     SELECT gen_random_uuid(), $1, ($2::text[])[1 + i % array_length($2::text[], 1)] || ' #' || i,
            CASE WHEN i % 5 = 0 THEN 'C' ELSE 'D' END, date '2020-01-01' + i % 1500, 100 + i % 997,
            timestamptz '2020-01-01T00:00:00Z' + i * interval '1 second',
            timestamptz '2020-01-01T00:00:00Z' + i * interval '1 second', 1
       FROM generate_series(1, $3::int) i
     RETURNING notes`,
    [userId, notes, count],
  );
  await addToNoteGrams(
    db,
    rows.map((r) => ({ userId, notes: r.notes, sign: 1 as const })),
  );
}

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
};

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** Runs each statement of `listTransactions` under EXPLAIN ANALYZE too, keeping the plans. */
function explaining(db: Queryable, plans: PlanNode[]): Queryable {
  return {
    async query(sql, params) {
      const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] | string }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
        params,
      );
      const raw = rows[0]?.['QUERY PLAN'];
      const plan = typeof raw === 'string' ? JSON.parse(raw) : raw;
      plans.push(plan[0].Plan);
      return db.query(sql, params);
    },
  } as Queryable;
}

const query = (search: string, page = 1): TransactionListQuery => ({
  page,
  limit: 10,
  search,
  transactionType: null,
  dateFrom: null,
  dateTo: null,
  sortBy: 'transaction_date',
  sortOrder: 'DESC',
});

/** Rows the plan read from `transactions` (scanned, filtered out or rechecked away), all loops. */
function rowsRead(plans: PlanNode[]): number {
  return plans
    .flatMap(nodesOf)
    .filter((n) => n['Relation Name'] === 'transactions')
    .reduce(
      (sum, n) =>
        sum +
        n['Actual Loops'] *
          (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)),
      0,
    );
}

describe.each(['postgres', 'embedded'] as const)('notes search (%s)', (mode) => {
  let database: TestDatabase | undefined;
  let db: Db;
  const me = randomUUID();
  const them = randomUUID();

  beforeAll(async () => {
    if (mode === 'postgres') {
      database = await createTestDatabase();
      db = database.db;
    } else {
      db = await createPgliteDb(undefined);
    }
    await migrate(db, [eventStoreMigrations, ...migrationSources]);
    await insertRows(db, me, MINE, MY_ROWS);
    await insertRows(db, them, ['Swiggy order', 'Quiz night', 'Fruit basket', 'Zoo tickets'], THEIR_ROWS);
    await db.query('ANALYZE transactions');
  });

  afterAll(async () => {
    if (database) await database.drop();
    else await db?.close();
  });

  it('has the per-user trigram index (the extensions load on both stores)', async () => {
    const { rows } = await db.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE tablename = 'transactions' AND indexname LIKE '%trgm%'",
    );
    expect(rows.map((r) => r.indexname)).toEqual(['transactions_notes_by_user_trgm']);
  });

  const expected = (search: string) =>
    Array.from({ length: MY_ROWS }, (_, k) => `${MINE[(k + 1) % MINE.length]} #${k + 1}`).filter((notes) =>
      notes.toLowerCase().includes(search.toLowerCase()),
    );

  for (const search of ['swiggy', 'ui', 'z', 'qx', 'ORDER', '#29']) {
    it(`"${search}": the user's matches only, reading none of the other user's rows`, async () => {
      for (const round of ['analysed', 'after a burst of writes']) {
        if (round !== 'analysed') await insertRows(db, them, ['Swiggy order', 'Fruit basket'], 5_000);
        const plans: PlanNode[] = [];
        const page = await listTransactions(explaining(db, plans), me, query(search));
        const want = expected(search);
        expect(page.totalItems, round).toBe(want.length);
        expect(page.rows.length, round).toBe(Math.min(10, want.length));
        for (const row of page.rows) {
          expect(row.userId).toBe(me);
          expect(want).toContain(row.notes);
        }
        const nodes = plans.flatMap(nodesOf);
        expect(
          nodes.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'transactions'),
          round,
        ).toEqual([]);
        // The user's own rows at most (a short pattern has no trigram: all of them), and the page.
        expect(rowsRead(plans), round).toBeLessThanOrEqual(MY_ROWS + 10);
      }
    });
  }
});
