import { randomUUID } from 'node:crypto';
import { balanceOn, generateSchedule, LOAN_MESSAGES as M, toPaise } from '@kosh/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { loanInput } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { LOAN_QUERY_MESSAGES } from './list-query';

/** 2026-01-10 in India; each call a second later so created_at orders the writes. */
const clock = testClock('2026-01-10T04:00:00.000Z', { step: 1000 });
const TODAY = '2026-01-10';

let t: TestApp;
const alice = randomUUID();
const bob = randomUUID();

type WireLoan = {
  id: string;
  bank_id: number;
  loan_type_id: number;
  account_number: string;
  short_detail: string | null;
  principal_amount: number;
  interest_rate: number;
  is_interest_rate_yearly: boolean;
  duration: number;
  is_duration_yearly: boolean;
  start_date: string;
  end_date: string;
  processing_fee: number;
  has_gst: boolean;
  gst_percentage: number;
  schedule_version: number;
  bank: { bank_name: string; branch_name: string | null };
  loan_type: { type_name: string };
};

const homeLoan = loanInput();

async function create(userId: string, change: Record<string, unknown> = {}) {
  const res = await t.as(userId).post('/api/loans', { ...homeLoan, ...change });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { loan: res.body.data.loan as WireLoan, etag: res.headers.etag as string };
}

/** Alice's edit of her loan `id`, sent with If-Match `etag`. */
const edit = (id: string, change: Record<string, unknown>, etag: string) =>
  t.as(alice).put(`/api/loans/${id}`, { ...homeLoan, ...change }, { headers: { 'if-match': etag } });

/** The stats of a user without loans. */
const NO_LOANS = {
  total_loans: 0,
  active_loans: 0,
  total_amount: 0,
  remaining_amount: 0,
  overdue_loans: 0,
  overdue_emis: 0,
};

const list = async (userId: string, query = '') => {
  const res = await t.as(userId).get<{
    data: WireLoan[];
    meta: { pagination: { page: number; limit: number; total_items: number; total_pages: number } };
  }>(`/api/loans${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/loans', () => {
  it('creates the loan with its bank, loan type, end date and first schedule', async () => {
    const res = await t.as(alice).post('/api/loans', homeLoan);
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toBe('Loan created successfully');
    const loan = res.body.data.loan as WireLoan;
    expect(loan).toMatchObject({
      bank_id: 1,
      loan_type_id: 1,
      account_number: 'HL00012345',
      short_detail: 'Flat in Pune',
      principal_amount: 2500000,
      interest_rate: 8.5,
      is_interest_rate_yearly: true,
      duration: 20,
      is_duration_yearly: true,
      start_date: '2025-03-15',
      end_date: '2045-03-15',
      processing_fee: 10000,
      has_gst: false,
      gst_percentage: 0,
      schedule_version: 1,
      bank: { bank_name: 'State Bank of India', branch_name: 'Head Office, Mumbai' },
      loan_type: { type_name: 'Home Loan' },
    });
    // LoanCreated + ScheduleGenerated
    expect(res.headers.etag).toBe('"2"');
    expect(res.headers['x-event-position']).toBeTruthy();

    const read = await t.as(alice).get(`/api/loans/${loan.id}`);
    expect(read.status).toBe(200);
    // One loan's answer adds its standing today and its APR (the fee makes it above the rate).
    expect(read.body.data.loan).toEqual({
      ...loan,
      status: 'Active',
      overdue_emis: 0,
      closed_on: '2045-03-15',
      apr: expect.any(Number),
    });
    expect(read.body.data.loan.apr).toBeGreaterThan(8.5);
    expect(read.headers.etag).toBe('"2"');

    const schedule = await t.as(alice).get(`/api/loans/${loan.id}/amortization`);
    expect(schedule.status).toBe(200);
    const rows = schedule.body.data.schedule;
    expect(rows).toHaveLength(240);
    expect(rows[0]).toMatchObject({
      id: `${loan.id}:1:1`,
      payment_number: 1,
      emi_date: '2025-04-15',
      interest: 17708.33,
    });
    expect(rows[239]).toMatchObject({ payment_number: 240, emi_date: '2045-03-15', remaining_principal: 0 });
    expect(schedule.body.data.summary).toMatchObject({
      version: 1,
      total_principal: 2500000,
      number_of_payments: 240,
    });
  });

  it('computes the end date when the client sends none, and accepts months and a monthly rate', async () => {
    const { loan } = await create(alice, {
      end_date: null,
      account_number: 'PL00000001',
      duration: 18,
      is_duration_yearly: 0,
      interest_rate: 1.25,
      is_interest_rate_yearly: 0,
      start_date: '2025-01-31',
      has_gst: 1,
      gst_percentage: 18,
    });
    expect(loan).toMatchObject({
      end_date: '2026-07-31',
      duration: 18,
      is_duration_yearly: false,
      has_gst: true,
    });
    const rows = (await t.as(alice).get(`/api/loans/${loan.id}/amortization`)).body.data.schedule;
    expect(rows[0].emi_date).toBe('2025-02-28');
    expect(rows[0].interest).toBe(31250); // 25,00,000 × 15% ÷ 12
    expect(rows[0].gst).toBe(5625); // 18% of it
    expect(rows[0].emi).toBeCloseTo(rows[0].principal + rows[0].interest + rows[0].gst, 2);
  });

  const invalid: [string, Record<string, unknown>, string, string][] = [
    ['no bank', { bank_id: null }, 'bank_id', M.bankRequired],
    ['bank 0', { bank_id: 0 }, 'bank_id', M.bankInvalid],
    ['an unknown bank', { bank_id: 999 }, 'bank_id', M.bankInvalid],
    ['no loan type', { loan_type_id: '' }, 'loan_type_id', M.loanTypeRequired],
    ['an unknown loan type', { loan_type_id: 999 }, 'loan_type_id', M.loanTypeInvalid],
    ['no account number', { account_number: '' }, 'account_number', M.accountNumberRequired],
    ['a short account number', { account_number: 'AB12' }, 'account_number', M.accountNumberTooShort],
    ['a long account number', { account_number: 'A'.repeat(31) }, 'account_number', M.accountNumberTooLong],
    [
      'an account number with symbols',
      { account_number: 'HL/0001' },
      'account_number',
      M.accountNumberCharacters,
    ],
    ['a long description', { short_detail: 'x'.repeat(201) }, 'short_detail', M.shortDetailTooLong],
    ['no principal', { principal_amount: null }, 'principal_amount', M.principalRequired],
    ['a principal below ₹100', { principal_amount: 99 }, 'principal_amount', M.principalTooSmall],
    ['a principal above ₹10 crore', { principal_amount: 100000001 }, 'principal_amount', M.principalTooLarge],
    ['no rate', { interest_rate: '' }, 'interest_rate', M.interestRateRequired],
    ['a rate below 0.1', { interest_rate: 0.05 }, 'interest_rate', M.interestRateTooSmall],
    ['a rate above 50', { interest_rate: 51 }, 'interest_rate', M.interestRateTooLarge],
    ['a rate with 4 decimals', { interest_rate: 8.1234 }, 'interest_rate', M.interestRateDecimals],
    ['no duration', { duration: null }, 'duration', M.durationRequired],
    ['51 years', { duration: 51, end_date: null }, 'duration', M.durationTooLarge],
    ['601 months', { duration: 601, is_duration_yearly: 0, end_date: null }, 'duration', M.durationTooLarge],
    ['no start date', { start_date: '' }, 'start_date', M.startDateRequired],
    ['a start before 2000', { start_date: '1999-12-31', end_date: null }, 'start_date', M.startDateTooEarly],
    [
      'a start in the future',
      { start_date: '2026-01-11', end_date: null },
      'start_date',
      M.startDateInFuture,
    ],
    ['a wrong end date', { end_date: '2045-03-16' }, 'end_date', M.endDateMismatch],
    ['a negative fee', { processing_fee: -1 }, 'processing_fee', M.processingFeeNegative],
    ['a fee above ₹10 lakh', { processing_fee: 1000001 }, 'processing_fee', M.processingFeeTooLarge],
    ['GST without a percentage', { has_gst: 1, gst_percentage: null }, 'gst_percentage', M.gstRequired],
    ['GST above 100', { has_gst: 1, gst_percentage: 101 }, 'gst_percentage', M.gstTooLarge],
    ['GST with 3 decimals', { has_gst: 1, gst_percentage: 18.125 }, 'gst_percentage', M.gstDecimals],
  ];
  it.each(invalid)('answers 422 for %s', async (_, change, field, message) => {
    const res = await t.as(alice).post('/api/loans', { ...homeLoan, ...change });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      success: false,
      errorCode: 'VALIDATION_ERROR',
      errors: [{ field, message }],
    });
  });

  it('reports every bad field at once', async () => {
    const res = await t.as(alice).post('/api/loans', {});
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'bank_id',
      'loan_type_id',
      'account_number',
      'principal_amount',
      'interest_rate',
      'duration',
      'start_date',
    ]);
  });

  it('refuses a bank another user added', async () => {
    const added = await t.as(bob).post('/api/banks', {
      bank_name: 'Bob Cooperative Bank',
      branch_name: 'Nashik',
    });
    expect(added.status).toBe(201);
    const res = await t.as(alice).post('/api/loans', { ...homeLoan, bank_id: added.body.data.bank.id });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'bank_id', message: M.bankInvalid }]);
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/loans' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/loans', () => {
  const carol = randomUUID();
  const made: WireLoan[] = [];

  beforeAll(async () => {
    // bank 12 HDFC, 13 ICICI, 1 SBI; types 1 home, 2 personal, 3 car
    const specs: Record<string, unknown>[] = [
      {
        account_number: 'HOME0001',
        bank_id: 12,
        loan_type_id: 1,
        principal_amount: 5000000,
        interest_rate: 8.75,
        start_date: '2020-06-01',
        duration: 20,
        end_date: null,
      },
      {
        account_number: 'CAR00002',
        bank_id: 13,
        loan_type_id: 3,
        principal_amount: 800000,
        interest_rate: 9.5,
        start_date: '2023-02-10',
        duration: 5,
        end_date: null,
      },
      {
        account_number: 'PERS0003',
        bank_id: 1,
        loan_type_id: 2,
        principal_amount: 300000,
        interest_rate: 13,
        start_date: '2021-01-05',
        duration: 3,
        end_date: null,
      },
      {
        account_number: 'CAR00004',
        bank_id: 12,
        loan_type_id: 3,
        principal_amount: 650000,
        interest_rate: 10.25,
        start_date: '2024-08-20',
        duration: 7,
        end_date: null,
      },
      {
        account_number: 'HOME0005',
        bank_id: 1,
        loan_type_id: 1,
        principal_amount: 3200000,
        interest_rate: 8.4,
        start_date: '2022-11-30',
        duration: 25,
        end_date: null,
      },
      {
        account_number: 'PERS0006',
        bank_id: 13,
        loan_type_id: 2,
        principal_amount: 150000,
        interest_rate: 15.5,
        start_date: '2025-12-01',
        duration: 24,
        is_duration_yearly: 0,
        end_date: null,
      },
    ];
    for (const spec of specs) made.push((await create(carol, spec)).loan);
  });

  it('pages newest first by default with the pagination meta', async () => {
    const first = await list(carol, '?limit=5');
    expect(first.data.map((l) => l.account_number)).toEqual([
      'PERS0006',
      'HOME0005',
      'CAR00004',
      'PERS0003',
      'CAR00002',
    ]);
    expect(first.meta.pagination).toEqual({ page: 1, limit: 5, total_items: 6, total_pages: 2 });
    const second = await list(carol, '?limit=5&page=2');
    expect(second.data.map((l) => l.account_number)).toEqual(['HOME0001']);
    const beyond = await list(carol, '?limit=5&page=3');
    expect(beyond.data).toEqual([]);
    const defaults = await list(carol);
    expect(defaults.meta.pagination).toEqual({ page: 1, limit: 10, total_items: 6, total_pages: 1 });
    expect(defaults.data[0]!.bank).toEqual({ bank_name: 'ICICI Bank', branch_name: 'Head Office, Mumbai' });
    expect(defaults.data[0]!.loan_type).toEqual({ type_name: 'Personal Loan' });
  });

  it.each([
    ['principal_amount', 'ASC', ['PERS0006', 'PERS0003', 'CAR00004', 'CAR00002', 'HOME0005', 'HOME0001']],
    ['interest_rate', 'DESC', ['PERS0006', 'PERS0003', 'CAR00004', 'CAR00002', 'HOME0001', 'HOME0005']],
    ['start_date', 'ASC', ['HOME0001', 'PERS0003', 'HOME0005', 'CAR00002', 'CAR00004', 'PERS0006']],
    ['end_date', 'DESC', ['HOME0005', 'HOME0001', 'CAR00004', 'CAR00002', 'PERS0006', 'PERS0003']],
    ['account_number', 'ASC', ['CAR00002', 'CAR00004', 'HOME0001', 'HOME0005', 'PERS0003', 'PERS0006']],
    ['created_at', 'ASC', ['HOME0001', 'CAR00002', 'PERS0003', 'CAR00004', 'HOME0005', 'PERS0006']],
  ])('sorts by %s %s', async (sortBy, sortOrder, expected) => {
    const page = await list(carol, `?sortBy=${sortBy}&sortOrder=${sortOrder}&limit=10`);
    expect(page.data.map((l) => l.account_number)).toEqual(expected);
  });

  it('sorts by bank name, newest first within a bank', async () => {
    const page = await list(carol, '?sortBy=bank_name&sortOrder=ASC&limit=10');
    expect(page.data.map((l) => l.bank.bank_name)).toEqual([
      'HDFC Bank',
      'HDFC Bank',
      'ICICI Bank',
      'ICICI Bank',
      'State Bank of India',
      'State Bank of India',
    ]);
  });

  it.each([
    ['car0', ['CAR00004', 'CAR00002']],
    ['home loan', ['HOME0005', 'HOME0001']],
    ['hdfc', ['CAR00004', 'HOME0001']],
    ['State Bank', ['HOME0005', 'PERS0003']],
    ['3200000', ['HOME0005']],
    ['32,00,000', ['HOME0005']],
    ['no such thing', []],
    ['100%', []],
  ])('searches %s over account number, loan type, bank and principal', async (search, expected) => {
    const page = await list(carol, `?search=${encodeURIComponent(search)}`);
    expect(page.data.map((l) => l.account_number)).toEqual(expected);
    expect(page.meta.pagination.total_items).toBe(expected.length);
  });

  it('filters by bank and loan type, combined with search, sort and paging', async () => {
    const byBank = await list(carol, '?filter_bank_id=12');
    expect(byBank.data.map((l) => l.account_number)).toEqual(['CAR00004', 'HOME0001']);
    const byType = await list(carol, '?filter_loan_type_id=2&sortBy=principal_amount&sortOrder=DESC');
    expect(byType.data.map((l) => l.account_number)).toEqual(['PERS0003', 'PERS0006']);
    const both = await list(carol, '?filter_bank_id=13&filter_loan_type_id=3');
    expect(both.data.map((l) => l.account_number)).toEqual(['CAR00002']);
    const searched = await list(
      carol,
      '?search=car&filter_bank_id=12&sortBy=account_number&sortOrder=ASC&limit=5&page=1',
    );
    expect(searched.data.map((l) => l.account_number)).toEqual(['CAR00004']);
    expect(searched.meta.pagination).toEqual({ page: 1, limit: 5, total_items: 1, total_pages: 1 });
  });

  it.each([
    ['?sortBy=password', 'sortBy', LOAN_QUERY_MESSAGES.loanSortBy],
    ['?sortBy=principal_amount;DROP TABLE loans', 'sortBy', LOAN_QUERY_MESSAGES.loanSortBy],
    ['?sortOrder=sideways', 'sortOrder', LOAN_QUERY_MESSAGES.sortOrder],
    ['?page=0', 'page', LOAN_QUERY_MESSAGES.page],
    ['?page=-1', 'page', LOAN_QUERY_MESSAGES.page],
    ['?page=abc', 'page', LOAN_QUERY_MESSAGES.page],
    ['?limit=7', 'limit', LOAN_QUERY_MESSAGES.loanLimit],
    ['?limit=100', 'limit', LOAN_QUERY_MESSAGES.loanLimit],
    ['?filter_bank_id=x', 'filter_bank_id', LOAN_QUERY_MESSAGES.bankId],
  ])('answers 422 for %s', async (query, field, message) => {
    const res = await t.as(carol).get(`/api/loans${query}`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field, message }]);
  });

  it('never shows another user’s loans', async () => {
    const page = await list(bob);
    expect(page.data).toEqual([]);
    expect(page.meta.pagination.total_items).toBe(0);
  });

  it('answers the stats as of today', async () => {
    const res = await t.as(carol).get('/api/loans/stats');
    expect(res.status).toBe(200);
    const remaining = made.reduce((sum, loan) => {
      const { rows } = generateSchedule({
        principalAmount: toPaise(loan.principal_amount),
        interestRate: loan.interest_rate,
        isInterestRateYearly: loan.is_interest_rate_yearly,
        duration: loan.duration,
        isDurationYearly: loan.is_duration_yearly,
        startDate: loan.start_date,
        hasGst: loan.has_gst,
        gstPercentage: loan.gst_percentage,
      });
      return sum + balanceOn(toPaise(loan.principal_amount), rows, TODAY);
    }, 0);
    expect(res.body.data).toEqual({
      total_loans: 6,
      // PERS0003 ended 2024-01-05; the rest end after today.
      active_loans: 5,
      total_amount: 10100000,
      remaining_amount: remaining / 100,
      overdue_loans: 0,
      overdue_emis: 0,
    });
    // PERS0003 is fully repaid; PERS0006 (started 2025-12-01) has paid one EMI on 2026-01-01.
    expect(remaining).toBeLessThan(toPaise(10100000 - 300000));
  });

  it('counts the full principal before the first EMI, nothing after the last, the balance in between', async () => {
    const erin = randomUUID();
    const repaid = (
      await create(erin, { start_date: '2020-01-10', duration: 6, is_duration_yearly: 0, end_date: null })
    ).loan;
    const notYet = (
      await create(erin, { start_date: '2025-12-11', duration: 12, is_duration_yearly: 0, end_date: null })
    ).loan;
    const dueToday = (
      await create(erin, { start_date: '2025-12-10', duration: 12, is_duration_yearly: 0, end_date: null })
    ).loan;
    const rows = (await t.as(erin).get(`/api/loans/${dueToday.id}/amortization`)).body.data.schedule;
    expect(rows[0].emi_date).toBe(TODAY);
    const res = await t.as(erin).get('/api/loans/stats');
    expect(res.body.data).toEqual({
      total_loans: 3,
      active_loans: 2,
      total_amount: 7500000,
      remaining_amount: notYet.principal_amount + rows[0].remaining_principal,
      overdue_loans: 0,
      overdue_emis: 0,
    });
    expect(repaid.end_date).toBe('2020-07-10');
  });

  it('answers zeros for a user without loans', async () => {
    const res = await t.as(randomUUID()).get('/api/loans/stats');
    expect(res.body.data).toEqual(NO_LOANS);
  });
});

describe('another user’s loan', () => {
  it('answers 404 exactly like a missing one on every route', async () => {
    const { loan } = await create(alice, { account_number: 'ALICE0001' });
    for (const id of [loan.id, randomUUID(), 'not-a-uuid']) {
      for (const [method, url, body] of [
        ['GET', `/api/loans/${id}`],
        ['PUT', `/api/loans/${id}`, homeLoan],
        ['DELETE', `/api/loans/${id}`],
        ['GET', `/api/loans/${id}/amortization`],
        ['POST', `/api/loans/${id}/amortization/regenerate`],
      ] as const) {
        const res = await t.as(bob).send(method, url, body);
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.body).toMatchObject({ success: false, message: 'Loan not found', errorCode: 'NOT_FOUND' });
      }
    }
    expect((await t.as(alice).get(`/api/loans/${loan.id}`)).status).toBe(200);
  });
});

describe('PUT /api/loans/{id}', () => {
  it('updates the loan, and a change of terms makes a new schedule version', async () => {
    const { loan, etag } = await create(alice, { account_number: 'EDIT0001' });
    const renamed = await edit(loan.id, { account_number: 'EDIT0002' }, etag);
    expect(renamed.status).toBe(200);
    expect(renamed.body.message).toBe('Loan updated successfully');
    expect(renamed.body.data.loan).toMatchObject({ account_number: 'EDIT0002', schedule_version: 1 });
    expect(renamed.headers.etag).toBe('"3"');

    const repriced = await edit(
      loan.id,
      { account_number: 'EDIT0002', interest_rate: 9.15, start_date: '2026-06-30', end_date: '2046-06-30' },
      renamed.headers.etag as string,
    );
    expect(repriced.status).toBe(200);
    expect(repriced.body.data.loan).toMatchObject({
      interest_rate: 9.15,
      start_date: '2026-06-30',
      end_date: '2046-06-30',
      schedule_version: 2,
    });
    expect(repriced.headers.etag).toBe('"5"');
    const schedule = (await t.as(alice).get(`/api/loans/${loan.id}/amortization`)).body.data;
    expect(schedule.summary.version).toBe(2);
    expect(schedule.schedule[0]).toMatchObject({ id: `${loan.id}:2:1`, emi_date: '2026-07-30' });
    expect(schedule.schedule[0].interest).toBe(19062.5); // 25,00,000 × 9.15% ÷ 12
  });

  it('uses the edit rules: more decimals and a future start are fine, a part-year duration is not', async () => {
    const { loan } = await create(alice, { account_number: 'EDIT0003' });
    const ok = await t.as(alice).put(`/api/loans/${loan.id}`, {
      ...homeLoan,
      interest_rate: 8.1234,
      start_date: '2027-01-01',
      end_date: null,
      has_gst: 1,
      gst_percentage: 18.125,
    });
    expect(ok.status).toBe(200);
    const bad = await t.as(alice).put(`/api/loans/${loan.id}`, {
      ...homeLoan,
      duration: 1.5,
      end_date: null,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: 'duration', message: M.durationWhole }]);
  });

  it('answers 409 for a stale If-Match and leaves the loan as it was', async () => {
    const { loan, etag } = await create(alice, { account_number: 'STALE0001' });
    expect((await edit(loan.id, { account_number: 'STALE0002' }, etag)).status).toBe(200);
    const stale = await edit(loan.id, { account_number: 'STALE0003' }, etag);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ success: false, errorCode: 'STALE_VERSION' });
    expect((await t.as(alice).get(`/api/loans/${loan.id}`)).body.data.loan.account_number).toBe('STALE0002');
  });

  it('lets exactly one of two updates racing on the same version win', async () => {
    const { loan, etag } = await create(alice, { account_number: 'RACE0001' });
    const results = await Promise.all(
      ['RACE0002', 'RACE0003'].map((account) => edit(loan.id, { account_number: account }, etag)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!.body.data.loan.account_number;
    expect((await t.as(alice).get(`/api/loans/${loan.id}`)).body.data.loan.account_number).toBe(winner);
  });
});

describe('POST /api/loans/{id}/amortization/regenerate', () => {
  it('generates the next version, also after an update', async () => {
    const { loan } = await create(alice, { account_number: 'REGEN0001' });
    const first = await t.as(alice).post(`/api/loans/${loan.id}/amortization/regenerate`);
    expect(first.status).toBe(200);
    expect(first.body.data.summary.version).toBe(2);
    expect(first.body.data.schedule).toHaveLength(240);

    const updated = await t.as(alice).put(`/api/loans/${loan.id}`, {
      ...homeLoan,
      account_number: 'REGEN0001',
      duration: 10,
      end_date: '2035-03-15',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.loan.schedule_version).toBe(3);

    const again = await t.as(alice).post(`/api/loans/${loan.id}/amortization/regenerate`);
    expect(again.body.data.summary).toMatchObject({
      version: 4,
      number_of_payments: 120,
      total_principal: 2500000,
    });
    expect(again.body.data.schedule.at(-1)).toMatchObject({
      payment_number: 120,
      emi_date: '2035-03-15',
      remaining_principal: 0,
    });
    expect((await t.as(alice).get(`/api/loans/${loan.id}`)).headers.etag).toBe('"6"');

    // Every version stays in the log.
    const { events } = await t.platform.eventStore.readStream(`loan-${loan.id}`);
    expect(
      events
        .filter((e) => e.type === 'ScheduleGenerated')
        .map((e) => (e.data as { version: number }).version),
    ).toEqual([1, 2, 3, 4]);
  });
});

describe('DELETE /api/loans/{id}', () => {
  it('deletes the loan, its schedule and its place in the stats', async () => {
    const dave = randomUUID();
    const { loan, etag } = await create(dave, { account_number: 'GONE0001' });
    expect((await t.as(dave).get('/api/loans/stats')).body.data.total_loans).toBe(1);

    const stale = await t.as(dave).delete(`/api/loans/${loan.id}`, { headers: { 'if-match': '"1"' } });
    expect(stale.status).toBe(409);

    const res = await t.as(dave).delete(`/api/loans/${loan.id}`, { headers: { 'if-match': etag } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Loan deleted successfully', data: null });
    expect((await t.as(dave).get(`/api/loans/${loan.id}`)).status).toBe(404);
    expect((await t.as(dave).get(`/api/loans/${loan.id}/amortization`)).status).toBe(404);
    expect((await t.as(dave).delete(`/api/loans/${loan.id}`)).status).toBe(404);
    expect((await t.as(dave).get('/api/loans/stats')).body.data).toEqual(NO_LOANS);
  });
});
