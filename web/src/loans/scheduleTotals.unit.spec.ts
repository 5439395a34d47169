import { describe, expect, it } from 'vitest';
import type { ScheduleRow } from './loansApi';
import { scheduleTotals } from './scheduleTotals';

const row = (
  n: number,
  principal: number,
  interest: number,
  extra: Partial<ScheduleRow> = {},
): ScheduleRow => ({
  id: `l1:1:${n}`,
  paymentNumber: n,
  emiDate: '2025-01-01',
  principal,
  interest,
  gst: 0.1,
  emi: principal + interest + 0.1,
  remainingPrincipal: 0,
  kind: 'emi',
  charge: 0,
  annualRate: null,
  paidOn: null,
  paidAmount: null,
  transactionId: null,
  paymentState: 'due',
  remainder: 0,
  overdue: false,
  markIds: [],
  ...extra,
});

describe('scheduleTotals', () => {
  it('adds columns in paise, free of floating-point drift', () => {
    const rows = Array.from({ length: 600 }, (_, i) => row(i + 1, 0.1, 0.2));
    expect(scheduleTotals(rows)).toEqual({
      principal: 60,
      interest: 120,
      gst: 60,
      charges: 0,
      emi: 240,
      otherPayments: 0,
      paid: 240,
      payments: 600,
      paidEmis: 0,
    });
  });

  it('counts a part-payment and a foreclosure as payments but not as EMIs', () => {
    const rows = [
      row(1, 1000, 100, { kind: 'emi', paidOn: '2025-01-01' }),
      row(1, 5000, 20, { kind: 'prepayment', charge: 50, emi: 5070.1 }),
      row(2, 800, 60, { kind: 'emi' }),
      row(2, 3200, 10, { kind: 'foreclosure', charge: 0 }),
    ];
    const totals = scheduleTotals(rows);
    expect(totals.payments).toBe(2);
    expect(totals.paidEmis).toBe(1);
    expect(totals.emi).toBe(1960.2);
    expect(totals.otherPayments).toBe(8280.2);
    expect(totals.paid).toBe(10240.4);
    expect(totals.principal).toBe(10000);
    expect(totals.charges).toBe(50);
  });

  it('is zero for no rows', () => {
    expect(scheduleTotals([])).toMatchObject({
      principal: 0,
      interest: 0,
      gst: 0,
      emi: 0,
      paid: 0,
      payments: 0,
    });
  });
});
