import { loanDecider, loanStreamId } from '@kosh/domain';
import { createPgDb, type Db, eventStoreMigrations, migrate } from '@kosh/event-store';
import { createTestDatabase, type TestDatabase } from '@kosh/event-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogProjection } from '../catalog/projector';
import { migrationSources } from '../registry';
import { later, loanFields, loanId, now, seededCatalog, userId } from '../runner/testing/fixtures';
import { recordedStream } from '../runner/testing/read-model-spec';
import { schedulesProjection } from '../schedules/projector';
import { loansProjection } from './projector';
import { getLoanStats, listLoansWithFigures } from './queries';

/**
 * The loan list and the loan totals are named statements: PostgreSQL parses them once per
 * connection and, after five runs, keeps one generic plan. A statement whose plan for its own
 * values looks cheaper than the generic one (an array of ids, a LIMIT, a date in sight of the
 * planner) is planned again on every run instead: at 10,000 users that made the loan list twice
 * as slow as its thin query (bench:scale), with the plan itself at 0.035 ms.
 */
describe('loan reads keep their generic plans', () => {
  let database: TestDatabase | undefined;
  let one: Db | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrate(database.db, [eventStoreMigrations, ...migrationSources]);
    const stream = recordedStream(loanDecider, loanStreamId(loanId), userId);
    const events = stream.decide(
      {
        type: 'CreateLoan',
        data: { loanId, userId, fields: { ...loanFields, emisAutoDebited: false }, now },
      },
      {
        type: 'MarkEmiPaid',
        data: {
          loanId,
          userId,
          markId: 'mark-1',
          paymentNumber: 1,
          paidOn: '2025-02-15',
          amount: 550000,
          now: later,
        },
      },
    );
    await database.db.transaction(async (tx) => {
      await catalogProjection.apply(tx, seededCatalog());
      await loansProjection.apply(tx, events);
      await schedulesProjection.apply(tx, events);
    });
    // One connection, so its prepared statements are the ones counted.
    one = createPgDb(database.url, { max: 1 });
  });

  afterAll(async () => {
    await one?.close();
    await database?.drop();
  });

  it('plans the loan list, its standings and the loan totals once, not on every read', async () => {
    const db = one as Db;
    const query = {
      page: 1,
      limit: 10,
      sortBy: 'created_at',
      sortOrder: 'DESC',
      search: null,
      bankId: null,
      loanTypeId: null,
    } as const;
    for (let i = 0; i < 12; i++) {
      const today = `2025-${String(3 + (i % 9)).padStart(2, '0')}-20`;
      const list = await listLoansWithFigures(db, userId, query, today);
      expect(list.rows.map((r) => r.loan.id)).toEqual([loanId]);
      // An EMI a month from March: the first is marked paid, the others are overdue.
      expect(list.rows[0]?.standing?.overdueEmis).toBe(1 + (i % 9));
      const stats = await getLoanStats(db, userId, today);
      expect(stats.overdueEmis).toBe(1 + (i % 9));
    }
    const { rows } = await db.query<{ statement: string; generic_plans: number; custom_plans: number }>(
      `SELECT statement, generic_plans::int AS generic_plans, custom_plans::int AS custom_plans
         FROM pg_prepared_statements WHERE NOT from_sql`,
    );
    // The list, the standings' flags, the present parts and the EMIs of a judged loan at least.
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const r of rows) {
      expect({ statement: r.statement.slice(0, 80), custom: r.custom_plans }).toEqual({
        statement: r.statement.slice(0, 80),
        custom: 5,
      });
    }
  });
});
