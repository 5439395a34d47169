import { type ScheduleRow, toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store/db';
import type { ScheduleView } from './projector';

export type { ScheduleView } from './projector';

type DbHeader = {
  version: number;
  reason: string;
  principal: string;
  interest: string;
  gst: string;
  emi: string;
  number_of_payments: number;
  generated_at: string;
};
type DbRow = {
  payment_number: number;
  emi_date: string;
  principal: string;
  interest: string;
  gst: string;
  emi: string;
  remaining_principal: string;
};

/** The current schedule of the user's loan, or null (none yet, missing, or another user's). */
export async function getSchedule(db: Queryable, userId: string, loanId: string): Promise<ScheduleView | null> {
  const [header, rows] = await Promise.all([
    db.query<DbHeader>(
      `SELECT version, reason, principal::text AS principal, interest::text AS interest, gst::text AS gst,
              emi::text AS emi, number_of_payments,
              to_char(generated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS generated_at
         FROM loan_schedules WHERE user_id = $1 AND loan_id = $2::uuid`,
      [userId, loanId],
    ),
    db.query<DbRow>(
      `SELECT payment_number, to_char(emi_date, 'YYYY-MM-DD') AS emi_date, principal::text AS principal,
              interest::text AS interest, gst::text AS gst, emi::text AS emi,
              remaining_principal::text AS remaining_principal
         FROM loan_schedule_rows WHERE user_id = $1 AND loan_id = $2::uuid ORDER BY payment_number`,
      [userId, loanId],
    ),
  ]);
  const h = header.rows[0];
  if (!h) return null;
  return {
    loanId,
    userId,
    version: Number(h.version),
    reason: h.reason,
    generatedAt: h.generated_at,
    totals: {
      principal: toPaise(h.principal),
      interest: toPaise(h.interest),
      gst: toPaise(h.gst),
      emi: toPaise(h.emi),
      numberOfPayments: Number(h.number_of_payments),
    },
    rows: rows.rows.map(
      (r): ScheduleRow => ({
        paymentNumber: Number(r.payment_number),
        emiDate: r.emi_date,
        principal: toPaise(r.principal),
        interest: toPaise(r.interest),
        gst: toPaise(r.gst),
        emi: toPaise(r.emi),
        remainingPrincipal: toPaise(r.remaining_principal),
      }),
    ),
  };
}
