import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { createTestApp, type TestApp } from '../../testing/test-app';

/**
 * Issue 27 item 10: the History timeline and the ledger speak of a loan's changes in the screens'
 * words, naming the loan; part-payments and foreclosures are ledger entries of their own.
 */

type Entry = { type: string; summary: string; changes: { field: string; from: unknown; to: unknown }[] };
type LedgerEntry = { id: string; date: string; particulars: string; amount: number; type: string };

/** HDFC (bank 12, branch-less) Home Loan: ₹10 lakh at 9% for 5 years from 2024-01-15. */
const loanBody = {
  bank_id: 12,
  loan_type_id: 1,
  account_number: 'HL55501234',
  short_detail: null,
  principal_amount: 1000000,
  interest_rate: 9,
  is_interest_rate_yearly: 1,
  duration: 5,
  is_duration_yearly: 1,
  start_date: '2024-01-15',
  end_date: '2029-01-15',
  processing_fee: 0,
  has_gst: 0,
  gst_percentage: 0,
};

describe('loan changes in the history and the ledger (postgres)', () => {
  let t: TestApp;
  const clock = testClock('2026-01-10T04:00:00.000Z', { step: 1000 });
  const alice = randomUUID();
  let loanId: string;
  let loan: string;

  const timeline = async (query: string) => {
    expect(await t.caughtUp(['history'])).toBe(true);
    const res = await t.as(alice).get(`/api/history${query}`);
    expect(res.status, res.body.message).toBe(200);
    return res.body.data.entries as Entry[];
  };
  const ledger = async (month: number, year: number) => {
    const res = await t.as(alice).get(`/api/ledger?month=${month}&year=${year}`);
    expect(res.status, res.body.message).toBe(200);
    return res.body.data as {
      summary: { emiCount: number; totalDebit: number };
      debit: { transactions: LedgerEntry[]; total: number };
    };
  };
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await t.as(alice).post(`/api/loans/${loanId}/${path}`, body);
    expect(res.status, res.body.message).toBe(201);
  };

  beforeAll(async () => {
    t = await createTestApp({ mode: 'postgres', clock });
    const res = await t.as(alice).post('/api/loans', loanBody);
    expect(res.status, res.body.message).toBe(201);
    loanId = res.body.data.loan.id;
    const bank = res.body.data.loan.bank as { bank_name: string; branch_name: string | null };
    loan = `HL55501234 · ${bank.bank_name}${bank.branch_name ? ` - ${bank.branch_name}` : ''}`;
    const debit = await t.as(alice).post('/api/transactions', {
      notes: 'EMI March',
      transaction_type: 'D',
      transaction_date: '2024-03-16',
      amount: 20758.36,
    });
    expect(debit.status).toBe(201);
    await post('emis/1/payment', { paid_on: '2024-02-15' });
    await post('emis/2/payment', { transaction_id: debit.body.data.transaction.id });
    await post('rate-changes', { date: '2024-05-15', annual_rate_percent: 9.5, option: 'increase-emi' });
    await post('emi-override', { date: '2024-08-15', emi: 22000 });
    await post('prepayments', { date: '2025-06-20', amount: 200000, charge: 2000, choice: 'reduce-tenure' });
    await post('foreclosure', { date: '2025-12-05', charge: 1000 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('each change has a summary naming the loan and its fields in the screens’ words', async () => {
    const entries = await timeline(`?stream=loan:${loanId}&limit=100`);
    const of = (type: string) => entries.filter((e) => e.type === type);
    expect(of('EmiMarkedPaid').map((e) => e.summary)).toEqual([
      `EMI 1 of loan ${loan} marked paid on 15 Feb 2024 (₹20,758.36)`,
    ]);
    expect(of('EmiMatched').map((e) => e.summary)).toEqual([
      `Debit of ₹20,758.36 on 16 Mar 2024 matched to EMI 2 of loan ${loan}`,
    ]);
    expect(of('EmiMatched')[0]?.changes).toContainEqual({ field: 'Amount', from: null, to: 20758.36 });
    expect(of('LoanRateChanged')[0]).toMatchObject({
      summary: `Rate of loan ${loan} reset to 9.5% from 15 May 2024`,
      changes: [
        { field: 'Effective Date', from: null, to: '2024-05-15' },
        { field: 'New Annual Rate', from: null, to: '9.5%' },
        { field: 'Reset Option', from: null, to: 'Increase the EMI (same tenure)' },
      ],
    });
    expect(of('EmiOverridden')[0]?.summary).toBe(`EMI of loan ${loan} set to ₹22,000.00 from 15 Aug 2024`);
    expect(of('LoanPrepaid')[0]).toMatchObject({
      summary: `Part-payment of ₹2,00,000.00 on loan ${loan}, tenure reduced`,
      changes: [
        { field: 'Date', from: null, to: '2025-06-20' },
        { field: 'Amount', from: null, to: 200000 },
        { field: 'Charge', from: null, to: 2000 },
        { field: 'After the part-payment', from: null, to: 'Reduce tenure' },
      ],
    });
    const foreclosed = of('LoanForeclosed')[0];
    expect(foreclosed?.summary).toMatch(
      new RegExp(`^Loan ${loan} foreclosed on 05 Dec 2025 \\(settlement ₹[\\d,]+\\.\\d\\d\\)$`),
    );
    expect(foreclosed?.changes.map((c) => c.field)).toEqual([
      'Date',
      'Principal',
      'Interest',
      'Charge',
      'Settlement',
    ]);
    expect(of('ScheduleRevised').map((e) => e.summary)).toEqual([
      expect.stringMatching(
        new RegExp(`^Schedule version 5 of loan ${loan}: Foreclosed on 05 Dec 2025 \\(settlement ₹`),
      ),
      `Schedule version 4 of loan ${loan}: Part-payment of ₹2,00,000.00 (charge ₹2,000.00), tenure reduced`,
      `Schedule version 3 of loan ${loan}: EMI set to ₹22,000.00 from 15 Aug 2024`,
      `Schedule version 2 of loan ${loan}: Rate reset to 9.5% from 15 May 2024, EMI increased`,
    ]);
    // The reset's revision says how the EMI moved: the first EMI is the same, the one after the reset is not.
    const reset = of('ScheduleRevised')[3];
    const emi = reset?.changes.find((c) => c.field === 'EMI');
    expect(emi?.from).toBe(20758.36);
    expect(Number(emi?.to)).toBeGreaterThan(20758.36);
  });

  it('offers each change type as a History filter, and the filter answers only those', async () => {
    for (const type of [
      'EmiMarkedPaid',
      'LoanRateChanged',
      'EmiOverridden',
      'LoanPrepaid',
      'LoanForeclosed',
      'ScheduleRevised',
    ]) {
      const entries = await timeline(`?type=${type}&limit=100`);
      expect(entries.length, type).toBeGreaterThan(0);
      expect(new Set(entries.map((e) => e.type))).toEqual(new Set([type]));
      expect(
        entries.every((e) => e.summary.includes(loan)),
        type,
      ).toBe(true);
    }
  });

  it('puts a part-payment in the ledger as its own entry, not an EMI, and leaves it off the EMI card', async () => {
    const june = await ledger(6, 2025);
    const payment = june.debit.transactions.find((e) => e.type === 'prepayment');
    expect(payment).toMatchObject({
      date: '2025-06-20',
      particulars: expect.stringMatching(/^Part-payment — HDFC Bank Home Loan · HL55501234$/),
    });
    // ₹2,00,000 principal, its interest since the last EMI, and the ₹2,000 charge.
    expect(payment?.amount).toBeGreaterThan(202000);
    const emis = june.debit.transactions.filter((e) => e.type === 'emi');
    expect(emis).toHaveLength(1);
    expect(june.summary.emiCount).toBe(1);
    expect(june.debit.transactions).toHaveLength(2);
  });

  it('puts the foreclosure in the ledger as its own entry, and counts no EMI for it', async () => {
    const december = await ledger(12, 2025);
    expect(december.debit.transactions).toEqual([
      expect.objectContaining({
        date: '2025-12-05',
        type: 'foreclosure',
        particulars: expect.stringMatching(/^Foreclosure — HDFC Bank Home Loan · HL55501234$/),
      }),
    ]);
    expect(december.summary.emiCount).toBe(0);
  });
});
