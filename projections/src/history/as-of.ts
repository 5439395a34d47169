import type { RecordedEvent } from '@kosh/domain';
import type { Db, Queryable } from '@kosh/event-store';
import { accountsProjection } from '../accounts/projector';
import { budgetsProjection } from '../budgets/projector';
import { categoriesProjection } from '../categories/projector';
import { ledgerProjection } from '../ledger/projector';
import { loansProjection } from '../loans/projector';
import { recurringProjection } from '../recurring/projector';
import type { Projection } from '../runner/types';
import { schedulesProjection } from '../schedules/projector';
import { transactionsProjection } from '../transactions/projector';
import { userEventsOfMonthUpTo, userEventsUpTo } from './queries';

/**
 * "As of" answers: the read models as they stood at an instant, made by the projectors
 * themselves. In one transaction, empty temporary copies of the read models' tables shadow the
 * live ones (temporary tables come first in PostgreSQL's name lookup, and every projector and
 * query uses unqualified names), each projector's `apply` folds the user's events up to the
 * instant into them, and the route's own query runs on them. The copies die with the
 * transaction. No rule is written twice: the folds, the SQL and the wire mapping are the live ones.
 *
 * The catalog (names of lenders and loan types) is read live: entries are only ever added, so
 * a name a loan referred to then is the name it has now.
 *
 * Cost: the fold is linear in the user's events (measured in `npm run bench:history`). While it
 * runs, its transaction holds an xid, so the log's readers (the projections) hold back events
 * committed after it started until it ends; on PGlite it holds the one connection. Both last as
 * long as the answer takes.
 */
export const AS_OF_PROJECTIONS: readonly Projection[] = [
  transactionsProjection,
  ledgerProjection,
  loansProjection,
  schedulesProjection,
  accountsProjection,
  // Issue 31: a report as of an instant names and nests the categories as they stood then.
  categoriesProjection,
  budgetsProjection,
  recurringProjection,
];

/** `ledger_names` is the ledger's copy of the catalog: read live, like the catalog. */
const LIVE_TABLES = new Set(['ledger_names']);

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The read models an as-of answer can be made from (names of their projections). */
export type AsOfReadModel =
  | 'transactions'
  | 'ledger'
  | 'loans'
  | 'schedules'
  | 'accounts'
  | 'categories'
  | 'budgets'
  | 'recurring';

/**
 * Folds `events` into fresh shadow copies of the read models named in `models`, then runs
 * `read` on them. Every read model's tables are shadowed, the others left empty: a read of one
 * not named finds nothing rather than today's rows.
 */
export async function readReplayed<T>(
  db: Db,
  events: readonly RecordedEvent[],
  models: readonly AsOfReadModel[],
  read: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ schema: string }>('SELECT current_schema() AS schema');
    const live = rows[0]?.schema ?? 'public';
    const folded = AS_OF_PROJECTIONS.filter((p) => models.includes(p.name as AsOfReadModel));
    const copies = AS_OF_PROJECTIONS.flatMap((p) =>
      p.tables
        .filter((t) => !LIVE_TABLES.has(t))
        // Tables nothing is folded into stay empty: their columns suffice, not their indexes.
        .map(
          (t) => `${quote(t)} (LIKE ${quote(live)}.${quote(t)}${folded.includes(p) ? ' INCLUDING ALL' : ''})`,
        ),
    );
    await tx.query(copies.map((c) => `CREATE TEMP TABLE ${c} ON COMMIT DROP;`).join('\n'));
    // A statement prepared on this connection earlier (the projectors' `prepared` ones) keeps the
    // tables it was parsed against: a new table of the same name earlier in the path does not
    // re-parse it (PostgreSQL's PREPARE docs), so the fold would write into the live read models
    // and the read find its copies empty. A changed search_path does re-parse it, here and again
    // once the transaction ends and the path is back.
    await tx.query(`SELECT set_config('search_path', 'pg_temp, ' || current_setting('search_path'), true)`);
    for (const projection of folded) {
      const handles = new Set(projection.handles);
      // Catalog events stay out: the catalog is read live (see above).
      const handled = events.filter((e) => handles.has(e.type) && !e.type.endsWith('Added'));
      if (handled.length > 0) await projection.apply(tx, handled);
      // Temporary tables get no statistics of their own: a large fold needs them for good plans.
      if (handled.length > 2000)
        await tx.query(
          `ANALYZE ${projection.tables
            .filter((t) => !LIVE_TABLES.has(t))
            .map(quote)
            .join(', ')}`,
        );
    }
    return read(tx);
  });
}

/**
 * What an as-of answer reads, when less than everything: `transactionMonth` (YYYY-MM), a read of
 * that month's ledger rows only, so only the transactions ever dated in it are replayed.
 */
export type AsOfScope = Readonly<{ transactionMonth?: string }>;

/** The user's read models named in `models` as of `asOf` (an ISO instant), for `read`. */
export async function readAsOf<T>(
  db: Db,
  userId: string,
  asOf: string,
  models: readonly AsOfReadModel[],
  read: (tx: Queryable) => Promise<T>,
  scope: AsOfScope = {},
): Promise<T> {
  const types = [
    ...new Set(
      AS_OF_PROJECTIONS.filter((p) => models.includes(p.name as AsOfReadModel)).flatMap((p) => p.handles),
    ),
  ];
  const events =
    scope.transactionMonth === undefined
      ? await userEventsUpTo(db, userId, asOf, types)
      : await userEventsOfMonthUpTo(db, userId, asOf, types, scope.transactionMonth);
  return readReplayed(db, events, models, read);
}
