import {
  assertNever,
  LOAN_FIELDS,
  type LoanDetails,
  type LoanStreamEvent,
  loanStreamEventTypes,
  type RecordedEvent,
  upcastLoanEvent,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { columnsOf } from '../runner/columns';
import { foldRows, rowProjection, splitChanges } from '../runner/row-projection';

/** One row of `loans`. Money in paise; instants ISO-8601 UTC. */
export type LoanRow = LoanDetails &
  Readonly<{
    id: string;
    userId: string;
    createdAt: string;
    updatedAt: string;
    scheduleVersion: number;
    /** Stream version of the last event folded in (the ETag). */
    version: number;
  }>;

export type VersionedLoanEvent = LoanStreamEvent & Pick<RecordedEvent, 'streamVersion'>;

/** Pure fold of one loan's events into its row (null before it is created and once deleted). */
export function evolveLoanRow(row: LoanRow | null, stored: VersionedLoanEvent): LoanRow | null {
  if (row && stored.streamVersion <= row.version) return row;
  const event = { ...upcastLoanEvent(stored), streamVersion: stored.streamVersion };
  const version = event.streamVersion;
  switch (event.type) {
    case 'LoanCreated': {
      if (row) return row;
      const { loanId, userId, createdAt, ...details } = event.data;
      return { ...details, id: loanId, userId, createdAt, updatedAt: createdAt, scheduleVersion: 0, version };
    }
    case 'LoanUpdated':
      return row ? { ...row, ...event.data.changes, updatedAt: event.data.updatedAt, version } : null;
    case 'ScheduleGenerated':
    case 'ScheduleRevised':
      return row
        ? { ...row, scheduleVersion: Math.max(row.scheduleVersion, event.data.version), version }
        : null;
    // Changes after the start move the version (the ETag) and the time of the last change.
    case 'LoanPrepaid':
    case 'LoanRateChanged':
    case 'EmiOverridden':
    case 'LoanForeclosed':
    case 'EmiMarkedPaid':
    case 'EmisMarkedPaidUpTo':
    case 'EmiMatched':
    case 'EmiMarkedMissed':
    case 'EmiMarkUndone':
    case 'EmiMatchReleased':
    case 'PreEmiInterestPaid':
    case 'ConstructionCompleted':
      return row ? { ...row, updatedAt: event.data.recordedAt, version } : null;
    case 'LoanDeleted':
      return null;
    default:
      return assertNever(event);
  }
}

/** The columns of the loan's declared fields (`LOAN_FIELDS`). */
const FIELD_COLUMNS = columnsOf(LOAN_FIELDS);

export const LOAN_COLUMNS = `l.id::text AS id, l.user_id, ${FIELD_COLUMNS.select('l')},
  to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(l.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at,
  l.schedule_version, l.version`;

/** A row as `LOAN_COLUMNS` reads it: the fields' columns (see `columnsOf`) and the row's own. */
export type DbLoanRow = Readonly<Record<string, unknown>> & {
  id: string;
  user_id: string;
  created_at: string;
  updated_at: string;
  schedule_version: number;
  version: number;
};

export function loanFromDb(r: DbLoanRow): LoanRow {
  // The fields' record, fresh, completed in place (a spread copied every property again).
  const row = FIELD_COLUMNS.fromSql(r) as Record<string, unknown>;
  row.id = r.id;
  row.userId = r.user_id;
  row.createdAt = r.created_at;
  row.updatedAt = r.updated_at;
  row.scheduleVersion = Number(r.schedule_version);
  row.version = Number(r.version);
  return row as LoanRow;
}

async function loadRows(tx: Queryable, ids: readonly string[]): Promise<Map<string, LoanRow>> {
  const { rows } = await tx.query<DbLoanRow>(
    `SELECT ${LOAN_COLUMNS} FROM loans l WHERE l.id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, loanFromDb(r)]));
}

const SAVE_ROWS = `INSERT INTO loans (id, user_id, ${FIELD_COLUMNS.insert}, created_at, updated_at,
       schedule_version, version)
     SELECT r."id", r."userId", ${FIELD_COLUMNS.values}, r."createdAt", r."updatedAt", r."scheduleVersion",
            r."version"
       FROM jsonb_to_recordset($1::jsonb) AS r("id" uuid, "userId" text, ${FIELD_COLUMNS.recordset},
            "createdAt" timestamptz, "updatedAt" timestamptz, "scheduleVersion" integer, "version" integer)
     ON CONFLICT (id) DO UPDATE SET ${FIELD_COLUMNS.update}, updated_at = EXCLUDED.updated_at,
       schedule_version = EXCLUDED.schedule_version, version = EXCLUDED.version`;

async function saveRows(tx: Queryable, rows: readonly LoanRow[]): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((r) => ({ ...r, ...FIELD_COLUMNS.toRecord(r) }));
  await tx.query(SAVE_ROWS, [JSON.stringify(records)]);
}

const loanIdOf = (event: VersionedLoanEvent) => event.data.loanId;

/**
 * Folds a batch over the rows it touches: returns the rows whose fold changed (null = remove).
 * An event delivered twice is a no-op (its stream version is not above the row's).
 */
export function foldLoanBatch(
  before: ReadonlyMap<string, LoanRow>,
  events: readonly VersionedLoanEvent[],
): Map<string, LoanRow | null> {
  return new Map(foldRows(before, events, loanIdOf, evolveLoanRow).map(({ key, after }) => [key, after]));
}

/** The loan list: one read and at most two writes per batch. */
export const loansProjection = rowProjection({
  name: 'loans',
  handles: loanStreamEventTypes,
  tables: ['loans'],
  migrations: new URL('./migrations', import.meta.url),
  // Its writes look loans up by id; the list's orders wait for the end of a rebuild.
  deferredIndexes: [
    'loans_by_account',
    'loans_by_bank',
    'loans_by_created',
    'loans_by_end',
    'loans_by_loan_type',
    'loans_by_principal',
    'loans_by_rate',
    'loans_by_start',
  ],
  keyOf: loanIdOf,
  evolve: evolveLoanRow,
  load: loadRows,
  async write(tx, changes) {
    const { removed, saved } = splitChanges(changes);
    if (removed.length > 0) await tx.query('DELETE FROM loans WHERE id = ANY($1::uuid[])', [removed]);
    await saveRows(tx, saved);
  },
});
