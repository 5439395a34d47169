import { describe, expect, it } from 'vitest';
import { actualSchedule } from './actual-schedule';
import type { ScheduleTerms } from './events';
import { loanStatus, overdueEmis } from './status';

const terms: ScheduleTerms = {
  principalAmount: 1200000,
  interestRate: 12,
  isInterestRateYearly: true,
  duration: 12,
  isDurationYearly: false,
  startDate: '2025-01-15',
  hasGst: false,
  gstPercentage: 0,
};
const schedule = actualSchedule(terms, []);
const paid = (paymentNumber: number, paidOn: string) => ({
  paymentNumber,
  paidOn,
  amount: 0,
  transactionId: null,
});

describe('loan status', () => {
  it('is Active before the last EMI and Completed after it when payments are not tracked', () => {
    expect(loanStatus(schedule, [], '2025-06-01')).toBe('Active');
    expect(loanStatus(schedule, [], '2026-01-16')).toBe('Completed');
    expect(overdueEmis(schedule.rows, [], '2026-01-16')).toEqual([]);
  });

  it('is Overdue while an EMI due before today is not marked paid', () => {
    const firstTwo = [paid(1, '2025-02-15'), paid(2, '2025-03-15')];
    expect(loanStatus(schedule, firstTwo, '2025-03-16')).toBe('Active');
    expect(loanStatus(schedule, firstTwo, '2025-04-15')).toBe('Active');
    expect(loanStatus(schedule, firstTwo, '2025-04-16')).toBe('Overdue');
    expect(overdueEmis(schedule.rows, firstTwo, '2025-05-16').map((row) => row.paymentNumber)).toEqual([
      3, 4,
    ]);
    const all = schedule.rows.map((row) => paid(row.paymentNumber, row.date));
    expect(loanStatus(schedule, all, '2026-02-01')).toBe('Completed');
  });

  it('is Completed after a foreclosure', () => {
    const closed = actualSchedule(terms, [{ kind: 'foreclosure', date: '2025-05-20', charge: 0 }]);
    expect(loanStatus(closed, [], '2025-05-21')).toBe('Completed');
  });
});
