import { type Paise, toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import type { ScheduleView, ScheduleViewRow } from './projector';

/**
 * Where a loan stands on a day (India), read from its latest schedule (generated, or revised after
 * part-payments, resets, overrides, a foreclosure) beside the contract's terms. Money in paise.
 */
export type LoanPresent = Readonly<{
  /** The day (YYYY-MM-DD) the figures are for. */
  asOf: string;
  /** The annual rate of the interest running now: the next EMI's (the last EMI's once repaid). */
  annualRatePercent: number;
  /**
   * Since when that rate runs, when a reset changed it: the date of the last EMI charged at
   * another rate (a reset applies from the next EMI for its whole month).
   */
  rateSince: string | null;
  /** The next EMI before GST (principal + interest); null once nothing is due. */
  emi: Paise | null;
  nextEmiDate: string | null;
  /** GST on the next EMI's interest. */
  nextEmiGst: Paise | null;
  /** EMIs dated after `asOf`. */
  emisLeft: number;
  /** Date of the last payment: the last EMI or the foreclosure. */
  closingDate: string | null;
  /** Principal owed after the last payment dated on or before `asOf` (all of it before the first). */
  outstandingPrincipal: Paise;
}>;

/** The few schedule rows the present is made of (the query reads only these). */
export type PresentParts = Readonly<{
  closedOn: string | null;
  /** The first EMI dated after the day; null once none is left. */
  next: Pick<ScheduleViewRow, 'emiDate' | 'principal' | 'interest' | 'gst' | 'annualRatePercent'> | null;
  /** The rate of the last EMI (a repaid loan's rate). */
  lastRate: number | null;
  /** Date of the last EMI before the next (or up to the end) charged at another rate than it. */
  otherRateUntil: string | null;
  emisLeft: number;
  /** Balance after the last row dated on or before the day; null before the first. */
  remainingAfterPast: Paise | null;
}>;

/**
 * The loan's present from its parts. `contractRate`: the terms' annual rate, the rate of a schedule
 * generated from them (its rows carry none).
 */
export function presentOf(
  parts: PresentParts,
  loan: Readonly<{ principal: Paise; contractRate: number }>,
  asOf: string,
): LoanPresent {
  const { next } = parts;
  const rate = (next ? next.annualRatePercent : parts.lastRate) ?? loan.contractRate;
  return {
    asOf,
    annualRatePercent: rate,
    rateSince: parts.otherRateUntil,
    emi: next ? next.principal + next.interest : null,
    nextEmiDate: next?.emiDate ?? null,
    nextEmiGst: next?.gst ?? null,
    emisLeft: parts.emisLeft,
    closingDate: parts.closedOn,
    outstandingPrincipal:
      parts.closedOn !== null && parts.closedOn <= asOf ? 0 : (parts.remainingAfterPast ?? loan.principal),
  };
}

/** The parts of a schedule held whole (a command's answer, folded from its events). */
export function presentPartsOf(schedule: ScheduleView, asOf: string): PresentParts {
  const emis = schedule.rows.filter((row) => row.kind === 'emi');
  const nextIndex = emis.findIndex((row) => row.emiDate > asOf);
  const next = nextIndex === -1 ? null : (emis[nextIndex] ?? null);
  const upTo = nextIndex === -1 ? emis : emis.slice(0, nextIndex);
  const rate = next ? next.annualRatePercent : (emis.at(-1)?.annualRatePercent ?? null);
  const other = rate === null ? undefined : upTo.findLast((row) => row.annualRatePercent !== rate);
  const past = schedule.rows.filter((row) => row.emiDate <= asOf).at(-1);
  return {
    closedOn: schedule.closedOn,
    next,
    lastRate: emis.at(-1)?.annualRatePercent ?? null,
    otherRateUntil: other?.emiDate ?? null,
    emisLeft: nextIndex === -1 ? 0 : emis.length - nextIndex,
    remainingAfterPast: past?.remainingPrincipal ?? null,
  };
}

export type DbPresentParts = {
  loan_id: string;
  closed_on: string | null;
  next_date: string | null;
  next_principal: string | null;
  next_interest: string | null;
  next_gst: string | null;
  next_rate: string | null;
  last_rate: string | null;
  other_rate_until: string | null;
  emis_left: number;
  remaining: string | null;
};

/**
 * The columns and joins that read a loan's present parts on the day `asOfParam` (a `$n` of type
 * date text) beside its schedule header `h` (loan_schedules): a handful of index probes per loan,
 * never its rows. The column names are `DbPresentParts`'; `presentPartsFromDb` reads them back.
 * Shared by `loanPresentParts` and the loan list's one statement (loans/queries.ts).
 */
export function presentPartsSql(asOfParam: string): { columns: string; joins: string } {
  return {
    columns: `to_char(h.closed_on, 'YYYY-MM-DD') AS closed_on,
            to_char(n.emi_date, 'YYYY-MM-DD') AS next_date, n.principal::text AS next_principal,
            n.interest::text AS next_interest, n.gst::text AS next_gst, n.annual_rate::text AS next_rate,
            z.annual_rate::text AS last_rate,
            (SELECT to_char(o.emi_date, 'YYYY-MM-DD') FROM loan_schedule_rows o
              WHERE o.loan_id = h.loan_id AND o.kind = 'emi' AND o.seq < coalesce(n.seq, z.seq + 1)
                AND coalesce(n.annual_rate, z.annual_rate) IS NOT NULL
                AND o.annual_rate IS DISTINCT FROM coalesce(n.annual_rate, z.annual_rate)
              ORDER BY o.seq DESC LIMIT 1) AS other_rate_until,
            -- EMIs are numbered 1, 2, … in date order (domain actual-schedule.ts): those after the
            -- day are the next one's number to the last one's, never counted row by row.
            coalesce(z.payment_number - n.payment_number + 1, 0)::int AS emis_left,
            (SELECT p.remaining_principal::text FROM loan_schedule_rows p
              WHERE p.loan_id = h.loan_id AND p.emi_date <= ${asOfParam}::date
              ORDER BY p.emi_date DESC, p.seq DESC LIMIT 1) AS remaining`,
    // The next EMI: the first after the day by date (the date index, one probe; EMIs' dates rise
    // with their place), not the first by place whose date is later (a walk of the past ones).
    joins: `LEFT JOIN LATERAL (SELECT r.seq, r.payment_number, r.emi_date, r.principal, r.interest, r.gst,
                                  r.annual_rate
                            FROM loan_schedule_rows r
                           WHERE r.loan_id = h.loan_id AND r.kind = 'emi' AND r.emi_date > ${asOfParam}::date
                           ORDER BY r.emi_date, r.seq LIMIT 1) n ON true
       LEFT JOIN LATERAL (SELECT r.seq, r.payment_number, r.annual_rate FROM loan_schedule_rows r
                           WHERE r.loan_id = h.loan_id AND r.kind = 'emi'
                           ORDER BY r.seq DESC LIMIT 1) z ON true`,
  };
}

/** The parts from the columns of `presentPartsSql`. */
export function presentPartsFromDb(r: Omit<DbPresentParts, 'loan_id'>): PresentParts {
  const rate = (text: string | null) => (text === null ? null : Number(text));
  return {
    closedOn: r.closed_on,
    next:
      r.next_date === null
        ? null
        : {
            emiDate: r.next_date,
            principal: toPaise(r.next_principal ?? '0'),
            interest: toPaise(r.next_interest ?? '0'),
            gst: toPaise(r.next_gst ?? '0'),
            annualRatePercent: rate(r.next_rate),
          },
    lastRate: rate(r.last_rate),
    otherRateUntil: r.other_rate_until,
    emisLeft: Number(r.emis_left),
    remainingAfterPast: r.remaining === null ? null : toPaise(r.remaining),
  };
}

const PRESENT_PARTS = presentPartsSql('$3');

/**
 * The parts of the user's loans' present on `asOf` (YYYY-MM-DD), as `presentPartsOf` takes them
 * from whole schedules: a handful of index probes per loan, never its rows.
 */
export async function loanPresentParts(
  db: Queryable,
  userId: string,
  loanIds: readonly string[],
  asOf: string,
): Promise<Map<string, PresentParts>> {
  if (loanIds.length === 0) return new Map();
  const { rows } = await db.query<DbPresentParts>(
    `SELECT h.loan_id::text AS loan_id, ${PRESENT_PARTS.columns}
       FROM loan_schedules h
       ${PRESENT_PARTS.joins}
      WHERE h.user_id = $1 AND h.loan_id = ANY((SELECT $2::uuid[])::uuid[])`,
    // The ids through an InitPlan, so the generic plan is kept (see `loanStandings`).
    [userId, loanIds, asOf],
    { prepared: true },
  );
  return new Map(rows.map((r) => [r.loan_id, presentPartsFromDb(r)]));
}
