import { fromPaise, toPaise } from '@kosh/domain';
import type { ScheduleRow } from './loansApi';

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
