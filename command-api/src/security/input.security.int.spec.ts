import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { eventCount, expectEnvelope, MODES, signUp } from './testing/attack-kit';

const NOT_ALLOWED = 'contains characters that are not allowed';

const transaction = (overrides: Record<string, unknown> = {}) => ({
  notes: 'Rent',
  transaction_type: 'D',
  transaction_date: '2025-03-01',
  amount: 1500,
  ...overrides,
});

/**
 * Issue 10, item 8: each case is a request that used to get a 500, a silent coercion or an event
 * it should not have. Every answer is a 4xx in the envelope and the event log is left as it was.
 */
describe.each(MODES)('bad input is a 4xx in the envelope and changes nothing (%s)', (mode) => {
  let t: TestApp;
  let auth: { authorization: string };
  let loanId: string;

  beforeAll(async () => {
    t = await createTestApp({ mode });
    const user = await signUp(t);
    auth = { authorization: `Bearer ${user.token}` };
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/loans',
      headers: auth,
      payload: {
        bank_id: 1,
        loan_type_id: 1,
        account_number: 'HDFC12345',
        principal_amount: 500000,
        interest_rate: 9.5,
        duration: 5,
        start_date: '2024-01-15',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    loanId = created.json().data.loan.id;
  });

  afterAll(async () => {
    await t?.close();
  });

  /** Sends the attack, expects `status` in the envelope, and no event appended by it. */
  async function refused(options: InjectOptions, status: number) {
    const before = await eventCount(t);
    const response = await t.app.inject(options);
    const body = expectEnvelope(response, status);
    expect(await eventCount(t)).toBe(before);
    return body;
  }

  it('refuses a NUL in a body string with a per-field 422 (PostgreSQL cannot store it)', async () => {
    const body = await refused(
      {
        method: 'POST',
        url: '/api/transactions',
        headers: auth,
        payload: transaction({ notes: 'Rent\u0000' }),
      },
      422,
    );
    expect(body.errors).toContainEqual({ field: 'notes', message: NOT_ALLOWED });
    const key = await refused(
      {
        method: 'POST',
        url: '/api/transactions',
        headers: auth,
        payload: { ...transaction(), 'no\u0000tes': 'x' },
      },
      422,
    );
    expect(key.errors).toContainEqual({ field: 'body', message: NOT_ALLOWED });
  });

  it('refuses a lone surrogate in a body string, nested or not', async () => {
    const bank = await refused(
      { method: 'POST', url: '/api/banks', headers: auth, payload: { bank_name: 'Bank \ud800' } },
      422,
    );
    expect(bank.errors).toContainEqual({ field: 'bank_name', message: NOT_ALLOWED });
    const loan = await refused(
      {
        method: 'PUT',
        url: `/api/loans/${loanId}`,
        headers: auth,
        payload: { short_detail: 'Home \udc00 loan', account_number: 'HDFC12345' },
      },
      422,
    );
    expect(loan.errors).toContainEqual({ field: 'short_detail', message: NOT_ALLOWED });
  });

  it('refuses a NUL in a query parameter', async () => {
    const body = await refused({ method: 'GET', url: '/api/transactions?search=a%00b', headers: auth }, 422);
    expect(body.errors).toContainEqual({ field: 'search', message: NOT_ALLOWED });
    // The UTF-8 bytes of a lone surrogate are not UTF-8: never a 500, never stored.
    const surrogate = await t.app.inject({
      method: 'GET',
      url: '/api/loans?search=%ED%A0%80',
      headers: auth,
    });
    expect(surrogate.statusCode, surrogate.body).toBeLessThan(500);
  });

  it('appends no event at all for a registration that fails validation', async () => {
    const email = `nul.${Date.now()}@example.in`;
    const nul = await refused(
      {
        method: 'POST',
        url: '/api/auth/register',
        payload: { first_name: 'Ma\u0000l', last_name: 'Tester', email, password: 'Secret12' },
      },
      422,
    );
    expect(nul.errors).toContainEqual({ field: 'first_name', message: NOT_ALLOWED });
    await refused(
      {
        method: 'POST',
        url: '/api/auth/register',
        payload: { first_name: 'Mal', last_name: 'Tester', email, password: 'Secret12\u0000' },
      },
      422,
    );
    await refused(
      {
        method: 'POST',
        url: '/api/auth/register',
        payload: { first_name: 'Mal', last_name: 'Tester', email, password: 'weak' },
      },
      422,
    );
    // The address was never reserved: registering it properly still works.
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { first_name: 'Mal', last_name: 'Tester', email, password: 'Secret12' },
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('refuses integer ids beyond 2^31−1 as invalid, not as a database overflow', async () => {
    const base = {
      loan_type_id: 1,
      account_number: 'HDFC12345',
      principal_amount: 500000,
      interest_rate: 9.5,
      duration: 5,
      start_date: '2024-01-15',
    };
    const bank = await refused(
      { method: 'POST', url: '/api/loans', headers: auth, payload: { ...base, bank_id: 2 ** 31 } },
      422,
    );
    expect(bank.errors).toContainEqual({ field: 'bank_id', message: 'Please select a valid bank' });
    const type = await refused(
      {
        method: 'POST',
        url: '/api/loans',
        headers: auth,
        payload: { ...base, bank_id: 1, loan_type_id: '99999999999999999999' },
      },
      422,
    );
    expect(type.errors).toContainEqual({ field: 'loan_type_id', message: 'Please select a valid loan type' });
    await refused({ method: 'GET', url: '/api/loans?filter_bank_id=2147483648', headers: auth }, 422);
    await refused({ method: 'GET', url: '/api/banks/2147483648', headers: auth }, 404);
  });

  it('refuses a loan start date beyond a sane range, and the ledger periods still answer', async () => {
    const body = await refused(
      {
        method: 'PUT',
        url: `/api/loans/${loanId}`,
        headers: auth,
        payload: {
          bank_id: 1,
          loan_type_id: 1,
          account_number: 'HDFC12345',
          principal_amount: 500000,
          interest_rate: 9.5,
          duration: 50,
          start_date: '9999-12-31',
        },
      },
      422,
    );
    expect(body.errors).toContainEqual({
      field: 'start_date',
      message: 'Start date cannot be after 2099-12-31',
    });
    // Transaction dates have no range in the spec: the extremes are stored and read back.
    for (const date of ['1000-01-01', '9999-12-31']) {
      const odd = await t.app.inject({
        method: 'POST',
        url: '/api/transactions',
        headers: auth,
        payload: transaction({ transaction_date: date }),
      });
      expect(odd.statusCode, odd.body).toBe(201);
    }
    const periods = await t.app.inject({ method: 'GET', url: '/api/ledger/periods', headers: auth });
    expect(periods.statusCode, periods.body).toBe(200);
    const months = periods
      .json()
      .data.periods.map((p: { year: number; month: number }) => `${p.year}-${p.month}`);
    expect(months).toEqual(expect.arrayContaining(['9999-12', '1000-1']));
    const ledger = await t.app.inject({
      method: 'GET',
      url: '/api/ledger?month=12&year=9999',
      headers: auth,
    });
    expect(ledger.statusCode, ledger.body).toBe(200);
  });

  it('answers a malformed URL escape with a 400 in the envelope', async () => {
    await refused({ method: 'GET', url: '/api/transactions/%', headers: auth }, 400);
    await refused({ method: 'DELETE', url: '/api/loans/%E0%A4', headers: auth }, 400);
  });

  it('keeps the security headers on answers Fastify sends before any hook runs', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/transactions/%', headers: auth });
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('answers an over-long id or address with 414 in the envelope', async () => {
    await refused({ method: 'DELETE', url: `/api/transactions/${'a'.repeat(5000)}`, headers: auth }, 414);
    await refused({ method: 'GET', url: `/api/loans?search=${'x'.repeat(5000)}`, headers: auth }, 414);
  });

  it('answers a request line over the server header limit with 431 in the envelope', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = t.app.server.address() as AddressInfo;
      const answer = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>(
        (resolve, reject) => {
          const req = httpRequest(
            { host: '127.0.0.1', port, path: `/api/loans/${'a'.repeat(20_000)}` },
            (res) => {
              let body = '';
              res.on('data', (chunk) => {
                body += chunk;
              });
              res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
            },
          );
          req.on('error', reject);
          req.end();
        },
      );
      expect(answer.status).toBe(431);
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(JSON.parse(answer.body)).toMatchObject({ success: false, errorCode: expect.any(String) });
    } finally {
      await t.app.server.close();
    }
  });

  it('does not coerce body types: a number for notes, an array for an e-mail', async () => {
    const notes = await refused(
      { method: 'POST', url: '/api/transactions', headers: auth, payload: transaction({ notes: 123 }) },
      422,
    );
    expect(notes.errors.map((e) => e.field)).toContain('notes');
    const email = await refused(
      { method: 'POST', url: '/api/auth/forgot-password', payload: { email: ['a@b.in'] } },
      422,
    );
    expect(email.errors.map((e) => e.field)).toContain('email');
    await refused(
      {
        method: 'POST',
        url: '/api/auth/register',
        payload: { first_name: 'Mal', last_name: 'Tester', email: ['x@example.in'], password: 'Secret12' },
      },
      422,
    );
    // Query strings are text on the wire: a page number still reads.
    const page = await t.app.inject({
      method: 'GET',
      url: '/api/transactions?page=2&limit=5',
      headers: auth,
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.pagination.current_page).toBe(2);
  });

  it('answers a body declared in another charset than UTF-8 with 415', async () => {
    await refused(
      {
        method: 'POST',
        url: '/api/transactions',
        headers: { ...auth, 'content-type': 'application/json; charset=iso-8859-1' },
        payload: Buffer.from(JSON.stringify(transaction({ notes: 'Café' })), 'latin1'),
      },
      415,
    );
    const utf8 = await t.app.inject({
      method: 'POST',
      url: '/api/transactions',
      headers: { ...auth, 'content-type': 'application/json; charset=UTF-8' },
      payload: JSON.stringify(transaction({ notes: 'Café' })),
    });
    expect(utf8.statusCode, utf8.body).toBe(201);
  });
});
