import { describe, expect, it } from 'vitest';
import { cashflowFromReport } from './dashboardApi';

describe('cashflowFromReport', () => {
  it("draws the report's income as credits and its expense and loan payments as the ledger's debits", () => {
    const bars = cashflowFromReport({
      months: [
        { year: 2025, month: 12, month_name: 'December', income: 0, expense: 0, loan_payments: 0, net: 0 },
        {
          year: 2026,
          month: 1,
          month_name: 'January',
          income: 51000,
          expense: 2000.1,
          loan_payments: 10499.2,
          net: 38500.7,
        },
      ],
      totals: { income: 51000, expense: 2000.1, loan_payments: 10499.2, net: 38500.7 },
      as_of: '2026-01-20',
    });
    expect(bars).toEqual([
      { month: 12, year: 2025, label: 'Dec 25', credits: 0, debits: 0 },
      // 2000.1 + 10499.2 is 12499.300000000001 in floats; the bar is summed in paise.
      { month: 1, year: 2026, label: 'Jan 26', credits: 51000, debits: 12499.3 },
    ]);
  });
});
