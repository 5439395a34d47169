import { fromPaise, toPaise } from '@kosh/domain';
import type { ScheduleRow } from './loansApi';

export type ScheduleTotals = {
  principal: number;
  interest: number;
  gst: number;
  emi: number;
  payments: number;
};

/** Column totals, added up in paise so no floating-point error accumulates over 600 rows. */
export function scheduleTotals(rows: readonly ScheduleRow[]): ScheduleTotals {
  let principal = 0;
  let interest = 0;
  let gst = 0;
  let emi = 0;
  for (const row of rows) {
    principal += toPaise(row.principal);
    interest += toPaise(row.interest);
    gst += toPaise(row.gst);
    emi += toPaise(row.emi);
  }
  return {
    principal: fromPaise(principal),
    interest: fromPaise(interest),
    gst: fromPaise(gst),
    emi: fromPaise(emi),
    payments: rows.length,
  };
}
