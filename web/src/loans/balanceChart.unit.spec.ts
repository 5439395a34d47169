import { describe, expect, it } from 'vitest';
import { actualSteps, balancePoints, contractSteps, whatIfSteps } from './balanceChart';
import type { Loan, ScheduleRow } from './loansApi';

const loan = {
  principalAmount: 120000,
  interestRate: 12,
  isInterestRateYearly: true,
  duration: 12,
  isDurationYearly: false,
  startDate: '2025-01-15',
  hasGst: false,
  gstPercentage: 0,
} as Loan;

const row = (n: number, emiDate: string, remainingPrincipal: number, kind: ScheduleRow['kind'] = 'emi') =>
  ({
    paymentNumber: n,
    emiDate,
    principal: 0,
    interest: 0,
    gst: 0,
    emi: 0,
    remainingPrincipal,
    kind,
  }) as ScheduleRow;

describe('balancePoints', () => {
  it('follows the contract from the principal down to exactly 0 on its last EMI', () => {
    const points = balancePoints(contractSteps(loan), []);
    expect(points).toHaveLength(13);
    expect(points[0]).toEqual({ date: '2025-01-15', contract: 120000, actual: null });
    expect(points.at(-1)).toEqual({ date: '2026-01-15', contract: 0, actual: null });
  });

  it('puts the actual balance after a part-payment beside the contract, and holds 0 after a foreclosure', () => {
    const actual = actualSteps(loan, [
      row(1, '2025-02-15', 110000),
      row(1, '2025-03-01', 60000, 'prepayment'),
      row(2, '2025-03-15', 50000),
      row(2, '2025-04-01', 0, 'foreclosure'),
    ]);
    const points = balancePoints(contractSteps(loan), actual);
    const on = (date: string) => points.find((p) => p.date === date);
    expect(on('2025-03-01')?.actual).toBe(60000);
    expect(on('2025-03-01')?.contract).toBe(on('2025-02-15')?.contract);
    expect(on('2025-06-15')?.actual).toBe(0);
    expect(on('2025-06-15')?.contract).toBeGreaterThan(0);
  });

  it('is empty without a schedule for the actual series', () => {
    expect(actualSteps(loan, [])).toEqual([]);
  });

  it('draws each what-if choice as the loan runs now up to the part-payment, then its own balances', () => {
    const actual = actualSteps(loan, [row(1, '2025-02-15', 110000), row(2, '2025-03-15', 100000)]);
    const whatIf = {
      reduceEmi: whatIfSteps(actual, [
        { date: '2025-03-01', remainingPrincipal: 60000 },
        { date: '2025-03-15', remainingPrincipal: 55000 },
      ]),
      reduceTenure: whatIfSteps(actual, [
        { date: '2025-03-01', remainingPrincipal: 60000 },
        { date: '2025-03-15', remainingPrincipal: 0 },
      ]),
    };
    const points = balancePoints(contractSteps(loan), actual, whatIf);
    const on = (date: string) => points.find((p) => p.date === date);
    expect(on('2025-02-15')).toMatchObject({ actual: 110000, reduceEmi: 110000, reduceTenure: 110000 });
    expect(on('2025-03-01')).toMatchObject({ actual: 110000, reduceEmi: 60000, reduceTenure: 60000 });
    expect(on('2025-03-15')).toMatchObject({ actual: 100000, reduceEmi: 55000, reduceTenure: 0 });
    expect(whatIfSteps(actual, [])).toEqual([]);
  });
});
