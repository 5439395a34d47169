import type { Paise } from '../money/paise';
import { actualSchedule, type LoanChange } from './actual-schedule';
import { daysBetween } from './dates';
import type { ScheduleTerms } from './events';
import { type EmiMark, paymentsByEmi } from './payments';
import { withChange } from './state';

/**
 * What closing the loan on `date` costs, before anything is recorded: the outstanding principal,
 * the interest since the last EMI (actual/365, `days` days at `annualRatePercent`), GST on it, the
 * charge, and the credit for EMIs already paid that would fall due after the date (an EMI paid in
 * advance is money the lender holds: it is credited, not lost).
 */
export type ForeclosureQuote = Readonly<{
  date: string;
  principal: Paise;
  interest: Paise;
  /** The date interest runs from: the last EMI on or before `date`, or the start date. */
  interestFrom: string;
  days: number;
  annualRatePercent: number;
  gst: Paise;
  charge: Paise;
  /** principal + interest + gst + charge. */
  total: Paise;
  advanceEmis: readonly Readonly<{ paymentNumber: number; dueDate: string; amount: Paise }>[];
  advanceCredit: Paise;
  /** total − advanceCredit: what the borrower pays to close the loan. */
  payable: Paise;
}>;

/** Throws the schedule's 422 for a date it refuses (before the start, after the last EMI, …). */
export function foreclosureQuote(
  terms: ScheduleTerms,
  changes: readonly LoanChange[],
  marks: readonly EmiMark[],
  date: string,
  charge: Paise,
): ForeclosureQuote {
  const { rows } = actualSchedule(terms, withChange(changes, { kind: 'foreclosure', date, charge }));
  const closing = rows[rows.length - 1];
  if (closing?.kind !== 'foreclosure') throw new RangeError('A foreclosure ends its schedule');
  const lastEmi = rows.filter((row) => row.kind === 'emi' && row.date <= date).pop();
  const interestFrom = lastEmi?.date ?? terms.startDate;
  const current = actualSchedule(terms, changes).rows;
  const byEmi = paymentsByEmi(current, marks);
  const advanceEmis = current
    .filter((row) => row.kind === 'emi' && row.date > date)
    .map((row) => ({
      paymentNumber: row.paymentNumber,
      dueDate: row.date,
      amount: (byEmi.get(row.paymentNumber) ?? [])
        .filter((payment) => payment.paidOn <= date)
        .reduce((sum, payment) => sum + payment.amount, 0),
    }))
    .filter((emi) => emi.amount > 0);
  const advanceCredit = advanceEmis.reduce((sum, emi) => sum + emi.amount, 0);
  const total = closing.principal + closing.interest + closing.gst + closing.charge;
  return {
    date,
    principal: closing.principal,
    interest: closing.interest,
    interestFrom,
    days: daysBetween(interestFrom, date),
    annualRatePercent: closing.annualRatePercent,
    gst: closing.gst,
    charge: closing.charge,
    total,
    advanceEmis,
    advanceCredit,
    payable: total - advanceCredit,
  };
}
