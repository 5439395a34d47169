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
