import { randomUUID } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { createTestApp, type TestApp } from '../../testing/test-app';

type Row = {
  kind: string;
  payment_number: number;
  emi_date: string;
  emi: number;
  paid_on: string | null;
  paid_amount: number | null;
  transaction_id: string | null;
  payment_state: string | null;
  remainder: number;
  overdue: boolean;
  mark_ids: string[];
};
type Mark = { mark_id: string; kind: string; payment_numbers: number[]; date: string | null };

/** HDFC (bank 12) Home Loan: ₹10 lakh at 9% for 5 years from 2024-01-15 (EMI ₹20,758.36). */
const loanBody = {
  bank_id: 12,
  loan_type_id: 1,
  account_number: 'HL77701234',
  principal_amount: 1000000,
  interest_rate: 9,
  is_interest_rate_yearly: 1,
  duration: 5,
  is_duration_yearly: 1,
  start_date: '2024-01-15',
  processing_fee: 10000,
  has_gst: 0,
  gst_percentage: 0,
};
const EMI = 20758.36;

/**
 * Issue 27: EMIs paid as people pay them. Today is 2026-01-10 in India: EMIs 1 to 23 (up to
 * 2025-12-15) are due, EMI 24 (2026-01-15) is not.
 */
describe('paying EMIs', () => {
  let t: TestApp;
  const clock = testClock('2026-01-10T04:00:00.000Z', { step: 1000 });
  const alice = randomUUID();
  const bob = randomUUID();

  const newLoan = async (extra: Record<string, unknown> = {}) => {
    const res = await t.as(alice).post('/api/loans', { ...loanBody, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.loan as {
      id: string;
      emis_auto_debited: boolean;
      processing_fee_has_gst: boolean;
      apr: number;
    };
  };
  const schedule = async (id: string) => {
    const res = await t.as(alice).get(`/api/loans/${id}/amortization`);
    expect(res.status).toBe(200);
    return res.body.data as { schedule: Row[]; summary: { marks: Mark[]; emis_auto_debited: boolean } };
  };
  const emi = async (id: string, n: number) =>
    (await schedule(id)).schedule.find((r) => r.kind === 'emi' && r.payment_number === n) as Row;
  const loanOf = async (id: string) => (await t.as(alice).get(`/api/loans/${id}`)).body.data.loan;
  const version = async (id: string) => (await t.as(alice).get(`/api/loans/${id}`)).headers.etag;
  const debit = async (amount: number, date: string, notes = 'HDFC EMI') => {
    const res = await t.as(alice).post('/api/transactions', {
      notes,
      transaction_type: 'D',
      transaction_date: date,
      amount,
    });
    expect(res.status).toBe(201);
    return res.body.data.transaction.id as string;
  };

  beforeAll(async () => {
    t = await createTestApp({ clock });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('asks at create whether EMIs are auto-debited and GST is charged on the fee: on unless turned off', async () => {
    const on = await newLoan();
    expect(on).toMatchObject({ emis_auto_debited: true, processing_fee_has_gst: true });
    const off = await newLoan({ emis_auto_debited: 0, processing_fee_has_gst: 0 });
    expect(off).toMatchObject({ emis_auto_debited: false, processing_fee_has_gst: false });
    // The fee's 18% GST weighs on the APR only when it is charged.
    expect(off.apr).toBeLessThan(on.apr);
    expect(off.apr).toBeGreaterThan(9);
    const count = (await t.as(alice).get('/api/loans')).body.meta.pagination.totalItems;
    const bad = await t
      .as(alice)
      .post('/api/loans', { ...loanBody, emis_auto_debited: 'maybe', processing_fee_has_gst: 2 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { field: 'emis_auto_debited', message: 'Auto-debit must be on (1) or off (0)' },
      {
        field: 'processing_fee_has_gst',
        message: 'GST on the processing fee must be charged (1) or not (0)',
      },
    ]);
    expect((await t.as(alice).get('/api/loans')).body.meta.pagination.totalItems).toBe(count);
    // Edit turns auto-debit off; the history names the change in the form's words.
    const edited = await t.as(alice).put(`/api/loans/${on.id}`, { ...loanBody, emis_auto_debited: 0 });
    expect(edited.body.data.loan).toMatchObject({ emis_auto_debited: false, processing_fee_has_gst: true });
  });

  it('auto-debited: past EMIs count as paid on their due dates; off: they are overdue', async () => {
    const auto = await newLoan();
    expect(await emi(auto.id, 23)).toMatchObject({
      payment_state: 'auto-debited',
      paid_on: '2025-12-15',
      overdue: false,
    });
    expect(await emi(auto.id, 24)).toMatchObject({ payment_state: 'due', paid_on: null });
    expect(await loanOf(auto.id)).toMatchObject({ status: 'Active', overdue_emis: 0 });
    const byHand = await newLoan({ emis_auto_debited: 0 });
    expect(await emi(byHand.id, 1)).toMatchObject({
      payment_state: 'overdue',
      overdue: true,
      remainder: EMI,
    });
    expect(await loanOf(byHand.id)).toMatchObject({ status: 'Overdue', overdue_emis: 23 });
  });

  it('marks every EMI up to a date paid on its due date in one command, and undoes it at once', async () => {
    const loan = await newLoan({ emis_auto_debited: 0 });
    await t.as(alice).post(`/api/loans/${loan.id}/emis/5/payment`, { paid_on: '2024-06-20' });
    const res = await t.as(alice).post(`/api/loans/${loan.id}/emis/paid-up-to`, { up_to: '2025-12-31' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('22 EMIs marked paid');
    const rows = (res.body.data.schedule as Row[]).filter((r) => r.kind === 'emi');
    expect(rows.slice(0, 23).every((r) => r.payment_state === 'paid')).toBe(true);
    expect(rows[9]).toMatchObject({ paid_on: rows[9]?.emi_date, paid_amount: EMI });
    expect(rows[4]).toMatchObject({ paid_on: '2024-06-20' });
    expect(await loanOf(loan.id)).toMatchObject({ status: 'Active', overdue_emis: 0 });
    const mark = (res.body.data.summary.marks as Mark[]).find((m) => m.kind === 'paid-up-to') as Mark;
    expect(mark.payment_numbers).toHaveLength(22);
    expect(mark.payment_numbers).not.toContain(5);

    const undo = await t.as(alice).delete(`/api/loans/${loan.id}/marks/${mark.mark_id}`);
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect(await loanOf(loan.id)).toMatchObject({ status: 'Overdue', overdue_emis: 22 });
    expect((await t.as(alice).delete(`/api/loans/${loan.id}/marks/${mark.mark_id}`)).status).toBe(404);
  });

  it('refuses a bad or future date with a 422 and records nothing', async () => {
    const loan = await newLoan({ emis_auto_debited: 0 });
    const before = await version(loan.id);
    const bad = await t.as(alice).post(`/api/loans/${loan.id}/emis/paid-up-to`, { up_to: '2025-02-30' });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({
      success: false,
      errors: [{ field: 'up_to', message: 'Please enter a valid date' }],
    });
    const future = await t.as(alice).post(`/api/loans/${loan.id}/emis/paid-up-to`, { up_to: '2026-02-01' });
    expect(future.body.errors).toEqual([{ field: 'up_to', message: 'The date cannot be in the future' }]);
    const early = await t.as(alice).post(`/api/loans/${loan.id}/emis/paid-up-to`, { up_to: '2024-01-20' });
    expect(early.body.errors).toEqual([
      { field: 'up_to', message: 'Every EMI due on or before 2024-01-20 is already marked' },
    ]);
    const notDue = await t.as(alice).post(`/api/loans/${loan.id}/emis/24/missed`);
    expect(notDue.status).toBe(422);
    const badPre = await t
      .as(alice)
      .post(`/api/loans/${loan.id}/pre-emi-interest`, { date: 'soon', amount: '₹5' });
    expect(badPre.body.errors.map((e: { field: string }) => e.field)).toEqual(['date', 'amount']);
    expect(await version(loan.id)).toBe(before);
  });

  it('asks to confirm a debit of another amount; a short one leaves the remainder overdue', async () => {
    const loan = await newLoan();
    const bill = await debit(2310.75, '2024-03-16', 'Electricity bill');
    const before = await version(loan.id);
    const refused = await t.as(alice).post(`/api/loans/${loan.id}/emis/2/payment`, { transaction_id: bill });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        field: 'confirm',
        message:
          "The debit of ₹2,310.75 differs from EMI 2's amount of ₹20,758.36; confirm to match it anyway",
      },
    ]);
    expect(await version(loan.id)).toBe(before);
    const confirmed = await t.as(alice).post(`/api/loans/${loan.id}/emis/2/payment`, {
      transaction_id: bill,
      confirm: true,
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    expect(await emi(loan.id, 2)).toMatchObject({
      payment_state: 'partly-paid',
      paid_amount: 2310.75,
      remainder: 18447.61,
      overdue: true,
      transaction_id: bill,
    });
    // Auto-debit does not paper over a short payment.
    expect(await loanOf(loan.id)).toMatchObject({ status: 'Overdue', overdue_emis: 1 });
    // The rest paid by hand covers it.
    await t
      .as(alice)
      .post(`/api/loans/${loan.id}/emis/2/payment`, { paid_on: '2024-03-20', amount: 18447.61 });
    expect(await emi(loan.id, 2)).toMatchObject({
      payment_state: 'paid',
      paid_on: '2024-03-20',
      remainder: 0,
    });
  });

  it('undoes a match: the debit shows again in the ledger and can be matched again', async () => {
    const loan = await newLoan();
    const paid = await debit(EMI, '2024-04-16');
    const res = await t.as(alice).post(`/api/loans/${loan.id}/emis/3/payment`, { transaction_id: paid });
    expect(res.status).toBe(201);
    const row = await emi(loan.id, 3);
    expect(row).toMatchObject({ payment_state: 'paid', paid_on: '2024-04-16', transaction_id: paid });
    const april = async () =>
      (
        (await t.as(alice).get('/api/ledger?month=4&year=2024')).body.data.debit.transactions as {
          id: string;
        }[]
      ).map((e) => e.id);
    expect(await april()).not.toContain(paid);
    const undo = await t.as(alice).delete(`/api/loans/${loan.id}/marks/${row.mark_ids[0]}`);
    expect(undo.status).toBe(200);
    expect(undo.body.message).toBe('Match released');
    expect(await emi(loan.id, 3)).toMatchObject({ payment_state: 'auto-debited', transaction_id: null });
    expect(await april()).toContain(paid);
    const again = await t.as(alice).post(`/api/loans/${loan.id}/emis/3/payment`, { transaction_id: paid });
    expect(again.status).toBe(201);
  });

  it('deleting a matched debit releases the match: no EMI or ledger row is left built from it', async () => {
    const loan = await newLoan({ emis_auto_debited: 0 });
    const paid = await debit(20000, '2024-05-18');
    const res = await t
      .as(alice)
      .post(`/api/loans/${loan.id}/emis/4/payment`, { transaction_id: paid, confirm: true });
    expect(res.status).toBe(201);
    const match = await t.as(alice).get(`/api/loans/debit-matches/${paid}`);
    expect(match.body.data.match).toMatchObject({ loan_id: loan.id, payment_number: 4 });
    const deleted = await t.as(alice).delete(`/api/transactions/${paid}`);
    expect(deleted.status).toBe(200);
    // The match is released before the debit is deleted, so no moment has a match to a deleted debit.
    expect(await t.caughtUp(['history'])).toBe(true);
    const log = (await t.as(alice).get('/api/history?limit=100')).body.data.entries as {
      type: string;
      position: string;
    }[];
    const released = log.find((e) => e.type === 'EmiMatchReleased');
    const removed = log.find((e) => e.type === 'TransactionDeleted');
    expect(released && removed && released.position < removed.position).toBe(true);
    expect(await emi(loan.id, 4)).toMatchObject({
      payment_state: 'overdue',
      paid_amount: null,
      transaction_id: null,
    });
    const may = (await t.as(alice).get('/api/ledger?month=5&year=2024')).body.data.debit.transactions as {
      id: string;
      amount: number;
      date: string;
    }[];
    const entry = may.find((e) => e.id === `emi-${loan.id}-4`);
    expect(entry).toMatchObject({ amount: EMI, date: '2024-05-15' });
    expect(may.some((e) => e.id === paid || e.amount === 20000)).toBe(false);
    const history = await t.as(alice).get(`/api/history?stream=loan:${loan.id}`);
    expect(
      (history.body.data.entries as { summary: string }[]).some((e) =>
        /^Match of a deleted debit to loan HL77701234 · .+ released$/.test(e.summary),
      ),
    ).toBe(true);
  });

  it('a bounced EMI is overdue even when EMIs are auto-debited, until undone', async () => {
    const loan = await newLoan();
    const res = await t.as(alice).post(`/api/loans/${loan.id}/emis/7/missed`);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const row = await emi(loan.id, 7);
    expect(row).toMatchObject({ payment_state: 'missed', overdue: true, remainder: EMI });
    expect(await loanOf(loan.id)).toMatchObject({ status: 'Overdue', overdue_emis: 1 });
    expect((await t.as(alice).post(`/api/loans/${loan.id}/emis/7/missed`)).status).toBe(409);
    await t.as(alice).delete(`/api/loans/${loan.id}/marks/${row.mark_ids[0]}`);
    expect(await loanOf(loan.id)).toMatchObject({ status: 'Active' });
  });

  it('quotes a foreclosure without recording it, crediting an EMI paid in advance', async () => {
    const loan = await newLoan();
    await t.as(alice).post(`/api/loans/${loan.id}/emis/24/payment`, { paid_on: '2026-01-08' });
    const before = await version(loan.id);
    const res = await t.as(alice).get(`/api/loans/${loan.id}/foreclosure/quote?date=2026-01-10&charge=1000`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const quote = res.body.data.quote;
    const last = await emi(loan.id, 23);
    expect(quote).toMatchObject({
      date: '2026-01-10',
      interest_from: '2025-12-15',
      days: 26,
      annual_rate: 9,
      gst: 0,
      charge: 1000,
      advance_emis: [{ payment_number: 24, due_date: '2026-01-15', amount: EMI }],
      advance_credit: EMI,
    });
    const schedule23 = (await schedule(loan.id)).schedule.find(
      (r) => r.payment_number === 23 && r.kind === 'emi',
    );
    expect(schedule23).toBeDefined();
    expect(quote.outstanding_principal).toBeGreaterThan(0);
    // 26 days at 9% a year on the outstanding principal, actual/365.
    expect(quote.interest).toBeCloseTo((quote.outstanding_principal * 0.09 * 26) / 365, 1);
    expect(quote.total).toBeCloseTo(quote.outstanding_principal + quote.interest + 1000, 2);
    expect(quote.payable).toBeCloseTo(quote.total - EMI, 2);
    expect(last.payment_state).toBe('auto-debited');
    expect(await version(loan.id)).toBe(before);
    const bad = await t.as(alice).get(`/api/loans/${loan.id}/foreclosure/quote?date=2026-13-01&charge=-1`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['date', 'charge']);
  });

  it('records pre-EMI interest and construction completion: the certificate deducts a fifth a year', async () => {
    const loan = await newLoan();
    expect(
      (await t.as(alice).post(`/api/loans/${loan.id}/pre-emi-interest`, { date: '2024-01-10', amount: 5000 }))
        .status,
    ).toBe(422);
    const pre = await t
      .as(alice)
      .post(`/api/loans/${loan.id}/pre-emi-interest`, { date: '2024-03-01', amount: 12000 });
    expect(pre.status, JSON.stringify(pre.body)).toBe(201);
    await t.as(alice).post(`/api/loans/${loan.id}/pre-emi-interest`, { date: '2024-09-01', amount: 8000.05 });
    const done = await t
      .as(alice)
      .put(`/api/loans/${loan.id}/construction-completed`, { date: '2025-02-01' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const fy = async (label: string) =>
      (await t.as(alice).get(`/api/loans/${loan.id}/certificate?fy=${label}`)).body.data.certificate
        .pre_emi_interest;
    expect(await fy('2023-24')).toEqual({
      total: 20000.05,
      construction_completed_on: '2025-02-01',
      instalment: null,
      deductible: 0,
    });
    expect(await fy('2024-25')).toMatchObject({ instalment: 1, deductible: 4000.01 });
    expect(await fy('2028-29')).toMatchObject({ instalment: 5, deductible: 4000.01 });
    expect(await fy('2029-30')).toMatchObject({ instalment: null, deductible: 0 });
  });

  it('lists the EMIs due in the year and not paid on the certificate, its printable page and its PDF (with ₹)', async () => {
    const loan = await newLoan({ emis_auto_debited: 0 });
    await t.as(alice).post(`/api/loans/${loan.id}/emis/paid-up-to`, { up_to: '2025-09-30' });
    const json = (await t.as(alice).get(`/api/loans/${loan.id}/certificate?fy=2025-26`)).body.data
      .certificate;
    expect(json).toMatchObject({ emis_due: 12, emis_paid: 6 });
    expect(json.unpaid_emis.map((e: { due_date: string }) => e.due_date)).toEqual([
      '2025-10-15',
      '2025-11-15',
      '2025-12-15',
    ]);
    const html = await t.as(alice).get(`/api/loans/${loan.id}/certificate?fy=2025-26&format=html`);
    expect(html.text).toContain('EMIs due in the year and not paid: EMI 21 due 15 October 2025');
    expect(html.text).toContain('₹20,758.36');
    // The PDF prints the same figures with the rupee sign (an embedded font maps a glyph to U+20B9).
    const pdf = await t.as(alice).get(`/api/loans/${loan.id}/certificate?fy=2025-26&format=pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const streams = [...pdf.payload.toString('latin1').matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map(
      (m) => {
        const bytes = Buffer.from(m[1] ?? '', 'latin1');
        try {
          return inflateSync(bytes).toString('latin1');
        } catch {
          return bytes.toString('latin1');
        }
      },
    );
    const unicode = streams.find((text) => text.includes('begincmap')) ?? '';
    expect(unicode).toMatch(/<20b9>/i);
    expect(streams.join('\n')).not.toContain('Rs.');
  });

  it("never shows or changes another user's loan", async () => {
    const loan = await newLoan();
    const marked = await t.as(alice).post(`/api/loans/${loan.id}/emis/1/missed`);
    const markId = (marked.body.data.summary.marks as Mark[])[0]?.mark_id;
    const before = await version(loan.id);
    const attempts = [
      t.as(bob).post(`/api/loans/${loan.id}/emis/paid-up-to`, { up_to: '2025-12-31' }),
      t.as(bob).post(`/api/loans/${loan.id}/emis/2/missed`),
      t.as(bob).post(`/api/loans/${loan.id}/emis/2/payment`, { paid_on: '2024-03-15' }),
      t.as(bob).delete(`/api/loans/${loan.id}/marks/${markId}`),
      t.as(bob).post(`/api/loans/${loan.id}/pre-emi-interest`, { date: '2024-03-01', amount: 100 }),
      t.as(bob).put(`/api/loans/${loan.id}/construction-completed`, { date: '2025-02-01' }),
      t.as(bob).get(`/api/loans/${loan.id}/foreclosure/quote?date=2026-01-10`),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(404);
    expect(await version(loan.id)).toBe(before);
  });
});
