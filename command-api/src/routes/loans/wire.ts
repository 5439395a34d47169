import type { WireLoan, WireLoanPresent, WireScheduleRow, WireScheduleSummary } from '@kosh/contract';
import {
  assertNever,
  type EmiMark,
  type EmiStanding,
  emiStandings,
  fromPaise,
  LOAN_FIELDS,
  wireOf,
} from '@kosh/domain';
import type { LoanPresent, LoanStanding, LoanView, ScheduleView, ScheduleViewRow } from '@kosh/projections';

/** What the loan's present is sent as (rupees). */
export function toWirePresent(present: LoanPresent): WireLoanPresent {
  const money = (paise: number | null) => (paise === null ? null : fromPaise(paise));
  return {
    as_of: present.asOf,
    annual_rate_percent: present.annualRatePercent,
    rate_since: present.rateSince,
    emi: money(present.emi),
    next_emi_date: present.nextEmiDate,
    next_emi_gst: money(present.nextEmiGst),
    next_emi_total:
      present.emi === null || present.nextEmiGst === null
        ? null
        : fromPaise(present.emi + present.nextEmiGst),
    emis_left: present.emisLeft,
    closing_date: present.closingDate,
    outstanding_principal: fromPaise(present.outstandingPrincipal),
  };
}

/** Figures an answer adds to the loan's terms when it has them. */
export type LoanFigures = Readonly<{
  /** Contract APR and APR of the actual payments (the one-loan answers). */
  apr?: number;
  actualApr?: number;
  present?: LoanPresent;
}>;

/** `standing`: status on today, when the answer carries it. */
export function toWireLoan(loan: LoanView, standing?: LoanStanding, figures: LoanFigures = {}): WireLoan {
  const { apr, actualApr, present } = figures;
  // `wireOf`'s object is fresh: completed in place, not spread into another (a list converts
  // every row; the spreads cost 30-40 µs a loan). The serializer writes the schema's order.
  const wire = wireOf(LOAN_FIELDS, loan) as Mutable<WireLoan>;
  if (standing) {
    wire.status = standing.status;
    wire.overdue_emis = standing.overdueEmis;
    wire.closed_on = standing.closedOn;
  }
  if (apr !== undefined) wire.apr = apr;
  if (actualApr !== undefined) wire.actual_apr = actualApr;
  if (present) wire.current = toWirePresent(present);
  wire.id = loan.id;
  wire.schedule_version = loan.scheduleVersion;
  wire.created_at = loan.createdAt;
  wire.updated_at = loan.updatedAt;
  wire.bank = { bank_name: loan.bank.bankName, branch_name: loan.bank.branchName };
  wire.loan_type = { type_name: loan.loanType.typeName };
  return wire;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The mark ids behind a standing: its payments' and its missed mark's, each once. */
function markIdsOf(standing: EmiStanding): string[] {
  const { payments, missedMarkId } = standing;
  if (payments.length === 0) return missedMarkId ? [missedMarkId] : [];
  return [...new Set([...payments.map((p) => p.markId), ...(missedMarkId ? [missedMarkId] : [])])];
}

export function toWireRow(
  loanId: string,
  version: number,
  row: ScheduleViewRow,
  index: number,
  standing: EmiStanding | undefined,
): WireScheduleRow {
  let transactionId: string | null = null;
  if (standing) {
    for (const p of standing.payments) {
      if (p.transactionId !== null) {
        transactionId = p.transactionId;
        break;
      }
    }
  }
  return {
    id: row.kind === 'emi' ? `${loanId}:${version}:${row.paymentNumber}` : `${loanId}:${version}:x${index}`,
    kind: row.kind,
    charge: fromPaise(row.charge),
    annual_rate: row.annualRatePercent,
    paid_on: standing ? standing.paidOn : null,
    paid_amount: standing && standing.paid > 0 ? fromPaise(standing.paid) : null,
    transaction_id: transactionId,
    payment_state: standing ? standing.state : null,
    remainder: standing ? fromPaise(standing.remainder) : 0,
    overdue: standing ? standing.overdue : false,
    mark_ids: standing ? markIdsOf(standing) : [],
    payment_number: row.paymentNumber,
    emi_date: row.emiDate,
    principal: fromPaise(row.principal),
    interest: fromPaise(row.interest),
    gst: fromPaise(row.gst),
    emi: fromPaise(row.emi),
    remaining_principal: fromPaise(row.remainingPrincipal),
  };
}

/** A mark as the wire shows it. */
function toWireMark(mark: EmiMark): WireScheduleSummary['marks'][number] {
  const base = { mark_id: mark.markId, kind: mark.kind, transaction_id: null, amount: null, date: null };
  switch (mark.kind) {
    case 'paid':
      return {
        ...base,
        payment_numbers: [mark.paymentNumber],
        date: mark.paidOn,
        amount: fromPaise(mark.amount),
      };
    case 'matched':
      return {
        ...base,
        payment_numbers: [mark.paymentNumber],
        date: mark.paidOn,
        amount: fromPaise(mark.amount),
        transaction_id: mark.transactionId,
      };
    case 'paid-up-to':
      return { ...base, payment_numbers: [...mark.paymentNumbers], date: mark.upTo };
    case 'missed':
      return { ...base, payment_numbers: [mark.paymentNumber] };
    case 'pre-emi-interest':
      return { ...base, payment_numbers: [], date: mark.date, amount: fromPaise(mark.amount) };
    default:
      return assertNever(mark);
  }
}

/** How the loan's EMIs are paid, and the day (India) their standing is judged on. */
export type PaymentView = Readonly<{ emisAutoDebited: boolean; today: string }>;

/** `data` of the amortization answers: every row with where it stands, the totals, version and marks. */
export function toWireSchedule(
  schedule: ScheduleView | null,
  payments: PaymentView,
): {
  schedule: WireScheduleRow[];
  summary: WireScheduleSummary | null;
} {
  if (!schedule) return { schedule: [], summary: null };
  const { loanId, version, totals } = schedule;
  const standings = new Map<number, EmiStanding>();
  for (const s of emiStandings(
    schedule.rows.map((row) => ({
      kind: row.kind,
      paymentNumber: row.paymentNumber,
      date: row.emiDate,
      amount: row.emi,
    })),
    schedule.marks,
    payments.emisAutoDebited,
    payments.today,
  )) {
    standings.set(s.paymentNumber, s);
  }
  return {
    schedule: schedule.rows.map((row, index) =>
      toWireRow(
        loanId,
        version,
        row,
        index,
        row.kind === 'emi' ? standings.get(row.paymentNumber) : undefined,
      ),
    ),
    summary: {
      version,
      total_principal: fromPaise(totals.principal),
      total_interest: fromPaise(totals.interest),
      total_gst: fromPaise(totals.gst),
      total_emi: fromPaise(totals.emi),
      number_of_payments: totals.numberOfPayments,
      total_charges: fromPaise(totals.charges),
      closed_on: schedule.closedOn,
      reason: schedule.reason,
      generated_at: schedule.generatedAt,
      emis_auto_debited: payments.emisAutoDebited,
      construction_completed_on: schedule.constructionCompletedOn,
      marks: schedule.marks.map(toWireMark),
    },
  };
}
