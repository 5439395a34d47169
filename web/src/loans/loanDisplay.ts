import { formatDate } from '../format';
import type { Bank, Loan } from './loansApi';

/** 'Bank - branch', or the bank name alone when it has no branch (spec section 9). */
export function bankLabel(bank: Pick<Bank, 'bankName' | 'branchName'> | null | undefined): string {
  if (!bank) return '—';
  return bank.branchName ? `${bank.bankName} - ${bank.branchName}` : bank.bankName;
}

export type LoanStatus = 'Completed' | 'Active' | 'Overdue';

/** Derived on the client, never stored: 'Completed' once the end date is past (spec section 4). */
export function loanStatus(endDate: string, today: string): LoanStatus {
  return endDate.slice(0, 10) < today ? 'Completed' : 'Active';
}

/** The server's status when it sent one (it knows paid EMIs and changes), else the spec's. */
export function statusOf(loan: Pick<Loan, 'status' | 'endDate'>, today: string): LoanStatus {
  return loan.status ?? loanStatus(loan.endDate, today);
}

export const STATUS_INTENT = { Completed: 'success', Active: 'primary', Overdue: 'danger' } as const;

export function interestLabel(loan: Pick<Loan, 'interestRate' | 'isInterestRateYearly'>): string {
  return `${Number(loan.interestRate)}% ${loan.isInterestRateYearly ? 'per year' : 'per month'}`;
}

/** The contract's annual rate (a monthly rate × 12). */
const contractAnnualRate = (loan: Pick<Loan, 'interestRate' | 'isInterestRateYearly'>) =>
  Number(loan.interestRate) * (loan.isInterestRateYearly ? 1 : 12);

/**
 * The rate the loan runs at now, beside the contract's when a reset changed it: "8.5% → 9.25% per
 * year since 05 May 2024"; the contract's own words otherwise.
 */
export function currentRateLabel(
  loan: Pick<Loan, 'interestRate' | 'isInterestRateYearly' | 'current'>,
): string {
  const now = loan.current?.annualRatePercent;
  const contract = contractAnnualRate(loan);
  if (now === undefined || now === contract) return interestLabel(loan);
  const since = loan.current?.rateSince ? ` since ${formatDate(loan.current.rateSince)}` : '';
  return `${contract}% → ${now}% per year${since}`;
}

const monthYear = new Intl.DateTimeFormat('en-IN', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "Mar 2041". */
export const monthOf = (isoDate: string): string =>
  monthYear.format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));

/**
 * When the loan ends now, beside the contract's end when a change moved it: "Mar 2041 (was Jun
 * 2044)"; the contract's end date otherwise.
 */
export function closingLabel(loan: Pick<Loan, 'endDate' | 'current'>): string {
  const closing = loan.current?.closingDate;
  if (!closing || closing.slice(0, 7) === loan.endDate.slice(0, 7)) return formatDate(loan.endDate);
  return `${monthOf(closing)} (was ${monthOf(loan.endDate)})`;
}

export function durationLabel(loan: Pick<Loan, 'duration' | 'isDurationYearly'>): string {
  const n = Number(loan.duration);
  if (loan.isDurationYearly) return `${n} ${n === 1 ? 'year' : 'years'}`;
  return `${n} ${n === 1 ? 'month' : 'months'}`;
}

/**
 * One name for each monthly figure on the preview, the loan details and the schedule: the EMI
 * proper excludes GST; the GST on it is charged on that month's interest; the outflow is both.
 */
export const EMI_LABELS = {
  emi: 'Monthly EMI (principal + interest)',
  gst: 'GST on the first EMI',
  outflow: 'First month’s outflow (EMI + GST)',
  scheduleNote:
    'EMI Amount is each month’s total outflow: the EMI (principal + interest) plus GST on that month’s interest.',
} as const;
