import { fromPaise, PROCESSING_FEE_GST_PERCENT, paymentsApr, toPaise } from '@kosh/domain';
import type { Loan, ScheduleRow } from './loansApi';

export type ScheduleTotals = {
  /** Column totals over every row: the whole principal, all interest and GST. */
  principal: number;
  interest: number;
  gst: number;
  /** Prepayment and foreclosure charges. */
  charges: number;
  /** What the EMIs add up to (EMI rows only). */
  emi: number;
  /** Part-payments, the foreclosure and pre-EMI interest, charges included. */
  otherPayments: number;
  /** Everything that leaves the account: EMIs and the other payments (the EMI Amount column). */
  paid: number;
  /** EMIs only: a part-payment or a foreclosure is no instalment. */
  payments: number;
  /** EMIs marked paid. */
  paidEmis: number;
};

/** A row of the schedule is an EMI unless the server says otherwise (answers before issue 15). */
export const isEmi = (row: Pick<ScheduleRow, 'kind'>): boolean => (row.kind ?? 'emi') === 'emi';

/** Column totals, added up in paise so no floating-point error accumulates over 600 rows. */
export function scheduleTotals(rows: readonly ScheduleRow[]): ScheduleTotals {
  let principal = 0;
  let interest = 0;
  let gst = 0;
  let charges = 0;
  let emi = 0;
  let other = 0;
  let payments = 0;
  let paidEmis = 0;
  for (const row of rows) {
    principal += toPaise(row.principal);
    interest += toPaise(row.interest);
    gst += toPaise(row.gst);
    charges += toPaise(row.charge ?? 0);
    if (isEmi(row)) {
      emi += toPaise(row.emi);
      payments += 1;
      if (row.paidOn) paidEmis += 1;
    } else other += toPaise(row.emi);
  }
  return {
    principal: fromPaise(principal),
    interest: fromPaise(interest),
    gst: fromPaise(gst),
    charges: fromPaise(charges),
    emi: fromPaise(emi),
    otherPayments: fromPaise(other),
    paid: fromPaise(emi + other),
    payments,
    paidEmis,
  };
}

/**
 * The EMI (principal + interest, rupees) the borrower pays now, when a part-payment, a rate reset
 * or a lender's override changed it from the first: the next regular instalment due after
 * `today`. Null when it equals the first, and near the end (only the last, smaller instalment left).
 */
export function emiInForce(rows: readonly ScheduleRow[], today: string): number | null {
  const emis = rows.filter(isEmi);
  const upcoming = emis.filter((row) => row.emiDate > today);
  if (emis.length === 0 || upcoming.length < 2) return null;
  const level = (row: ScheduleRow) => toPaise(row.principal) + toPaise(row.interest);
  const now = level(upcoming[0]!);
  return now === level(emis[0]!) ? null : fromPaise(now);
}

/**
 * The APR of what the borrower actually pays (every row of the current schedule at its date, the
 * fee and its GST up front), when it differs from the contract's: after part-payments, resets or a
 * foreclosure. Null when the same, or when there is no rate to state.
 */
export function actualApr(loan: Loan, rows: readonly ScheduleRow[]): number | null {
  if (loan.apr === undefined || rows.length === 0) return null;
  try {
    const apr = paymentsApr(
      {
        principal: toPaise(Number(loan.principalAmount)),
        processingFee: toPaise(Number(loan.processingFee ?? 0)),
        feeGstPercent: loan.processingFeeHasGst ? PROCESSING_FEE_GST_PERCENT : 0,
      },
      loan.startDate.slice(0, 10),
      rows.map((row) => ({ date: row.emiDate, amount: toPaise(row.emi) })),
    );
    return apr === loan.apr ? null : apr;
  } catch {
    return null;
  }
}
