import { describe, expect, it } from 'vitest';
import type { Loan } from '../loans/loansApi';
import { outstandingOverTime } from './outstanding';

const loan = (over: Partial<Loan>): Loan => ({
  id: 'l1',
  bankId: 1,
  loanTypeId: 1,
  accountNumber: 'AC12345',
  shortDetail: null,
  principalAmount: 1200,
  interestRate: 0.1,
  isInterestRateYearly: true,
  duration: 12,
  isDurationYearly: false,
  startDate: '2025-01-15',
  endDate: '2026-01-15',
  processingFee: 0,
  hasGst: false,
  gstPercentage: 0,
  emisAutoDebited: true,
  processingFeeHasGst: true,
  scheduleVersion: 1,
  createdAt: '2025-01-15T00:00:00Z',
  updatedAt: '2025-01-15T00:00:00Z',
  bank: { bankName: 'SBI', branchName: null },
  loanType: { typeName: 'Home Loan' },
  ...over,
});

describe('outstandingOverTime', () => {
  it('is empty without loans', () => {
    expect(outstandingOverTime([])).toEqual([]);
  });

  it('starts at nothing owed, holds the principal until the first EMI and ends at zero', () => {
    const points = outstandingOverTime([loan({})]);
    expect(points[0]).toEqual({ date: '2025-01-01', outstanding: 0 });
    expect(points[1]?.date).toBe('2025-02-01');
    expect(points[1]?.outstanding).toBe(1200);
    expect(points.at(-1)?.outstanding).toBe(0);
  });

  it('adds loans together', () => {
    const both = outstandingOverTime([
      loan({}),
      loan({ id: 'l2', startDate: '2025-01-10', endDate: '2026-01-10' }),
    ]);
    expect(both[1]?.outstanding).toBe(2400);
  });
});
