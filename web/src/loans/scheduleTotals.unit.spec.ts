import { annualPercentageRate } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import type { Loan, ScheduleRow } from './loansApi';
import { actualApr, emiInForce, scheduleTotals } from './scheduleTotals';

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

describe('emiInForce', () => {
  const dated = (n: number, level: number) => row(n, level - 10, 10, { emiDate: `2025-0${n}-15` });

  it('is the next regular EMI after a change lowered it', () => {
    const rows = [dated(1, 1000), dated(2, 1000), dated(3, 800), dated(4, 800), dated(5, 120)];
    expect(emiInForce(rows, '2025-02-20')).toBe(800);
  });

  it('is null while the EMI is the first one, and when only the last instalment is left', () => {
    const rows = [dated(1, 1000), dated(2, 1000), dated(3, 800), dated(4, 120)];
    expect(emiInForce(rows, '2025-01-20')).toBeNull();
    expect(emiInForce(rows, '2025-03-20')).toBeNull();
    expect(emiInForce([], '2025-03-20')).toBeNull();
  });
});

describe('actualApr', () => {
  // ₹1,20,000 at 12% for 12 months from 2025-01-15, ₹2,000 fee: contract APR from the domain.
  const loan = {
    principalAmount: 120000,
    processingFee: 2000,
    processingFeeHasGst: true,
    startDate: '2025-01-15',
    apr: 15.72,
  } as Loan;
  const monthly = (n: number, amount: number, kind: ScheduleRow['kind'] = 'emi', day = '15') =>
    row(n, 0, 0, { emiDate: `2025-${String(n + 1).padStart(2, '0')}-${day}`, emi: amount, kind });

  it('is null when the payments give the contract APR, or there is none', () => {
    const rows = Array.from({ length: 12 }, (_, i) => monthly(i + 1, 10661.85));
    const contract = annualPercentageRate({
      principal: 12000000,
      processingFee: 200000,
      feeGstPercent: 18,
      instalments: rows.map(() => 1066185),
    });
    expect(actualApr({ ...loan, apr: contract }, rows)).toBeNull();
    expect(actualApr({ ...loan, apr: undefined }, rows)).toBeNull();
    expect(actualApr(loan, [])).toBeNull();
  });

  it('rises when a part-payment repays sooner: the fee weighs on fewer months', () => {
    const rows = [
      monthly(1, 10661.85),
      monthly(2, 10661.85),
      monthly(2, 60000, 'prepayment', '20'),
      ...Array.from({ length: 5 }, (_, i) => monthly(i + 3, 10661.85)),
      monthly(8, 1200),
    ];
    const apr = actualApr(loan, rows);
    expect(apr).not.toBeNull();
    expect(apr!).toBeGreaterThan(loan.apr!);
  });
});
