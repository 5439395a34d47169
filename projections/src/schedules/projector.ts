import {
  type ActualScheduleRow,
  assertNever,
  type LoanStreamEvent,
  loanStreamEventTypes,
  type PaidEmi,
  type Paise,
  type ScheduleRow,
  type ScheduleTotals,
  toDecimalString,
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
  /** EMIs marked paid, whatever the schedule version. */
  paid: readonly PaidEmi[];
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
export function evolveSchedule(current: ScheduleView | null, event: LoanStreamEvent): ScheduleView | null {
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
        paid: current?.paid ?? [],
      };
    }
    case 'EmiMarkedPaid': {
      const { paymentNumber, paidOn, amount, transactionId } = event.data;
      if (!current || current.paid.some((emi) => emi.paymentNumber === paymentNumber)) return current;
      return { ...current, paid: [...current.paid, { paymentNumber, paidOn, amount, transactionId }] };
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

async function loadHeaders(tx: Queryable, ids: readonly string[]): Promise<Map<string, ScheduleView>> {
  const { rows } = await tx.query<{ loan_id: string; user_id: string; version: number }>(
    'SELECT loan_id::text AS loan_id, user_id, version FROM loan_schedules WHERE loan_id = ANY($1::uuid[])',
    [ids],
  );
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
        paid: [],
      },
    ]),
  );
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

async function savePaid(tx: Queryable, paid: readonly (PaidEmi & { loanId: string; userId: string })[]) {
  if (paid.length === 0) return;
  const records = paid.map((p) => ({ ...p, amount: toDecimalString(p.amount) }));
  await tx.query(
    `INSERT INTO loan_paid_emis (loan_id, payment_number, user_id, paid_on, amount, transaction_id)
     SELECT r."loanId", r."paymentNumber", r."userId", r."paidOn", r."amount", r."transactionId"
       FROM jsonb_to_recordset($1::jsonb) AS r("loanId" uuid, "paymentNumber" integer, "userId" text,
            "paidOn" date, "amount" numeric, "transactionId" text)
     ON CONFLICT (loan_id, payment_number) DO NOTHING`,
    [JSON.stringify(records)],
  );
}

/** Current schedules: per batch one read, then replace the schedules whose version moved on. */
export const schedulesProjection = rowProjection({
  name: 'schedules',
  handles: loanStreamEventTypes,
  tables: ['loan_schedules', 'loan_schedule_rows', 'loan_paid_emis'],
  migrations: new URL('./migrations', import.meta.url),
  keyOf: (event) => event.data.loanId,
  evolve: evolveSchedule,
  load: loadHeaders,
  async write(tx, changes) {
    const removed: string[] = [];
    const saved: ScheduleView[] = [];
    const paid: (PaidEmi & { loanId: string; userId: string })[] = [];
    for (const { key, before, after } of changes) {
      if (after === null) {
        removed.push(key);
        continue;
      }
      if (after.version !== before?.version) saved.push(after);
      // Loaded headers carry no paid EMIs: the fold's list holds this batch's (a redelivery is a no-op).
      for (const emi of after.paid) paid.push({ ...emi, loanId: key, userId: after.userId });
    }
    if (removed.length > 0) {
      await tx.query('DELETE FROM loan_schedule_rows WHERE loan_id = ANY($1::uuid[])', [removed]);
      await tx.query('DELETE FROM loan_schedules WHERE loan_id = ANY($1::uuid[])', [removed]);
      await tx.query('DELETE FROM loan_paid_emis WHERE loan_id = ANY($1::uuid[])', [removed]);
    }
    await saveSchedules(tx, saved);
    await savePaid(tx, paid);
  },
});
