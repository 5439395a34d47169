import { describe, expect, it } from 'vitest';
import { loanFields } from '../testing/fixtures';
import { actualSchedule } from './actual-schedule';
import { outstandingPrincipalOn } from './outstanding';
import type { EmiMark } from './payments';
import { scheduleTermsOf } from './state';

const fields = loanFields({
  principalAmount: 1200000,
  interestRate: 12,
  duration: 1,
  startDate: '2024-01-15',
});
const terms = scheduleTermsOf({ ...fields, endDate: '2025-01-15' });
const { rows } = actualSchedule(terms, []);
const loan = { principal: 1200000, startDate: '2024-01-15' };
const emi = (n: number) => rows.find((r) => r.kind === 'emi' && r.paymentNumber === n)!;
const principalUpTo = (n: number) =>
  rows.filter((r) => r.kind === 'emi' && r.paymentNumber <= n).reduce((s, r) => s + r.principal, 0);

describe('outstanding principal under the paid-EMI model', () => {
  it('owes nothing before the loan starts and the whole principal until its first EMI', () => {
    const auto = { marks: [], emisAutoDebited: true };
    expect(outstandingPrincipalOn(loan, rows, auto, '2024-01-14')).toBe(0);
    expect(outstandingPrincipalOn(loan, rows, auto, '2024-02-14')).toBe(1200000);
  });

  it('takes off an auto-debited EMI on its due date', () => {
    const auto = { marks: [], emisAutoDebited: true };
    expect(outstandingPrincipalOn(loan, rows, auto, emi(3).date)).toBe(1200000 - principalUpTo(3));
    expect(outstandingPrincipalOn(loan, rows, auto, '2025-12-31')).toBe(0);
  });

  it('keeps an EMI that is not marked paid owed, and takes it off on the day it was paid', () => {
    const marks: EmiMark[] = [
      { kind: 'paid', markId: 'a', paymentNumber: 1, paidOn: emi(1).date, amount: emi(1).amount },
      { kind: 'paid', markId: 'b', paymentNumber: 2, paidOn: '2024-05-20', amount: emi(2).amount },
    ];
    const manual = { marks, emisAutoDebited: false };
    expect(outstandingPrincipalOn(loan, rows, manual, emi(3).date)).toBe(1200000 - emi(1).principal);
    expect(outstandingPrincipalOn(loan, rows, manual, '2024-05-20')).toBe(1200000 - principalUpTo(2));
  });

  it('takes off a part-payment on its date and a foreclosure closes the loan', () => {
    const changed = actualSchedule(terms, [
      { kind: 'prepayment', date: '2024-04-01', amount: 200000, charge: 0, choice: 'reduce-tenure' },
      { kind: 'foreclosure', date: '2024-08-01', charge: 0 },
    ]).rows;
    const auto = { marks: [], emisAutoDebited: true };
    const march = outstandingPrincipalOn(loan, changed, auto, '2024-03-31');
    expect(outstandingPrincipalOn(loan, changed, auto, '2024-04-01')).toBe(march - 200000);
    expect(outstandingPrincipalOn(loan, changed, auto, '2024-08-01')).toBe(0);
  });
});
