import {
  type ActualScheduleRow,
  assertNever,
  type EmiMark,
  evolvePayments,
  type LoanStreamEvent,
  loanStreamEventTypes,
  type Paise,
  type ScheduleRow,
  type ScheduleTotals,
  toDecimalString,
  upcastLoanEvent,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { rowProjection } from '../runner/row-projection';

/**
 * A schedule row as read: an EMI (`emi` = principal + interest + gst), or in a revised schedule a
 * prepayment, foreclosure or pre-EMI interest row (`emi` = what left the account, charge included;
 * `paymentNumber` = the EMI before it).
 */
export type ScheduleViewRow = ScheduleRow &
  Readonly<{
    kind: ActualScheduleRow['kind'];
    charge: Paise;
    /** Annual rate in force (revised schedules), else null. */
    annualRatePercent: number | null;
  }>;

/** A loan's current schedule (rows omitted when only the header was loaded). */
export type ScheduleView = Readonly<{
  loanId: string;
  userId: string;
  version: number;
  reason: string;
  /** `emi`: everything paid, charges included; `numberOfPayments`: the EMIs. */
  totals: ScheduleTotals & Readonly<{ charges: Paise }>;
  generatedAt: string;
  /** Date of the last row (last EMI or foreclosure). */
  closedOn: string | null;
  rows: readonly ScheduleViewRow[];
  /** Marks and matches of EMIs and pre-EMI interest, in the order made, whatever the schedule version. */
  marks: readonly EmiMark[];
  constructionCompletedOn: string | null;
}>;

const emiRow = (row: ScheduleRow): ScheduleViewRow => ({
  ...row,
  kind: 'emi',
  charge: 0,
  annualRatePercent: null,
});

const revisedRow = (row: ActualScheduleRow): ScheduleViewRow => ({
  kind: row.kind,
  paymentNumber: row.paymentNumber,
  emiDate: row.date,
  principal: row.principal,
  interest: row.interest,
  gst: row.gst,
  charge: row.charge,
  emi: row.amount,
  remainingPrincipal: row.remainingPrincipal,
  annualRatePercent: row.annualRatePercent,
});

/**
 * Pure fold: the newest schedule version wins (a redelivered or older version changes nothing),
 * whether generated from the terms or revised after changes; paid EMIs carry over; deleting the
 * loan removes it.
 */
export function evolveSchedule(current: ScheduleView | null, stored: LoanStreamEvent): ScheduleView | null {
  const event = upcastLoanEvent(stored);
  switch (event.type) {
    case 'ScheduleGenerated':
    case 'ScheduleRevised': {
      const d = event.data;
      if (current && d.version <= current.version) return current;
      const rows =
        event.type === 'ScheduleGenerated' ? event.data.rows.map(emiRow) : event.data.rows.map(revisedRow);
      const totals =
        event.type === 'ScheduleGenerated'
          ? { ...event.data.totals, charges: 0 }
          : {
              principal: event.data.totals.principal,
              interest: event.data.totals.interest,
              gst: event.data.totals.gst,
              emi: event.data.totals.amount,
              numberOfPayments: event.data.totals.numberOfEmis,
              charges: event.data.totals.charges,
            };
      return {
        loanId: d.loanId,
        userId: d.userId,
        version: d.version,
        reason: d.reason,
        totals,
        generatedAt: d.generatedAt,
        closedOn: rows[rows.length - 1]?.emiDate ?? null,
        rows,
        marks: current?.marks ?? [],
        constructionCompletedOn: current?.constructionCompletedOn ?? null,
      };
    }
    case 'EmiMarkedPaid':
    case 'EmisMarkedPaidUpTo':
    case 'EmiMatched':
    case 'EmiMarkedMissed':
    case 'EmiMarkUndone':
    case 'EmiMatchReleased':
    case 'PreEmiInterestPaid':
    case 'ConstructionCompleted': {
      if (!current) return current;
      const before = { marks: current.marks, constructionCompletedOn: current.constructionCompletedOn };
      const after = evolvePayments(before, event);
      return after === before ? current : { ...current, ...after };
    }
    case 'LoanDeleted':
      return null;
    case 'LoanCreated':
    case 'LoanUpdated':
    case 'LoanPrepaid':
    case 'LoanRateChanged':
    case 'EmiOverridden':
    case 'LoanForeclosed':
      return current;
    default:
      return assertNever(event);
  }
}

/** The headers with every mark (an undo needs them all), not the rows. */
async function loadHeaders(tx: Queryable, ids: readonly string[]): Promise<Map<string, ScheduleView>> {
  const [{ rows }, marks] = await Promise.all([
    tx.query<{ loan_id: string; user_id: string; version: number; construction_completed_on: string | null }>(
      `SELECT loan_id::text AS loan_id, user_id, version,
              to_char(construction_completed_on, 'YYYY-MM-DD') AS construction_completed_on
         FROM loan_schedules WHERE loan_id = ANY($1::uuid[])`,
      [ids],
    ),
    marksOf(tx, ids),
  ]);
  const empty: ScheduleView['totals'] = {
    principal: 0,
    interest: 0,
    gst: 0,
    emi: 0,
    numberOfPayments: 0,
    charges: 0,
  };
  return new Map(
    rows.map((r) => [
      r.loan_id,
      {
        loanId: r.loan_id,
        userId: r.user_id,
        version: Number(r.version),
        reason: '',
        totals: empty,
        generatedAt: '',
        closedOn: null,
        rows: [],
        marks: marks.get(r.loan_id) ?? [],
        constructionCompletedOn: r.construction_completed_on,
      },
    ]),
  );
}

/** The marks of these loans, in the order made. */
export async function marksOf(db: Queryable, loanIds: readonly string[]): Promise<Map<string, EmiMark[]>> {
  const byLoan = new Map<string, EmiMark[]>();
  if (loanIds.length === 0) return byLoan;
  const { rows } = await db.query<{ loan_id: string; mark: EmiMark }>(
    'SELECT loan_id::text AS loan_id, mark FROM loan_emi_marks WHERE loan_id = ANY($1::uuid[]) ORDER BY loan_id, seq',
    [loanIds],
  );
  for (const r of rows) byLoan.set(r.loan_id, [...(byLoan.get(r.loan_id) ?? []), r.mark]);
  return byLoan;
}

async function saveSchedules(tx: Queryable, schedules: readonly ScheduleView[]): Promise<void> {
  if (schedules.length === 0) return;
  const ids = schedules.map((s) => s.loanId);
  await tx.query('DELETE FROM loan_schedule_rows WHERE loan_id = ANY($1::uuid[])', [ids]);
  const headers = schedules.map((s) => ({
    loanId: s.loanId,
    userId: s.userId,
    version: s.version,
    reason: s.reason,
    principal: toDecimalString(s.totals.principal),
    interest: toDecimalString(s.totals.interest),
    gst: toDecimalString(s.totals.gst),
    emi: toDecimalString(s.totals.emi),
    numberOfPayments: s.totals.numberOfPayments,
    charges: toDecimalString(s.totals.charges),
    generatedAt: s.generatedAt,
    closedOn: s.closedOn,
  }));
  await tx.query(
    `INSERT INTO loan_schedules (loan_id, user_id, version, reason, principal, interest, gst, emi,
       number_of_payments, charges, generated_at, closed_on)
     SELECT r."loanId", r."userId", r."version", r."reason", r."principal", r."interest", r."gst", r."emi",
            r."numberOfPayments", r."charges", r."generatedAt", r."closedOn"
       FROM jsonb_to_recordset($1::jsonb) AS r("loanId" uuid, "userId" text, "version" integer, "reason" text,
            "principal" numeric, "interest" numeric, "gst" numeric, "emi" numeric, "numberOfPayments" integer,
            "charges" numeric, "generatedAt" timestamptz, "closedOn" date)
     ON CONFLICT (loan_id) DO UPDATE SET
       version = EXCLUDED.version, reason = EXCLUDED.reason, principal = EXCLUDED.principal,
       interest = EXCLUDED.interest, gst = EXCLUDED.gst, emi = EXCLUDED.emi,
       number_of_payments = EXCLUDED.number_of_payments, charges = EXCLUDED.charges,
       generated_at = EXCLUDED.generated_at, closed_on = EXCLUDED.closed_on`,
    [JSON.stringify(headers)],
  );
  // Rows as parallel arrays: far smaller and faster to parse than one JSON object per row.
  const columns = {
    loanId: [] as string[],
    userId: [] as string[],
    version: [] as number[],
    paymentNumber: [] as number[],
    emiDate: [] as string[],
    principal: [] as string[],
    interest: [] as string[],
    gst: [] as string[],
    emi: [] as string[],
    remaining: [] as string[],
    seq: [] as number[],
    kind: [] as string[],
    charge: [] as string[],
    rate: [] as (number | null)[],
  };
  for (const s of schedules) {
    for (const [index, row] of s.rows.entries()) {
      columns.seq.push(index + 1);
      columns.kind.push(row.kind);
      columns.charge.push(toDecimalString(row.charge));
      columns.rate.push(row.annualRatePercent);
      columns.loanId.push(s.loanId);
      columns.userId.push(s.userId);
      columns.version.push(s.version);
      columns.paymentNumber.push(row.paymentNumber);
      columns.emiDate.push(row.emiDate);
      columns.principal.push(toDecimalString(row.principal));
      columns.interest.push(toDecimalString(row.interest));
      columns.gst.push(toDecimalString(row.gst));
      columns.emi.push(toDecimalString(row.emi));
      columns.remaining.push(toDecimalString(row.remainingPrincipal));
    }
  }
  await tx.query(
    `INSERT INTO loan_schedule_rows (loan_id, user_id, version, payment_number, emi_date, principal, interest, gst,
       emi, remaining_principal, seq, kind, charge, annual_rate)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::int[], $5::date[], $6::numeric[], $7::numeric[],
       $8::numeric[], $9::numeric[], $10::numeric[], $11::int[], $12::text[], $13::numeric[], $14::numeric[])`,
    [
      columns.loanId,
      columns.userId,
      columns.version,
      columns.paymentNumber,
      columns.emiDate,
      columns.principal,
      columns.interest,
      columns.gst,
      columns.emi,
      columns.remaining,
      columns.seq,
      columns.kind,
      columns.charge,
      columns.rate,
    ],
  );
}

/** Replaces the marks (and the construction date) of the loans whose marks moved. */
async function saveMarks(tx: Queryable, schedules: readonly ScheduleView[]): Promise<void> {
  if (schedules.length === 0) return;
  const ids = schedules.map((s) => s.loanId);
  await tx.query('DELETE FROM loan_emi_marks WHERE loan_id = ANY($1::uuid[])', [ids]);
  const records = schedules.flatMap((s) =>
    s.marks.map((mark, index) => ({
      loanId: s.loanId,
      markId: mark.markId,
      userId: s.userId,
      seq: index + 1,
      mark,
      transactionId: mark.kind === 'matched' ? mark.transactionId : null,
    })),
  );
  if (records.length > 0)
    await tx.query(
      `INSERT INTO loan_emi_marks (loan_id, mark_id, user_id, seq, mark, transaction_id)
       SELECT r."loanId", r."markId", r."userId", r."seq", r."mark", r."transactionId"
         FROM jsonb_to_recordset($1::jsonb) AS r("loanId" uuid, "markId" text, "userId" text, "seq" integer,
              "mark" jsonb, "transactionId" text)`,
      [JSON.stringify(records)],
    );
  await tx.query(
    `UPDATE loan_schedules h SET construction_completed_on = r."on"
       FROM jsonb_to_recordset($1::jsonb) AS r("loanId" uuid, "on" date) WHERE h.loan_id = r."loanId"`,
    [JSON.stringify(schedules.map((s) => ({ loanId: s.loanId, on: s.constructionCompletedOn })))],
  );
}

/** Current schedules: per batch one read, then replace the schedules whose version moved on. */
export const schedulesProjection = rowProjection({
  name: 'schedules',
  handles: loanStreamEventTypes,
  tables: ['loan_schedules', 'loan_schedule_rows', 'loan_emi_marks'],
  migrations: new URL('./migrations', import.meta.url),
  // Its writes find a loan's rows and marks by the primary keys (`loan_id` first).
  deferredIndexes: ['loan_schedule_rows_by_date', 'loan_emi_marks_by_transaction'],
  keyOf: (event) => event.data.loanId,
  evolve: evolveSchedule,
  load: loadHeaders,
  async write(tx, changes) {
    const removed: string[] = [];
    const saved: ScheduleView[] = [];
    const marked: ScheduleView[] = [];
    for (const { key, before, after } of changes) {
      if (after === null) {
        removed.push(key);
        continue;
      }
      if (after.version !== before?.version) saved.push(after);
      if (
        after.marks !== before?.marks ||
        after.constructionCompletedOn !== (before?.constructionCompletedOn ?? null)
      )
        marked.push(after);
    }
    if (removed.length > 0) {
      await tx.query('DELETE FROM loan_schedule_rows WHERE loan_id = ANY($1::uuid[])', [removed]);
      await tx.query('DELETE FROM loan_schedules WHERE loan_id = ANY($1::uuid[])', [removed]);
      await tx.query('DELETE FROM loan_emi_marks WHERE loan_id = ANY($1::uuid[])', [removed]);
    }
    await saveSchedules(tx, saved);
    await saveMarks(tx, marked);
  },
});
