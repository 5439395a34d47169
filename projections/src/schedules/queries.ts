import { type ScheduleRow, toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store/db';
import type { ScheduleView } from './projector';

export type { ScheduleView } from './projector';

type DbScheduleRow = {
  version: number;
  reason: string;
  total_principal: string;
  total_interest: string;
  total_gst: string;
  total_emi: string;
  number_of_payments: number;
  generated_at: string;
  payment_number: number | null;
  emi_date: string | null;
  principal: string | null;
  interest: string | null;
  gst: string | null;
  emi: string | null;
  remaining_principal: string | null;
};

/**
 * The current schedule of the user's loan, or null (none yet, missing, or another user's).
 * One statement, so the header and the rows always come from the same version.
 */
export async function getSchedule(
  db: Queryable,
  userId: string,
  loanId: string,
): Promise<ScheduleView | null> {
  const { rows } = await db.query<DbScheduleRow>(
    `SELECT h.version, h.reason, h.principal::text AS total_principal, h.interest::text AS total_interest,
            h.gst::text AS total_gst, h.emi::text AS total_emi, h.number_of_payments,
            to_char(h.generated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS generated_at,
            r.payment_number, to_char(r.emi_date, 'YYYY-MM-DD') AS emi_date, r.principal::text AS principal,
            r.interest::text AS interest, r.gst::text AS gst, r.emi::text AS emi,
            r.remaining_principal::text AS remaining_principal
       FROM loan_schedules h
       LEFT JOIN loan_schedule_rows r ON r.loan_id = h.loan_id
      WHERE h.user_id = $1 AND h.loan_id = $2::uuid
      ORDER BY r.payment_number`,
    [userId, loanId],
  );
  const h = rows[0];
  if (!h) return null;
  return {
    loanId,
    userId,
    version: Number(h.version),
    reason: h.reason,
    generatedAt: h.generated_at,
    totals: {
      principal: toPaise(h.total_principal),
      interest: toPaise(h.total_interest),
      gst: toPaise(h.total_gst),
      emi: toPaise(h.total_emi),
      numberOfPayments: Number(h.number_of_payments),
    },
    rows: rows
      .filter((r) => r.payment_number !== null)
      .map(
        (r): ScheduleRow => ({
          paymentNumber: Number(r.payment_number),
          emiDate: r.emi_date as string,
          principal: toPaise(r.principal as string),
          interest: toPaise(r.interest as string),
          gst: toPaise(r.gst as string),
          emi: toPaise(r.emi as string),
          remainingPrincipal: toPaise(r.remaining_principal as string),
        }),
      ),
  };
}
