import type {
  LoanBody,
  WireLoan,
  WireLoanPresent,
  WireScheduleRow,
  WireScheduleSummary,
} from '@kosh/contract';
import { fromPaise, type LoanInput } from '@kosh/domain';
import type { LoanPresent, LoanStanding, LoanView, ScheduleView, ScheduleViewRow } from '@kosh/projections';

/** Wire (snake_case) body → the domain's camelCase loan input. */
export function loanInputOf(body: LoanBody): LoanInput {
  return {
    bankId: body.bank_id,
    loanTypeId: body.loan_type_id,
    accountNumber: body.account_number,
    shortDetail: body.short_detail,
    principalAmount: body.principal_amount,
    interestRate: body.interest_rate,
    isInterestRateYearly: body.is_interest_rate_yearly,
    duration: body.duration,
    isDurationYearly: body.is_duration_yearly,
    startDate: body.start_date,
    endDate: body.end_date,
    processingFee: body.processing_fee,
    hasGst: body.has_gst,
    gstPercentage: body.gst_percentage,
  };
}

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
  return {
    ...(standing && {
      status: standing.status,
      overdue_emis: standing.overdueEmis,
      closed_on: standing.closedOn,
    }),
    ...(apr !== undefined && { apr }),
    ...(actualApr !== undefined && { actual_apr: actualApr }),
    ...(present && { current: toWirePresent(present) }),
    id: loan.id,
    bank_id: loan.bankId,
    loan_type_id: loan.loanTypeId,
    account_number: loan.accountNumber,
    short_detail: loan.shortDetail,
    principal_amount: fromPaise(loan.principalAmount),
    interest_rate: loan.interestRate,
    is_interest_rate_yearly: loan.isInterestRateYearly,
    duration: loan.duration,
    is_duration_yearly: loan.isDurationYearly,
    start_date: loan.startDate,
    end_date: loan.endDate,
    processing_fee: fromPaise(loan.processingFee),
    has_gst: loan.hasGst,
    gst_percentage: loan.gstPercentage,
    schedule_version: loan.scheduleVersion,
    created_at: loan.createdAt,
    updated_at: loan.updatedAt,
    bank: { bank_name: loan.bank.bankName, branch_name: loan.bank.branchName },
    loan_type: { type_name: loan.loanType.typeName },
  };
}

export function toWireRow(
  loanId: string,
  version: number,
  row: ScheduleViewRow,
  index: number,
  paid: ScheduleView['paid'],
): WireScheduleRow {
  const payment = row.kind === 'emi' ? paid.find((p) => p.paymentNumber === row.paymentNumber) : undefined;
  return {
    id: row.kind === 'emi' ? `${loanId}:${version}:${row.paymentNumber}` : `${loanId}:${version}:x${index}`,
    kind: row.kind,
    charge: fromPaise(row.charge),
    annual_rate: row.annualRatePercent,
    paid_on: payment?.paidOn ?? null,
    paid_amount: payment ? fromPaise(payment.amount) : null,
    transaction_id: payment?.transactionId ?? null,
    payment_number: row.paymentNumber,
    emi_date: row.emiDate,
    principal: fromPaise(row.principal),
    interest: fromPaise(row.interest),
    gst: fromPaise(row.gst),
    emi: fromPaise(row.emi),
    remaining_principal: fromPaise(row.remainingPrincipal),
  };
}

/** `data` of the amortization answers: every row plus the totals and version. */
export function toWireSchedule(schedule: ScheduleView | null): {
  schedule: WireScheduleRow[];
  summary: WireScheduleSummary | null;
} {
  if (!schedule) return { schedule: [], summary: null };
  const { loanId, version, totals } = schedule;
  return {
    schedule: schedule.rows.map((row, index) => toWireRow(loanId, version, row, index, schedule.paid)),
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
    },
  };
}
