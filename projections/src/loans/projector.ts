import {
  assertNever,
  type LoanDetails,
  type LoanStreamEvent,
  loanStreamEventTypes,
  type Paise,
  type RecordedEvent,
  toDecimalString,
  toPaise,
  upcastLoanEvent,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
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

export const LOAN_COLUMNS = `l.id::text AS id, l.user_id, l.bank_id, l.loan_type_id, l.account_number, l.short_detail,
  l.principal_amount::text AS principal_amount, l.interest_rate::text AS interest_rate, l.is_interest_rate_yearly,
  l.duration, l.is_duration_yearly, to_char(l.start_date, 'YYYY-MM-DD') AS start_date,
  to_char(l.end_date, 'YYYY-MM-DD') AS end_date, l.processing_fee::text AS processing_fee, l.has_gst,
  l.gst_percentage::text AS gst_percentage, l.emis_auto_debited, l.processing_fee_gst,
  to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(l.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at,
  l.schedule_version, l.version`;

export type DbLoanRow = {
  id: string;
  user_id: string;
  bank_id: number;
  loan_type_id: number;
  account_number: string;
  short_detail: string | null;
  principal_amount: string;
  interest_rate: string;
  is_interest_rate_yearly: boolean;
  duration: number;
  is_duration_yearly: boolean;
  start_date: string;
  end_date: string;
  processing_fee: string;
  has_gst: boolean;
  gst_percentage: string;
  emis_auto_debited: boolean;
  processing_fee_gst: boolean;
  created_at: string;
  updated_at: string;
  schedule_version: number;
  version: number;
};

export function loanFromDb(r: DbLoanRow): LoanRow {
  const paise = (text: string): Paise => toPaise(text);
  return {
    id: r.id,
    userId: r.user_id,
    bankId: Number(r.bank_id),
    loanTypeId: Number(r.loan_type_id),
    accountNumber: r.account_number,
    shortDetail: r.short_detail,
    principalAmount: paise(r.principal_amount),
    interestRate: Number(r.interest_rate),
    isInterestRateYearly: r.is_interest_rate_yearly,
    duration: Number(r.duration),
    isDurationYearly: r.is_duration_yearly,
    startDate: r.start_date,
    endDate: r.end_date,
    processingFee: paise(r.processing_fee),
    hasGst: r.has_gst,
    gstPercentage: Number(r.gst_percentage),
    emisAutoDebited: r.emis_auto_debited,
    processingFeeGst: r.processing_fee_gst,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    scheduleVersion: Number(r.schedule_version),
    version: Number(r.version),
  };
}

async function loadRows(tx: Queryable, ids: readonly string[]): Promise<Map<string, LoanRow>> {
  const { rows } = await tx.query<DbLoanRow>(
    `SELECT ${LOAN_COLUMNS} FROM loans l WHERE l.id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, loanFromDb(r)]));
}

async function saveRows(tx: Queryable, rows: readonly LoanRow[]): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((r) => ({
    ...r,
    principalAmount: toDecimalString(r.principalAmount),
    processingFee: toDecimalString(r.processingFee),
  }));
  await tx.query(
    `INSERT INTO loans (id, user_id, bank_id, loan_type_id, account_number, short_detail, principal_amount,
       interest_rate, is_interest_rate_yearly, duration, is_duration_yearly, start_date, end_date, processing_fee,
       has_gst, gst_percentage, emis_auto_debited, processing_fee_gst, created_at, updated_at, schedule_version,
       version)
     SELECT r."id", r."userId", r."bankId", r."loanTypeId", r."accountNumber", r."shortDetail", r."principalAmount",
            r."interestRate", r."isInterestRateYearly", r."duration", r."isDurationYearly", r."startDate",
            r."endDate", r."processingFee", r."hasGst", r."gstPercentage", r."emisAutoDebited",
            r."processingFeeGst", r."createdAt", r."updatedAt",
            r."scheduleVersion", r."version"
       FROM jsonb_to_recordset($1::jsonb) AS r("id" uuid, "userId" text, "bankId" integer, "loanTypeId" integer,
            "accountNumber" text, "shortDetail" text, "principalAmount" numeric, "interestRate" numeric,
            "isInterestRateYearly" boolean, "duration" integer, "isDurationYearly" boolean, "startDate" date,
            "endDate" date, "processingFee" numeric, "hasGst" boolean, "gstPercentage" numeric,
            "emisAutoDebited" boolean, "processingFeeGst" boolean,
            "createdAt" timestamptz, "updatedAt" timestamptz, "scheduleVersion" integer, "version" integer)
     ON CONFLICT (id) DO UPDATE SET
       bank_id = EXCLUDED.bank_id, loan_type_id = EXCLUDED.loan_type_id, account_number = EXCLUDED.account_number,
       short_detail = EXCLUDED.short_detail, principal_amount = EXCLUDED.principal_amount,
       interest_rate = EXCLUDED.interest_rate, is_interest_rate_yearly = EXCLUDED.is_interest_rate_yearly,
       duration = EXCLUDED.duration, is_duration_yearly = EXCLUDED.is_duration_yearly,
       start_date = EXCLUDED.start_date, end_date = EXCLUDED.end_date, processing_fee = EXCLUDED.processing_fee,
       has_gst = EXCLUDED.has_gst, gst_percentage = EXCLUDED.gst_percentage,
       emis_auto_debited = EXCLUDED.emis_auto_debited, processing_fee_gst = EXCLUDED.processing_fee_gst,
       updated_at = EXCLUDED.updated_at,
       schedule_version = EXCLUDED.schedule_version, version = EXCLUDED.version`,
    [JSON.stringify(records)],
  );
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
  keyOf: loanIdOf,
  evolve: evolveLoanRow,
  load: loadRows,
  async write(tx, changes) {
    const { removed, saved } = splitChanges(changes);
    if (removed.length > 0) await tx.query('DELETE FROM loans WHERE id = ANY($1::uuid[])', [removed]);
    await saveRows(tx, saved);
  },
});
