import { loanStatus, overdueEmis, type PaidEmi, toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import type { ScheduleView, ScheduleViewRow } from './projector';

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
 * One statement, so the header and the rows always come from the same version; the paid EMIs
 * come with it.
 */
export async function getSchedule(
  db: Queryable,
  userId: string,
  loanId: string,
): Promise<ScheduleView | null> {
  const [{ rows }, paid] = await Promise.all([
    db.query<DbScheduleRow>(
      `SELECT h.version, h.reason, h.principal::text AS total_principal, h.interest::text AS total_interest,
              h.gst::text AS total_gst, h.emi::text AS total_emi, h.charges::text AS total_charges,
              h.number_of_payments, to_char(h.closed_on, 'YYYY-MM-DD') AS closed_on,
              to_char(h.generated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS generated_at,
              r.payment_number, r.kind, to_char(r.emi_date, 'YYYY-MM-DD') AS emi_date,
              r.principal::text AS principal, r.interest::text AS interest, r.gst::text AS gst,
              r.charge::text AS charge, r.emi::text AS emi, r.remaining_principal::text AS remaining_principal,
              r.annual_rate::text AS annual_rate
         FROM loan_schedules h
         LEFT JOIN loan_schedule_rows r ON r.loan_id = h.loan_id
        WHERE h.user_id = $1 AND h.loan_id = $2::uuid
        ORDER BY r.seq`,
      [userId, loanId],
    ),
    paidEmis(db, userId, loanId),
  ]);
  const h = rows[0];
  if (!h) return null;
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
    rows: rows
      .filter((r) => r.payment_number !== null)
      .map(
        (r): ScheduleViewRow => ({
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
        }),
      ),
    paid,
  };
}

/** The EMIs of the user's loan marked paid, by EMI number. */
export async function paidEmis(db: Queryable, userId: string, loanId: string): Promise<PaidEmi[]> {
  const { rows } = await db.query<{
    payment_number: number;
    paid_on: string;
    amount: string;
    transaction_id: string | null;
  }>(
    `SELECT payment_number, to_char(paid_on, 'YYYY-MM-DD') AS paid_on, amount::text AS amount, transaction_id
       FROM loan_paid_emis WHERE user_id = $1 AND loan_id = $2::uuid ORDER BY payment_number`,
    [userId, loanId],
  );
  return rows.map((r) => ({
    paymentNumber: Number(r.payment_number),
    paidOn: r.paid_on,
    amount: toPaise(r.amount),
    transactionId: r.transaction_id,
  }));
}

export type LoanStanding = Readonly<{
  status: 'Active' | 'Completed' | 'Overdue';
  overdueEmis: number;
  closedOn: string | null;
}>;

/**
 * A loan's standing from its schedule (the same rule as the query below, through the domain's
 * `loanStatus`): for a command's answer, built from the folded schedule when the read model lags.
 */
export function standingOf(schedule: ScheduleView, today: string): LoanStanding {
  const rows = schedule.rows.map((row) => ({ ...row, date: row.emiDate }));
  // No last payment known: never Completed (as the query's NULL comparison).
  const actual = { rows, closedOn: schedule.closedOn ?? '9999-12-31' };
  return {
    status: loanStatus(actual, schedule.paid, today),
    overdueEmis: overdueEmis(rows, schedule.paid, today).length,
    closedOn: schedule.closedOn,
  };
}

/**
 * Status of the user's loans on `today` (domain `loanStatus`, in SQL): Overdue once an EMI is
 * marked paid and an EMI due before today is not; else Completed once the last payment is past.
 */
export async function loanStandings(
  db: Queryable,
  userId: string,
  loanIds: readonly string[],
  today: string,
): Promise<Map<string, LoanStanding>> {
  if (loanIds.length === 0) return new Map();
  const { rows } = await db.query<{ loan_id: string; closed_on: string | null; overdue: number }>(
    `SELECT h.loan_id::text AS loan_id, to_char(h.closed_on, 'YYYY-MM-DD') AS closed_on,
            CASE WHEN NOT EXISTS (SELECT 1 FROM loan_paid_emis p WHERE p.loan_id = h.loan_id) THEN 0
            ELSE (SELECT count(*)::int FROM loan_schedule_rows r
                   WHERE r.loan_id = h.loan_id AND r.kind = 'emi' AND r.emi_date < $3::date
                     AND NOT EXISTS (SELECT 1 FROM loan_paid_emis p
                                      WHERE p.loan_id = r.loan_id AND p.payment_number = r.payment_number))
            END AS overdue
       FROM loan_schedules h WHERE h.user_id = $1 AND h.loan_id = ANY($2::uuid[])`,
    [userId, loanIds, today],
  );
  return new Map(
    rows.map((r) => {
      const overdueEmis = Number(r.overdue);
      const status =
        overdueEmis > 0 ? 'Overdue' : r.closed_on !== null && r.closed_on < today ? 'Completed' : 'Active';
      return [r.loan_id, { status, overdueEmis, closedOn: r.closed_on }];
    }),
  );
}
