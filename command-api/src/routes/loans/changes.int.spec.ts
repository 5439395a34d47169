import { randomUUID } from 'node:crypto';
import { LOAN_CHANGE_MESSAGES as M } from '@kosh/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { snapshotTables } from '../../testing/snapshot';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { CHANGE_INPUT_MESSAGES } from './change-input';

type Row = {
  kind: string;
  payment_number: number;
  emi_date: string;
  principal: number;
  interest: number;
  emi: number;
  remaining_principal: number;
  annual_rate: number | null;
  paid_on: string | null;
  paid_amount: number | null;
  transaction_id: string | null;
};
type Summary = { version: number; reason: string; number_of_payments: number; closed_on: string };

/** HDFC (bank 12) Home Loan: ₹10 lakh at 9% for 5 years from 2024-01-15, ₹10,000 processing fee. */
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
  processing_fee: 10000,
  has_gst: 0,
  gst_percentage: 0,
};

describe.each(['postgres', 'embedded'] as const)('loan changes (%s)', (mode) => {
  let t: TestApp;
  /** Today is 2026-01-10 in India; each call a second later. */
  const clock = testClock('2026-01-10T04:00:00.000Z', { step: 1000 });
  const alice = randomUUID();
  const bob = randomUUID();
  let loanId: string;

  const schedule = async (id = loanId) => {
    const res = await t.as(alice).get(`/api/loans/${id}/amortization`);
    expect(res.status).toBe(200);
    return res.body.data as { schedule: Row[]; summary: Summary };
  };
  const streamVersion = async () => (await t.as(alice).get(`/api/loans/${loanId}`)).headers.etag;

  beforeAll(async () => {
    t = await createTestApp({ mode, clock });
    const res = await t.as(alice).post('/api/loans', loanBody);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    loanId = res.body.data.loan.id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('shows the APR with the processing fee and its GST, above the loan rate', async () => {
    const res = await t.as(alice).get(`/api/loans/${loanId}`);
    expect(res.body.data.loan.apr).toBeGreaterThan(9);
    expect(res.body.data.loan.apr).toBeLessThan(10);
    expect(res.body.data.loan.status).toBe('Active');
  });

  it('compares both prepayment choices side by side without recording anything', async () => {
    const before = await streamVersion();
    const res = await t.as(alice).post(`/api/loans/${loanId}/prepayments/what-if`, {
      date: '2025-06-20',
      amount: 200000,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { without_prepayment: base, reduce_emi: emi, reduce_tenure: tenure } = res.body.data;
    expect(base.number_of_emis).toBe(60);
    expect(emi.number_of_emis).toBe(60);
    expect(emi.emi).toBeLessThan(base.emi);
    expect(tenure.emi).toBe(base.emi);
    expect(tenure.months_saved).toBeGreaterThan(0);
    expect(tenure.interest_saved).toBeGreaterThan(emi.interest_saved);
    expect(emi.interest_saved).toBeGreaterThan(0);
    // The interest collected with it: ₹2,00,000 × 9% × 5 days since the EMI of 2025-06-15 ÷ 365.
    expect(res.body.data.accrued).toEqual({
      from: '2025-06-15',
      days: 5,
      annual_rate: 9,
      interest: 246.58,
      gst: 0,
    });
    // The chart's what-if line: from the part-payment (2025-06-20) to 0 on each choice's last EMI.
    expect(tenure.balances[0].date >= '2025-06-20').toBe(true);
    expect(tenure.balances.at(-1)).toEqual({ date: tenure.closed_on, remaining_principal: 0 });
    expect(emi.balances.length - tenure.balances.length).toBe(tenure.months_saved);
    expect(await streamVersion()).toBe(before);
    (globalThis as { whatIf?: unknown }).whatIf = tenure;
  });

  it('refuses bad input with per-field messages and records nothing', async () => {
    const before = await streamVersion();
    const bad = await t.as(alice).post(`/api/loans/${loanId}/prepayments`, {
      date: '2025-13-01',
      amount: -5,
      choice: 'both',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'date', message: M.dateInvalid },
        { field: 'amount', message: M.amountInvalid },
        { field: 'choice', message: CHANGE_INPUT_MESSAGES.choiceInvalid },
      ]),
    );
    const future = await t.as(alice).post(`/api/loans/${loanId}/prepayments`, {
      date: '2026-02-01',
      amount: 1000,
      choice: 'reduce-emi',
    });
    expect(future.status).toBe(422);
    expect(future.body.errors).toEqual([{ field: 'date', message: M.dateInFuture }]);
    const tooMuch = await t.as(alice).post(`/api/loans/${loanId}/prepayments`, {
      date: '2025-06-20',
      amount: 5000000,
      choice: 'reduce-emi',
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors[0].field).toBe('amount');
    expect(await streamVersion()).toBe(before);
  });

  it('records a reduce-tenure part-payment: past rows stay, the schedule is regenerated from its date', async () => {
    const contract = await schedule();
    const res = await t.as(alice).post(`/api/loans/${loanId}/prepayments`, {
      date: '2025-06-20',
      amount: 200000,
      charge: 0,
      choice: 'reduce-tenure',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const after = await schedule();
    expect(after.summary).toMatchObject({ version: 2, reason: 'prepaid' });
    const whatIf = (globalThis as { whatIf?: { number_of_emis: number; closed_on: string } }).whatIf;
    expect(after.summary.number_of_payments).toBe(whatIf?.number_of_emis);
    expect(after.summary.closed_on).toBe(whatIf?.closed_on);
    const prepaid = after.schedule.find((r) => r.kind === 'prepayment');
    expect(prepaid).toMatchObject({ emi_date: '2025-06-20', principal: 200000, payment_number: 17 });
    // EMIs before the part-payment are as contracted.
    expect(after.schedule.slice(0, 17)).toEqual(
      contract.schedule
        .slice(0, 17)
        .map((r) => expect.objectContaining({ emi: r.emi, principal: r.principal })),
    );
    expect(after.schedule.at(-1)?.remaining_principal).toBe(0);
    const loan = (await t.as(alice).get(`/api/loans/${loanId}`)).body.data.loan;
    expect(loan.closed_on).toBe(whatIf?.closed_on);
    // Terms of a changed loan are locked.
    const edit = await t.as(alice).put(`/api/loans/${loanId}`, { ...loanBody, interest_rate: 8 });
    expect(edit.status).toBe(409);
    // The revision is a schedule version of its own, with its reason, and diffs like any other.
    const versions = await t.as(alice).get(`/api/loans/${loanId}/amortization/versions`);
    expect(
      versions.body.data.versions.map((v: { version: number; reason: string }) => [v.version, v.reason]),
    ).toEqual([
      [1, 'created'],
      [2, 'prepaid'],
    ]);
    const diff = await t.as(alice).get(`/api/loans/${loanId}/amortization/diff?from=1&to=2`);
    expect(diff.status).toBe(200);
    expect(diff.body.data.changes.tenure).toEqual({
      from: contract.summary.number_of_payments,
      to: after.summary.number_of_payments,
      difference: after.summary.number_of_payments - contract.summary.number_of_payments,
    });
    expect(
      diff.body.data.rows.find((r: { to: Row | null }) => r.to?.kind === 'prepayment')?.to,
    ).toMatchObject({
      emi_date: '2025-06-20',
      principal: 200000,
    });
  });

  it('applies RBI reset options and refuses negative amortisation with a clear 422', async () => {
    const before = await streamVersion();
    const extend = await t.as(alice).post(`/api/loans/${loanId}/rate-changes`, {
      date: '2025-08-01',
      annual_rate_percent: 50,
      option: 'extend-tenure',
    });
    expect(extend.status).toBe(422);
    expect(extend.body.errors[0].field).toBe('option');
    expect(extend.body.errors[0].message).toContain('does not cover the new monthly interest');
    const combination = await t.as(alice).post(`/api/loans/${loanId}/rate-changes`, {
      date: '2025-08-01',
      annual_rate_percent: 10,
      option: 'combination',
      new_emi: 100,
    });
    expect(combination.status).toBe(422);
    expect(combination.body.errors[0].field).toBe('new_emi');
    expect(combination.body.errors[0].message).toContain('does not cover the monthly interest');
    const missing = await t.as(alice).post(`/api/loans/${loanId}/rate-changes`, {
      date: '2025-08-01',
      annual_rate_percent: 10,
      option: 'combination',
    });
    expect(missing.body.errors).toEqual([{ field: 'new_emi', message: M.newEmiRequired }]);
    expect(await streamVersion()).toBe(before);

    const tenureBefore = (await schedule()).summary.number_of_payments;
    const raise = await t.as(alice).post(`/api/loans/${loanId}/rate-changes`, {
      date: '2025-08-01',
      annual_rate_percent: 9.5,
      option: 'increase-emi',
    });
    expect(raise.status, JSON.stringify(raise.body)).toBe(201);
    const after = await schedule();
    expect(after.summary.reason).toBe('rate-changed');
    // Increase-EMI keeps the tenure; the new rate applies from the next EMI.
    expect(after.summary.number_of_payments).toBe(tenureBefore);
    expect(after.schedule.find((r) => r.payment_number === 19)?.annual_rate).toBe(9.5);
    expect(after.schedule.find((r) => r.payment_number === 18)?.annual_rate).toBe(9);
    expect(after.schedule.at(-1)?.remaining_principal).toBe(0);
  });

  it("recomputes the schedule around the lender's EMI", async () => {
    const res = await t.as(alice).post(`/api/loans/${loanId}/emi-override`, {
      date: '2025-09-01',
      emi: 25000,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const rows = (await schedule()).schedule.filter((r) => r.kind === 'emi' && r.emi_date > '2025-09-01');
    expect(rows.slice(0, -1).every((r) => r.emi === 25000)).toBe(true);
    expect(rows.at(-1)?.remaining_principal).toBe(0);
  });

  it('marks EMIs paid, shows Overdue, and counts a matched debit once in the ledger', async () => {
    const paid = await t.as(alice).post(`/api/loans/${loanId}/emis/1/payment`, { paid_on: '2024-02-15' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const first = (await schedule()).schedule[0] as Row;
    expect(first.paid_on).toBe('2024-02-15');
    expect(first.paid_amount).toBe(first.emi);
    const again = await t.as(alice).post(`/api/loans/${loanId}/emis/1/payment`, { paid_on: '2024-02-15' });
    expect(again.status).toBe(409);
    const unknown = await t.as(alice).post(`/api/loans/${loanId}/emis/999/payment`, {
      paid_on: '2024-02-15',
    });
    expect(unknown.status).toBe(422);

    // EMI 2 (due 2024-03-15) is paid by a debit recorded in the book.
    const debit = await t.as(alice).post('/api/transactions', {
      notes: 'HDFC loan auto-debit',
      transaction_type: 'D',
      transaction_date: '2024-03-16',
      amount: 20758.36,
    });
    expect(debit.status).toBe(201);
    const debitId = debit.body.data.transaction.id as string;
    const strangers = await t.as(bob).post('/api/transactions', {
      notes: 'Not yours',
      transaction_type: 'D',
      transaction_date: '2024-03-16',
      amount: 1,
    });
    const notMine = await t.as(alice).post(`/api/loans/${loanId}/emis/2/payment`, {
      transaction_id: strangers.body.data.transaction.id,
    });
    expect(notMine.body.errors).toEqual([
      { field: 'transaction_id', message: CHANGE_INPUT_MESSAGES.transactionInvalid },
    ]);
    const matched = await t.as(alice).post(`/api/loans/${loanId}/emis/2/payment`, {
      transaction_id: debitId,
    });
    expect(matched.status, JSON.stringify(matched.body)).toBe(201);
    const second = (await schedule()).schedule[1] as Row;
    expect(second).toMatchObject({ paid_on: '2024-03-16', paid_amount: 20758.36, transaction_id: debitId });
    const twice = await t.as(alice).post(`/api/loans/${loanId}/emis/3/payment`, {
      transaction_id: debitId,
    });
    expect(twice.body.errors).toEqual([
      { field: 'transaction_id', message: CHANGE_INPUT_MESSAGES.transactionMatched },
    ]);

    const ledger = (await t.as(alice).get('/api/ledger?month=3&year=2024')).body.data;
    const debits = ledger.debit.transactions as { id: string; amount: number; type: string }[];
    expect(debits).toHaveLength(1);
    expect(debits[0]).toMatchObject({ amount: 20758.36, type: 'emi' });
    expect(ledger.debit.total).toBe(20758.36);

    // Auto-debited (the default), every past EMI counts as paid: the loan is not overdue.
    expect((await t.as(alice).get(`/api/loans/${loanId}`)).body.data.loan.status).toBe('Active');
    // Not auto-debited, EMIs 3.. are due before today and unpaid.
    const off = await t.as(alice).put(`/api/loans/${loanId}`, { ...loanBody, emis_auto_debited: 0 });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const loan = (await t.as(alice).get(`/api/loans/${loanId}`)).body.data.loan;
    expect(loan.status).toBe('Overdue');
    expect(loan.overdue_emis).toBeGreaterThan(10);
    const listed = (await t.as(alice).get('/api/loans')).body.data[0];
    expect(listed).toMatchObject({ status: 'Overdue', overdue_emis: loan.overdue_emis });
    const stats = (await t.as(alice).get('/api/loans/stats')).body.data;
    expect(stats).toMatchObject({ overdue_loans: 1, overdue_emis: loan.overdue_emis });
  });

  it('answers the financial-year certificate as JSON, a printable page and a PDF', async () => {
    const json = await t.as(alice).get(`/api/loans/${loanId}/certificate?fy=2023-24`);
    expect(json.status, JSON.stringify(json.body)).toBe(200);
    const rows = (await schedule()).schedule;
    // EMIs 1 and 2 fall due in 2023-24 (interest, due basis) and were paid in it (principal).
    const round = (n: number) => Math.round(n * 100) / 100;
    expect(json.body.data.certificate).toMatchObject({
      fy: '2023-24',
      emis_due: 2,
      emis_paid: 2,
      interest: round((rows[0]?.interest ?? 0) + (rows[1]?.interest ?? 0)),
      principal: round((rows[0]?.principal ?? 0) + (rows[1]?.principal ?? 0)),
      unpaid_emis: [],
      pre_emi_interest: { total: 0, construction_completed_on: null, instalment: null, deductible: 0 },
    });
    expect(json.body.data.certificate.note).toContain('depend on your situation');

    const html = await t.as(alice).get(`/api/loans/${loanId}/certificate?fy=2023-24`, {
      headers: {
        accept: 'text/html',
      },
    });
    expect(html.status).toBe(200);
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.text).toContain('Interest Certificate for the Financial Year 2023-24');
    expect(html.text).toContain('Section 24(b)');
    const pdf = await t.as(alice).get(`/api/loans/${loanId}/certificate?fy=2023-24&format=pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.payload.subarray(0, 5).toString()).toBe('%PDF-');

    const bad = await t.as(alice).get(`/api/loans/${loanId}/certificate?fy=2023-25`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: 'fy', message: M.financialYearInvalid }]);
  });

  it("never shows or changes another user's loan", async () => {
    const before = await streamVersion();
    const attempts = [
      t.as(bob).post(`/api/loans/${loanId}/prepayments`, {
        date: '2025-06-20',
        amount: 1000,
        choice: 'reduce-emi',
      }),
      t.as(bob).post(`/api/loans/${loanId}/prepayments/what-if`, { date: '2025-06-20', amount: 1000 }),
      t.as(bob).post(`/api/loans/${loanId}/foreclosure`, { date: '2025-12-01' }),
      t.as(bob).post(`/api/loans/${loanId}/rate-changes`, {
        date: '2025-12-01',
        annual_rate_percent: 8,
        option: 'increase-emi',
      }),
      t.as(bob).post(`/api/loans/${loanId}/emi-override`, { date: '2025-12-01', emi: 30000 }),
      t.as(bob).post(`/api/loans/${loanId}/emis/4/payment`, { paid_on: '2024-05-15' }),
      t.as(bob).get(`/api/loans/${loanId}/certificate?fy=2024-25`),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(404);
    expect(await streamVersion()).toBe(before);
  });

  it('forecloses the loan and refuses changes after it', async () => {
    const res = await t.as(alice).post(`/api/loans/${loanId}/foreclosure`, {
      date: '2025-12-05',
      charge: 1000,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const after = await schedule();
    const last = after.schedule.at(-1) as Row;
    expect(last).toMatchObject({ kind: 'foreclosure', emi_date: '2025-12-05', remaining_principal: 0 });
    expect(after.summary).toMatchObject({ reason: 'foreclosed', closed_on: '2025-12-05' });
    const later = await t.as(alice).post(`/api/loans/${loanId}/prepayments`, {
      date: '2025-12-20',
      amount: 1000,
      choice: 'reduce-emi',
    });
    expect(later.status).toBe(409);
    const ledger = (await t.as(alice).get('/api/ledger?month=12&year=2025')).body.data;
    expect(ledger.debit.transactions.map((e: { particulars: string }) => e.particulars)).toEqual([
      expect.stringMatching(/^Foreclosure — HDFC Bank Home Loan · HL55501234$/),
    ]);
    const stats = (await t.as(alice).get('/api/loans/stats')).body.data;
    expect(stats).toMatchObject({ active_loans: 0, remaining_amount: 0 });
  });

  it('rebuilds every read model to the same rows', async () => {
    const tables: Record<string, string> = {
      loans: 'id',
      loan_schedules: 'loan_id',
      loan_schedule_rows: 'loan_id, seq',
      loan_emi_marks: 'loan_id, mark_id',
      ledger_entries: 'entry_id',
      ledger_loans: 'loan_id',
      ledger_periods: 'user_id, year, month',
    };
    const snapshot = () => snapshotTables(t.platform.db, tables);
    const before = await snapshot();
    expect(before.loan_emi_marks).toHaveLength(2);
    for (const name of ['loans', 'schedules', 'ledger']) {
      expect((await t.platform.runner.rebuild(name)).processed).toBeGreaterThan(0);
    }
    expect(await snapshot()).toEqual(before);
  }, 60_000);
});
