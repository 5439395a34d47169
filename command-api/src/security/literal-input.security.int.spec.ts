import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { eventCount, expectEnvelope, MODES, signUp } from './testing/attack-kit';

/** Read by JavaScript's Number() as numbers, but not numbers as a person writes them. */
const NOT_PLAIN = ['0x10', '1e1', '0b11', '0o17', 'Infinity', ' 1_000 ', '+-5', '١٢'];

/**
 * Issue 28, item 7: input is taken literally. A number is a JSON number or plain decimal text
 * ("0x10" was accepted as a 16 % rate, "1e1" as 10 %); a body that is not UTF-8 is refused
 * (it was stored with U+FFFD in place of the bad bytes). Each refusal is the envelope and
 * appends nothing.
 */
describe.each(MODES)('input taken literally (%s)', (mode) => {
  let t: TestApp;
  let auth: { authorization: string };
  let loanId: string;

  beforeAll(async () => {
    t = await createTestApp({ mode });
    auth = { authorization: `Bearer ${(await signUp(t)).token}` };
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

  async function refused(options: InjectOptions, status: number) {
    const before = await eventCount(t);
    const response = await t.app.inject({ ...options, headers: { ...auth, ...options.headers } });
    const body = expectEnvelope(response, status);
    expect(await eventCount(t)).toBe(before);
    return body as { errors: { field: string; message: string }[] };
  }

  it.each(NOT_PLAIN)(
    'refuses annual_rate_percent %j on a rate change with a 422 on that field',
    async (rate) => {
      const body = await refused(
        {
          method: 'POST',
          url: `/api/loans/${loanId}/rate-changes`,
          payload: { date: '2025-08-01', annual_rate_percent: rate, option: 'increase-emi' },
        },
        422,
      );
      expect(body.errors.map((e) => e.field)).toContain('annual_rate_percent');
    },
  );

  it('takes a rate written as plain decimal text', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/loans/${loanId}/rate-changes`,
      headers: auth,
      payload: { date: '2025-08-01', annual_rate_percent: ' 10.25 ', option: 'increase-emi' },
    });
    expect(response.statusCode, response.body).toBe(201);
  });

  it.each([
    ['/api/loans', 'interest_rate'],
    ['/api/loans', 'principal_amount'],
    ['/api/loans', 'duration'],
    ['/api/loans', 'processing_fee'],
    ['/api/loans', 'bank_id'],
    ['/api/transactions', 'amount'],
  ])('refuses hex and exponents in %s %s', async (url, field) => {
    const base: Record<string, Record<string, unknown>> = {
      '/api/loans': {
        bank_id: 1,
        loan_type_id: 1,
        account_number: 'HDFC12346',
        principal_amount: 500000,
        interest_rate: 9.5,
        duration: 5,
        start_date: '2024-01-15',
        processing_fee: 0,
      },
      '/api/transactions': {
        notes: 'Rent',
        transaction_type: 'D',
        transaction_date: '2025-03-01',
        amount: 1500,
      },
    };
    for (const value of ['0x10', '1e1']) {
      const body = await refused({ method: 'POST', url, payload: { ...base[url], [field]: value } }, 422);
      expect(body.errors.map((e) => e.field)).toContain(field);
    }
  });

  it.each([
    '/api/loans?page=0x1',
    '/api/loans?limit=1e1',
    '/api/transactions?page=1e0',
    '/api/transactions?limit=0x10',
    '/api/ledger?year=2e3',
    '/api/history?limit=0x10',
  ])('refuses %s with a 422', async (url) => {
    await refused({ method: 'GET', url }, 422);
  });

  it('refuses a body that is not UTF-8 instead of storing U+FFFD', async () => {
    const body = Buffer.concat([
      Buffer.from('{"notes":"Caf'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('","transaction_type":"D","transaction_date":"2025-03-01","amount":60}'),
    ]);
    for (const contentType of ['application/json', 'application/json; charset=utf-8']) {
      const answer = await refused(
        { method: 'POST', url: '/api/transactions', payload: body, headers: { 'content-type': contentType } },
        400,
      );
      expect(answer).toMatchObject({ message: 'The body is not valid UTF-8.', errorCode: 'INVALID_UTF8' });
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/transactions', headers: auth });
    expect(list.body).not.toContain('\ufffd');
    // Valid UTF-8 still goes through.
    const fine = await t.app.inject({
      method: 'POST',
      url: '/api/transactions',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: Buffer.from(
        '{"notes":"Café ₹ चाय","transaction_type":"D","transaction_date":"2025-03-01","amount":60}',
      ),
    });
    expect(fine.statusCode, fine.body).toBe(201);
    expect(fine.json().data.transaction.notes).toBe('Café ₹ चाय');
  });
});
