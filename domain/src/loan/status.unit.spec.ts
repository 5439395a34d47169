import { describe, expect, it } from 'vitest';
import { actualSchedule } from './actual-schedule';
import type { ScheduleTerms } from './events';
import type { EmiMark } from './payments';
import { loanStatus, overdueEmiCount } from './status';

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
const emi = (n: number) => schedule.rows.find((row) => row.paymentNumber === n && row.kind === 'emi')!;
const paid = (n: number, paidOn: string, amount = emi(n).amount): EmiMark => ({
  kind: 'paid',
  markId: `m${n}-${paidOn}`,
  paymentNumber: n,
  paidOn,
  amount,
});
const auto = (marks: EmiMark[]) => ({ marks, emisAutoDebited: true });
const byHand = (marks: EmiMark[]) => ({ marks, emisAutoDebited: false });

describe('loan status', () => {
  it('auto-debited: every past EMI counts as paid, so the loan is Active, then Completed', () => {
    expect(loanStatus(schedule, auto([]), '2025-06-01')).toBe('Active');
    expect(loanStatus(schedule, auto([]), '2026-01-16')).toBe('Completed');
    expect(overdueEmiCount(schedule.rows, auto([]), '2026-01-16')).toBe(0);
  });

  it('auto-debited: a bounced EMI is overdue until what is paid for it covers it', () => {
    const missed: EmiMark = { kind: 'missed', markId: 'x', paymentNumber: 3 };
    expect(loanStatus(schedule, auto([missed]), '2025-04-16')).toBe('Overdue');
    const part = paid(3, '2025-04-20', 50000);
    expect(overdueEmiCount(schedule.rows, auto([missed, part]), '2025-04-21')).toBe(1);
    const rest = paid(3, '2025-04-25', emi(3).amount - 50000);
    expect(loanStatus(schedule, auto([missed, part, rest]), '2025-04-26')).toBe('Active');
  });

  it('not auto-debited: a past EMI not marked paid is overdue', () => {
    const firstTwo = [paid(1, '2025-02-15'), paid(2, '2025-03-15')];
    expect(loanStatus(schedule, byHand(firstTwo), '2025-04-15')).toBe('Active');
    expect(loanStatus(schedule, byHand(firstTwo), '2025-04-16')).toBe('Overdue');
    expect(overdueEmiCount(schedule.rows, byHand(firstTwo), '2025-05-16')).toBe(2);
    expect(overdueEmiCount(schedule.rows, byHand([]), '2025-05-16')).toBe(4);
    const all = schedule.rows.map((row) => paid(row.paymentNumber, row.date));
    expect(loanStatus(schedule, byHand(all), '2026-02-01')).toBe('Completed');
  });

  it('a part-payment leaves the remainder overdue, also when auto-debited', () => {
    const part = paid(1, '2025-02-15', emi(1).amount - 1);
    expect(overdueEmiCount(schedule.rows, auto([part]), '2025-02-16')).toBe(1);
    expect(overdueEmiCount(schedule.rows, byHand([part]), '2025-02-15')).toBe(0);
  });

  it('is Completed after a foreclosure', () => {
    const closed = actualSchedule(terms, [{ kind: 'foreclosure', date: '2025-05-20', charge: 0 }]);
    expect(loanStatus(closed, auto([]), '2025-05-21')).toBe('Completed');
  });
});
