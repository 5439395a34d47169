import { describe, expect, it } from 'vitest';
import { presentLine } from '../dashboard/LoansToday';
import { closingLabel, currentRateLabel } from './loanDisplay';
import type { Loan } from './loansApi';

const present: NonNullable<Loan['current']> = {
  asOf: '2026-01-10',
  annualRatePercent: 8.5,
  rateSince: null,
  emi: 43391.16,
  nextEmiDate: '2026-02-05',
  nextEmiGst: 4508.55,
  nextEmiTotal: 47899.71,
  emisLeft: 172,
  closingDate: '2040-05-05',
  outstandingPrincipal: 4012345.67,
};
const loan = {
  interestRate: 8.5,
  isInterestRateYearly: true,
  endDate: '2040-05-05',
  current: present,
} as Loan;

describe('a loan’s present on the screens', () => {
  it('shows the contract rate and end while nothing changed them', () => {
    expect(currentRateLabel(loan)).toBe('8.5% per year');
    expect(closingLabel(loan)).toBe('05 May 2040');
  });

  it('shows a reset rate beside the contract’s, with the day it runs from', () => {
    const reset = { ...loan, current: { ...present, annualRatePercent: 9.25, rateSince: '2024-05-05' } };
    expect(currentRateLabel(reset)).toBe('8.5% → 9.25% per year since 05 May 2024');
    // A monthly contract rate is compared as a yearly one.
    expect(currentRateLabel({ ...reset, interestRate: 0.75, isInterestRateYearly: false })).toBe(
      '9% → 9.25% per year since 05 May 2024',
    );
  });

  it('shows an earlier end beside the contract’s after a part-payment', () => {
    const earlier = { ...loan, endDate: '2044-06-05', current: { ...present, closingDate: '2041-03-05' } };
    expect(closingLabel(earlier)).toBe('Mar 2041 (was Jun 2044)');
  });

  it('writes the dashboard line of a loan', () => {
    expect(presentLine(loan)).toBe(
      'EMI ₹43,391.16 · 8.5% per year · 172 EMIs left · ends 05 May 2040 · ₹40,12,345.67 owed',
    );
  });
});
