import { type FieldError, fromPaise, type LoanInput, type ScheduleRow } from '@kosh/domain';
import type { LoanView } from '@kosh/projections/loans/queries';
import type { ScheduleView } from '@kosh/projections/schedules/queries';
import type { LoanBody, WireLoan, WireScheduleRow, WireScheduleSummary } from '../../schemas/loans';

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

const snakeCase = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Domain field errors named by their wire (snake_case) names. */
export function wireErrors(errors: readonly FieldError[]): FieldError[] {
  return errors.map((error) => ({ field: snakeCase(error.field), message: error.message }));
}

export function toWireLoan(loan: LoanView): WireLoan {
  return {
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

export function toWireRow(loanId: string, version: number, row: ScheduleRow): WireScheduleRow {
  return {
    id: `${loanId}:${version}:${row.paymentNumber}`,
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
    schedule: schedule.rows.map((row) => toWireRow(loanId, version, row)),
    summary: {
      version,
      total_principal: fromPaise(totals.principal),
      total_interest: fromPaise(totals.interest),
      total_gst: fromPaise(totals.gst),
      total_emi: fromPaise(totals.emi),
      number_of_payments: totals.numberOfPayments,
      generated_at: schedule.generatedAt,
    },
  };
}
