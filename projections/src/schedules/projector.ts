import {
  assertNever,
  type LoanEvent,
  loanEventTypes,
  type ScheduleRow,
  type ScheduleTotals,
  toDecimalString,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store/db';
import type { Projection } from '../runner/types';

/** A loan's current schedule (rows omitted when only the header was loaded). */
export type ScheduleView = Readonly<{
  loanId: string;
  userId: string;
  version: number;
  reason: string;
  totals: ScheduleTotals;
  generatedAt: string;
  rows: readonly ScheduleRow[];
}>;

/**
 * Pure fold: the newest schedule version wins (a redelivered or older version changes nothing);
 * deleting the loan removes it.
 */
export function evolveSchedule(current: ScheduleView | null, event: LoanEvent): ScheduleView | null {
  switch (event.type) {
    case 'ScheduleGenerated': {
      const d = event.data;
      if (current && d.version <= current.version) return current;
      return {
        loanId: d.loanId,
        userId: d.userId,
        version: d.version,
        reason: d.reason,
        totals: d.totals,
        generatedAt: d.generatedAt,
        rows: d.rows,
      };
    }
    case 'LoanDeleted':
      return null;
    case 'LoanCreated':
    case 'LoanUpdated':
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
  const empty: ScheduleTotals = { principal: 0, interest: 0, gst: 0, emi: 0, numberOfPayments: 0 };
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
        rows: [],
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
    generatedAt: s.generatedAt,
  }));
  await tx.query(
    `INSERT INTO loan_schedules (loan_id, user_id, version, reason, principal, interest, gst, emi,
       number_of_payments, generated_at)
     SELECT r."loanId", r."userId", r."version", r."reason", r."principal", r."interest", r."gst", r."emi",
            r."numberOfPayments", r."generatedAt"
       FROM jsonb_to_recordset($1::jsonb) AS r("loanId" uuid, "userId" text, "version" integer, "reason" text,
            "principal" numeric, "interest" numeric, "gst" numeric, "emi" numeric, "numberOfPayments" integer,
            "generatedAt" timestamptz)
     ON CONFLICT (loan_id) DO UPDATE SET
       version = EXCLUDED.version, reason = EXCLUDED.reason, principal = EXCLUDED.principal,
       interest = EXCLUDED.interest, gst = EXCLUDED.gst, emi = EXCLUDED.emi,
       number_of_payments = EXCLUDED.number_of_payments, generated_at = EXCLUDED.generated_at`,
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
  };
  for (const s of schedules) {
    for (const row of s.rows) {
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
       emi, remaining_principal)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::int[], $5::date[], $6::numeric[], $7::numeric[],
       $8::numeric[], $9::numeric[], $10::numeric[])`,
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
    ],
  );
}

/** Current schedules: per batch one read, then replace the schedules whose version moved on. */
export const schedulesProjection: Projection = {
  name: 'schedules',
  handles: loanEventTypes,
  tables: ['loan_schedules', 'loan_schedule_rows'],
  async apply(tx, events) {
    const loanEvents = events as unknown as LoanEvent[];
    const ids = [...new Set(loanEvents.map((e) => e.data.loanId))];
    const before = await loadHeaders(tx, ids);
    const current = new Map<string, ScheduleView | null>();
    for (const event of loanEvents) {
      const id = event.data.loanId;
      const schedule = current.has(id) ? (current.get(id) ?? null) : (before.get(id) ?? null);
      current.set(id, evolveSchedule(schedule, event));
    }
    const removed: string[] = [];
    const saved: ScheduleView[] = [];
    for (const [id, after] of current) {
      if (after === (before.get(id) ?? null)) continue;
      if (after === null) removed.push(id);
      else saved.push(after);
    }
    if (removed.length > 0) {
      await tx.query('DELETE FROM loan_schedule_rows WHERE loan_id = ANY($1::uuid[])', [removed]);
      await tx.query('DELETE FROM loan_schedules WHERE loan_id = ANY($1::uuid[])', [removed]);
    }
    await saveSchedules(tx, saved);
  },
};
