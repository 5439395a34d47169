import { describe, expect, it } from 'vitest';
import { scheduleTotals } from './scheduleTotals';

const row = (n: number, principal: number, interest: number) => ({
  paymentNumber: n,
  emiDate: '2025-01-01',
  principal,
  interest,
  gst: 0.1,
  emi: principal + interest + 0.1,
  remainingPrincipal: 0,
});

describe('scheduleTotals', () => {
  it('adds columns in paise, free of floating-point drift', () => {
    const rows = Array.from({ length: 600 }, (_, i) => row(i + 1, 0.1, 0.2));
    expect(scheduleTotals(rows)).toEqual({ principal: 60, interest: 120, gst: 60, emi: 240, payments: 600 });
  });

  it('is zero for no rows', () => {
    expect(scheduleTotals([])).toEqual({ principal: 0, interest: 0, gst: 0, emi: 0, payments: 0 });
  });
});
