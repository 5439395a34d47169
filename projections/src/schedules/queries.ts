import { type EmiMark, emiStandings, loanStatus, overdueEmiCount, toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { marksOf, type ScheduleView, type ScheduleViewRow } from './projector';

export type { ScheduleView, ScheduleViewRow } from './projector';

type DbScheduleRow = {
  version: number;
  reason: string;
  total_principal: string;
  total_interest: string;
  total_gst: string;
  total_emi: string;
  total_charges: string;
  number_of_payments: number;
  generated_at: string;
  closed_on: string | null;
  construction_completed_on: string | null;
  payment_number: number | null;
  kind: ScheduleViewRow['kind'] | null;
  emi_date: string | null;
  principal: string | null;
  interest: string | null;
  gst: string | null;
  charge: string | null;
  emi: string | null;
  remaining_principal: string | null;
  annual_rate: string | null;
};

/**
 * The current schedule of the user's loan, or null (none yet, missing, or another user's).
 * One statement, so the header and the rows always come from the same version (one snapshot);
 * the header is its first row and the rows' header columns are null (a 600-row schedule
 * repeated eleven header columns on every row: half of what the driver parsed). The paid EMIs
 * come with it.
 */
export async function getSchedule(
  db: Queryable,
  userId: string,
  loanId: string,
): Promise<ScheduleView | null> {
  const [{ rows }, marks] = await Promise.all([
    db.query<DbScheduleRow>(
      `SELECT 0 AS part, NULL AS seq, h.version, h.reason, h.principal::text AS total_principal,
              h.interest::text AS total_interest, h.gst::text AS total_gst, h.emi::text AS total_emi,
              h.charges::text AS total_charges, h.number_of_payments,
              to_char(h.closed_on, 'YYYY-MM-DD') AS closed_on,
              to_char(h.construction_completed_on, 'YYYY-MM-DD') AS construction_completed_on,
              to_char(h.generated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS generated_at,
              NULL AS payment_number, NULL AS kind, NULL AS emi_date, NULL AS principal, NULL AS interest,
              NULL AS gst, NULL AS charge, NULL AS emi, NULL AS remaining_principal, NULL AS annual_rate
         FROM loan_schedules h
        WHERE h.user_id = $1 AND h.loan_id = $2::uuid
       UNION ALL
       SELECT 1, r.seq, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
              r.payment_number, r.kind, to_char(r.emi_date, 'YYYY-MM-DD'),
              r.principal::text, r.interest::text, r.gst::text, r.charge::text, r.emi::text,
              r.remaining_principal::text, r.annual_rate::text
         FROM loan_schedules h JOIN loan_schedule_rows r ON r.loan_id = h.loan_id
        WHERE h.user_id = $1 AND h.loan_id = $2::uuid
        ORDER BY part, seq`,
      [userId, loanId],
      { prepared: true },
    ),
    marksOf(db, [loanId]),
  ]);
  const h = rows[0];
  if (!h) return null;
  const scheduleRows: ScheduleViewRow[] = [];
  for (let i = 1; i < rows.length; i++) {
    const r = rows[i] as DbScheduleRow;
    scheduleRows.push({
      kind: r.kind ?? 'emi',
      paymentNumber: Number(r.payment_number),
      emiDate: r.emi_date as string,
      principal: toPaise(r.principal as string),
      interest: toPaise(r.interest as string),
      gst: toPaise(r.gst as string),
      charge: toPaise(r.charge ?? '0'),
      emi: toPaise(r.emi as string),
      remainingPrincipal: toPaise(r.remaining_principal as string),
      annualRatePercent: r.annual_rate === null ? null : Number(r.annual_rate),
    });
  }
  return {
    loanId,
    userId,
    version: Number(h.version),
    reason: h.reason,
    generatedAt: h.generated_at,
    closedOn: h.closed_on,
    totals: {
      principal: toPaise(h.total_principal),
      interest: toPaise(h.total_interest),
      gst: toPaise(h.total_gst),
      emi: toPaise(h.total_emi),
      numberOfPayments: Number(h.number_of_payments),
      charges: toPaise(h.total_charges),
    },
    rows: scheduleRows,
    marks: marks.get(loanId) ?? [],
    constructionCompletedOn: h.construction_completed_on,
  };
}

export type LoanStanding = Readonly<{
  status: 'Active' | 'Completed' | 'Overdue';
  overdueEmis: number;
  closedOn: string | null;
}>;

/**
 * A loan's standing from its schedule and marks (domain `loanStatus`): for a command's answer,
 * built from the folded schedule when the read model lags.
 */
export function standingOf(schedule: ScheduleView, emisAutoDebited: boolean, today: string): LoanStanding {
  const rows = schedule.rows.map((row) => ({ ...row, date: row.emiDate, amount: row.emi }));
  // No last payment known: never Completed (as the query's NULL comparison).
  const actual = { rows, closedOn: schedule.closedOn ?? '9999-12-31' };
  const payments = { marks: schedule.marks, emisAutoDebited };
  return {
    status: loanStatus(actual, payments, today),
    overdueEmis: overdueEmiCount(rows, payments, today),
    closedOn: schedule.closedOn,
  };
}

/**
 * Status of the user's loans on `today` (domain `loanStatus`): an auto-debited loan with no marks
 * has nothing overdue, so only the others' EMIs and marks are read and judged.
 */
export async function loanStandings(
  db: Queryable,
  userId: string,
  loanIds: readonly string[],
  today: string,
): Promise<Map<string, LoanStanding>> {
  if (loanIds.length === 0) return new Map();
  const { rows } = await db.query<StandingRow>(
    `SELECT h.loan_id::text AS loan_id, to_char(h.closed_on, 'YYYY-MM-DD') AS closed_on,
            ${STANDING_COLUMNS}
       FROM loan_schedules h LEFT JOIN loans l ON l.id = h.loan_id
      WHERE h.user_id = $1 AND h.loan_id = ANY((SELECT $2::uuid[])::uuid[])`,
    [userId, loanIds],
    // The ids through an InitPlan: a plan for the array itself came cheaper than the generic
    // one, so PostgreSQL planned the statement again on every call (0 generic plans).
    { prepared: true },
  );
  return standingsOf(db, rows, today);
}

/**
 * What a loan's standing is read from beside its schedule header `h` and its loan row `l`
 * (`auto`, `judged`), with `closed_on` as `to_char(h.closed_on, 'YYYY-MM-DD')`: `StandingRow`.
 */
export const STANDING_COLUMNS = `coalesce(l.emis_auto_debited, true) AS auto,
            (NOT coalesce(l.emis_auto_debited, true)
              OR EXISTS (SELECT 1 FROM loan_emi_marks m WHERE m.loan_id = h.loan_id)) AS judged`;

export type StandingRow = { loan_id: string; closed_on: string | null; judged: boolean; auto: boolean };

/**
 * The standings of loans from their `StandingRow`s: only the judged ones (EMIs not auto-debited,
 * or marked) have their EMIs and marks read, in one more round trip.
 */
export async function standingsOf(
  db: Queryable,
  rows: readonly StandingRow[],
  today: string,
): Promise<Map<string, LoanStanding>> {
  const judged = rows.filter((r) => r.judged).map((r) => r.loan_id);
  const overdue = new Map<string, number>();
  if (judged.length > 0) {
    const [emis, marks] = await Promise.all([
      db.query<{ loan_id: string; payment_number: number; emi_date: string; emi: string }>(
        `SELECT loan_id::text AS loan_id, payment_number, to_char(emi_date, 'YYYY-MM-DD') AS emi_date, emi::text AS emi
           FROM loan_schedule_rows
          WHERE loan_id = ANY((SELECT $1::uuid[])::uuid[]) AND kind = 'emi' AND emi_date <= (SELECT $2::date)`,
        [judged, today],
        { prepared: true },
      ),
      marksOf(db, judged),
    ]);
    const rowsOf = new Map<string, { kind: 'emi'; paymentNumber: number; date: string; amount: number }[]>();
    for (const r of emis.rows) {
      const row = {
        kind: 'emi' as const,
        paymentNumber: Number(r.payment_number),
        date: r.emi_date,
        amount: toPaise(r.emi),
      };
      rowsOf.set(r.loan_id, [...(rowsOf.get(r.loan_id) ?? []), row]);
    }
    for (const r of rows) {
      if (!r.judged) continue;
      const payments = { marks: marks.get(r.loan_id) ?? ([] as EmiMark[]), emisAutoDebited: r.auto };
      overdue.set(r.loan_id, overdueEmiCount(rowsOf.get(r.loan_id) ?? [], payments, today));
    }
  }
  return new Map(
    rows.map((r) => {
      const overdueEmis = overdue.get(r.loan_id) ?? 0;
      const status =
        overdueEmis > 0 ? 'Overdue' : r.closed_on !== null && r.closed_on < today ? 'Completed' : 'Active';
      return [r.loan_id, { status, overdueEmis, closedOn: r.closed_on }];
    }),
  );
}

export type EmiDue = Readonly<{
  loanId: string;
  userId: string;
  emiNumber: number;
  /** "HDFC Bank · 1234…" as the screens name the loan. */
  loanLabel: string;
  dueDate: string;
  /** What is still to pay of it (paise): the EMI less what was marked or matched. */
  amount: number;
}>;

/**
 * The EMIs due from `from` to `to` (YYYY-MM-DD) not covered by what the borrower marked paid or
 * matched (the paid-EMI model, domain `emiStandings` on `today`): a paid EMI is neither reminded
 * nor forecast. `userId` null: every user's (the reminders' scan).
 */
export async function unpaidEmisBetween(
  db: Queryable,
  userId: string | null,
  from: string,
  to: string,
  today: string,
): Promise<EmiDue[]> {
  const { rows } = await db.query<{
    loan_id: string;
    user_id: string;
    n: number;
    account_number: string;
    lender: string | null;
    due: string;
    emi: string;
    auto: boolean;
  }>(
    `SELECT r.loan_id::text AS loan_id, r.user_id, r.payment_number AS n, l.account_number, b.bank_name AS lender,
            to_char(r.emi_date, 'YYYY-MM-DD') AS due, r.emi::text AS emi,
            coalesce(l.emis_auto_debited, true) AS auto
       FROM loan_schedule_rows r
       JOIN loans l ON l.id = r.loan_id
       LEFT JOIN catalog_banks b ON b.id = l.bank_id
      WHERE ($1::text IS NULL OR r.user_id = $1) AND r.kind = 'emi' AND r.emi_date BETWEEN $2::date AND $3::date
      ORDER BY r.emi_date, r.loan_id`,
    [userId, from, to],
  );
  const marks = await marksOf(db, [...new Set(rows.map((r) => r.loan_id))]);
  return rows.flatMap((r) => {
    const row = { kind: 'emi' as const, paymentNumber: Number(r.n), date: r.due, amount: toPaise(r.emi) };
    const [standing] = emiStandings([row], marks.get(r.loan_id) ?? [], r.auto, today);
    if (!standing || standing.remainder === 0 || standing.state === 'auto-debited') return [];
    return [
      {
        loanId: r.loan_id,
        userId: r.user_id,
        emiNumber: row.paymentNumber,
        loanLabel: `${r.lender ?? 'Loan'} · ${r.account_number}`,
        dueDate: r.due,
        amount: standing.remainder,
      },
    ];
  });
}
