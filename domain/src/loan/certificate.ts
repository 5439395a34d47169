import type { Paise } from '../money/paise';
import { LOAN_CHANGE_MESSAGES, loanChangeError } from '../validation/loan-change';
import type { ActualScheduleRow } from './actual-schedule';
import type { PaidEmi } from './state';

/** An Indian financial year, April to March, written `2025-26`. */
export type FinancialYear = Readonly<{ label: string; from: string; to: string }>;

const FY = /^(\d{4})-(\d{2})$/;

/**
 * `2025-26` -> 2025-04-01 … 2026-03-31; throws a 422 for anything else (`2025-27`, `25-26`).
 * From 1999-00, the year holding the earliest start date (2000-01-01): such a loan's first EMIs
 * fall in February and March 2000.
 */
export function financialYear(label: string): FinancialYear {
  const match = FY.exec(label);
  const start = Number(match?.[1]);
  if (!match || start < 1999 || Number(match[2]) !== (start + 1) % 100)
    throw loanChangeError('fy', LOAN_CHANGE_MESSAGES.financialYearInvalid);
  return { label, from: `${start}-04-01`, to: `${start + 1}-03-31` };
}

export type FinancialYearFigures = Readonly<{
  fy: FinancialYear;
  /** `paid`: EMIs counted when marked paid, on the day paid; `schedule`: on their due dates. */
  basis: 'paid' | 'schedule';
  /** Interest paid in the year (Section 24(b)), pre-EMI interest apart. */
  interest: Paise;
  /** Principal repaid in the year (Section 80C), prepayments and foreclosure included. */
  principal: Paise;
  /** Broken-period interest from disbursal to the first EMI's month paid in the year. */
  preEmiInterest: Paise;
  gst: Paise;
  charges: Paise;
  emisCounted: number;
}>;

/**
 * The figures of a loan's interest certificate for one financial year. With paid EMIs, an EMI
 * counts in the year it was paid, split into principal and interest as its schedule row splits
 * it (a lender's certificate splits each debited EMI the same way); without them, every EMI
 * counts on its due date. Prepayments, the foreclosure and pre-EMI interest are payments in
 * their own right and count on their dates.
 */
export function financialYearFigures(
  rows: readonly ActualScheduleRow[],
  fyLabel: string,
  paidEmis: readonly PaidEmi[] = [],
): FinancialYearFigures {
  const fy = financialYear(fyLabel);
  const basis = paidEmis.length > 0 ? 'paid' : 'schedule';
  const paidOn = new Map(paidEmis.map((emi) => [emi.paymentNumber, emi.paidOn]));
  const figures = { interest: 0, principal: 0, preEmiInterest: 0, gst: 0, charges: 0, emisCounted: 0 };
  for (const row of rows) {
    const date = row.kind === 'emi' && basis === 'paid' ? paidOn.get(row.paymentNumber) : row.date;
    if (date === undefined || date < fy.from || date > fy.to) continue;
    if (row.kind === 'pre-emi-interest') figures.preEmiInterest += row.interest;
    else figures.interest += row.interest;
    if (row.kind === 'emi') figures.emisCounted++;
    figures.principal += row.principal;
    figures.gst += row.gst;
    figures.charges += row.charge;
  }
  return { fy, basis, ...figures };
}
