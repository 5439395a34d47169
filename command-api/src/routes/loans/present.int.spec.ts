import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { createTestApp, type TestApp } from '../../testing/test-app';

/** Issue 27 items 7 and 8: the loan answer tells the loan's present beside the contract's terms. */

type Present = {
  as_of: string;
  annual_rate_percent: number;
  rate_since: string | null;
  emi: number | null;
  next_emi_date: string | null;
  next_emi_gst: number | null;
  next_emi_total: number | null;
  emis_left: number;
  closing_date: string | null;
  outstanding_principal: number;
};
type Row = {
  kind: string;
  emi_date: string;
  principal: number;
  interest: number;
  remaining_principal: number;
};

/** SBI (bank 1) home loan: ₹50 lakh at 8.5% for 20 years from 2020-05-05, GST 18% on interest. */
const homeLoan = {
  bank_id: 1,
  loan_type_id: 1,
  account_number: 'HL20200505',
  short_detail: null,
  principal_amount: 5000000,
  interest_rate: 8.5,
  is_interest_rate_yearly: 1,
  duration: 20,
  is_duration_yearly: 1,
  start_date: '2020-05-05',
  end_date: '2040-05-05',
  processing_fee: 10000,
  has_gst: 1,
  gst_percentage: 18,
};

const rupees = (paise: number) => Math.round(paise) / 100;
const paise = (value: number) => Math.round(value * 100);

describe('a loan tells its present (postgres)', () => {
  let t: TestApp;
  /** Today is 2026-01-10 in India. */
  const clock = testClock('2026-01-10T04:00:00.000Z', { step: 1000 });
  const alice = randomUUID();
  let loanId: string;
  /** An instant after the loan was created and before its first change. */
  let beforeChanges: string;

  const details = async (query = '') => {
    const res = await t.as(alice).get(`/api/loans/${loanId}${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.loan as Record<string, unknown> & { current: Present };
  };
  const listed = async (id = loanId) => {
    const res = await t.as(alice).get('/api/loans?limit=50');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as (Record<string, unknown> & { id: string; current: Present })[]).find(
      (loan) => loan.id === id,
    );
  };
  const rows = async (id = loanId) =>
    (await t.as(alice).get(`/api/loans/${id}/amortization`)).body.data.schedule as Row[];
  /** The first EMI dated after today, as the schedule shows it. */
  const nextEmi = async (id = loanId) =>
    (await rows(id)).find((row) => row.kind === 'emi' && row.emi_date > '2026-01-10') as Row;

  beforeAll(async () => {
    t = await createTestApp({ mode: 'postgres', clock });
    const res = await t.as(alice).post('/api/loans', homeLoan);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    loanId = res.body.data.loan.id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers the present of an unchanged loan: its contract rate and EMI, 172 EMIs left, today’s balance', async () => {
    const loan = await details();
    const next = await nextEmi();
    const due = (await rows()).filter((row) => row.emi_date <= '2026-01-10').at(-1) as Row;
    expect(loan.current).toMatchObject({
      as_of: '2026-01-10',
      annual_rate_percent: 8.5,
      rate_since: null,
      emi: rupees(paise(next.principal) + paise(next.interest)),
      next_emi_date: '2026-02-05',
      // EMIs of 2026-02-05 … 2040-05-05.
      emis_left: 172,
      closing_date: '2040-05-05',
      outstanding_principal: due.remaining_principal,
    });
    expect(loan.current.next_emi_total).toBe(
      rupees(paise(loan.current.emi as number) + paise(loan.current.next_emi_gst as number)),
    );
    expect((await listed())?.current).toEqual(loan.current);
  });

  it('after a rate reset the list and the details say the new rate and EMI; the contract terms stay', async () => {
    const before = (await details()).current;
    beforeChanges = clock.advance(0).toISOString();
    const res = await t.as(alice).post(`/api/loans/${loanId}/rate-changes`, {
      date: '2024-05-05',
      annual_rate_percent: 9.25,
      option: 'increase-emi',
    });
    expect(res.status, res.body.message).toBe(201);
    const next = await nextEmi();
    for (const loan of [await details(), await listed()]) {
      expect(loan?.interest_rate).toBe(8.5);
      expect(loan?.end_date).toBe('2040-05-05');
      expect(loan?.current).toMatchObject({
        annual_rate_percent: 9.25,
        rate_since: '2024-05-05',
        emi: rupees(paise(next.principal) + paise(next.interest)),
        emis_left: 172,
        closing_date: '2040-05-05',
      });
      expect(loan?.current.emi).toBeGreaterThan(before.emi as number);
    }
  });

  it('after a reduce-tenure part-payment the closing date comes earlier and fewer EMIs are left', async () => {
    const before = (await details()).current;
    const res = await t.as(alice).post(`/api/loans/${loanId}/prepayments`, {
      date: '2025-06-20',
      amount: 500000,
      charge: 0,
      choice: 'reduce-tenure',
    });
    expect(res.status, res.body.message).toBe(201);
    const loan = await details();
    expect(loan.end_date).toBe('2040-05-05');
    expect((loan.current.closing_date ?? '9999-12-31') < '2040-05-05').toBe(true);
    expect(loan.current.closing_date).toBe(loan.closed_on);
    expect(loan.current.emis_left).toBeLessThan(before.emis_left);
    expect(loan.current.outstanding_principal).toBeLessThan(before.outstanding_principal - 490000);
    // The same EMI, a shorter loan.
    expect(loan.current.emi).toBeCloseTo(before.emi as number, 0);
    expect((await listed())?.current).toEqual(loan.current);
    // A command's answer (folded from the events) says the same as the read model.
    const edited = await t
      .as(alice)
      .put(`/api/loans/${loanId}`, { ...homeLoan, short_detail: 'Flat in Pune' });
    expect(edited.status, edited.body.message).toBe(200);
    expect(edited.body.data.loan.current).toEqual(loan.current);
    expect(edited.body.data.loan.actual_apr).toBe(loan.actual_apr);
  });

  it('answers the contract APR and the APR of the actual payments, which differ after the changes', async () => {
    const loan = await details();
    expect(loan.apr).toBeGreaterThan(8.5);
    expect(loan.actual_apr).toBeGreaterThan(8.5);
    // The reset to 9.25% raised what was actually paid above the contract's 8.5%.
    expect(loan.actual_apr).toBeGreaterThan(loan.apr as number);
  });

  it('as of a moment before the changes, the present is the contract’s', async () => {
    const loan = await details(`?as_of=${encodeURIComponent(beforeChanges)}`);
    expect(loan.current).toMatchObject({
      annual_rate_percent: 8.5,
      rate_since: null,
      closing_date: '2040-05-05',
    });
    expect(loan.actual_apr).toBe(loan.apr);
  });

  it('a loan repaid early by a part-payment is Completed once repaid, with nothing left', async () => {
    const res = await t.as(alice).post('/api/loans', {
      ...homeLoan,
      account_number: 'PL20210110',
      principal_amount: 100000,
      interest_rate: 10,
      duration: 6,
      start_date: '2021-01-10',
      end_date: '2027-01-10',
      processing_fee: 0,
      has_gst: 0,
      gst_percentage: 0,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.loan.id as string;
    const paid = await t.as(alice).post(`/api/loans/${id}/prepayments`, {
      date: '2021-02-15',
      amount: 97000,
      charge: 0,
      choice: 'reduce-tenure',
    });
    expect(paid.status, paid.body.message).toBe(201);
    const loan = await listed(id);
    expect(loan?.end_date).toBe('2027-01-10');
    expect(loan?.status).toBe('Completed');
    expect(loan?.current).toMatchObject({ emis_left: 0, emi: null, outstanding_principal: 0 });
    expect((loan?.current.closing_date ?? '9999-12-31') < '2022-01-10').toBe(true);
  });
});
