import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { accountInput } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';

/** Issue 31 item 2: the user's rules propose a category and payee for a statement's rows, kept on commit. */
const clock = testClock('2025-03-10T04:00:00.000Z');
let t: TestApp;
const alice = randomUUID();

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => {
  await t?.close();
});

function form(bytes: string, accountId: string) {
  const boundary = `----kosh${randomBytes(8).toString('hex')}`;
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="account_id"\r\n\r\n${accountId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="march.csv"\r\nContent-Type: text/csv\r\n\r\n` +
      `${bytes}\r\n--${boundary}--\r\n`,
  );
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const CSV = [
  'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
  '01/03/25,UPI-SWIGGY-swiggy@axisbank-UTIB0000000-527411112222-Dinner,0000527411112222,01/03/25,527.00,,9473.50',
  '02/03/25,NEFT CR-HDFC0000001-ACME PAYROLL LTD-SALARY MAR,HDFCN52025030200001,02/03/25,,85000.00,94473.50',
  '03/03/25,POS 416021XXXXXX1234 BIG BAZAAR,0000000000000301,03/03/25,"2,340.50",,92133.00',
].join('\r\n');

describe('rules in the import preview', () => {
  it('proposes each row’s category and payee from the rules, and the commit records them', async () => {
    const tree = (await t.as(alice).get('/api/categories')).body.data.categories as {
      id: string;
      name: string;
    }[];
    const id = (name: string) => tree.find((c) => c.name === name)?.id as string;
    const account = await t.as(alice).post('/api/accounts', accountInput({ name: 'Savings' }));
    const accountId = account.body.data.account.id as string;
    for (const body of [
      { name: 'Food', match_pattern: 'swig+y|zomato', category_id: id('Dining out'), payee: 'Swiggy' },
      { name: 'Pay', match_text: 'acme payroll', transaction_type: 'C', category_id: id('Salary') },
      { name: 'Pay payee', match_text: 'payroll', payee: 'Acme Ltd' },
      { name: 'Credits only', match_text: 'big bazaar', transaction_type: 'C', category_id: id('Salary') },
    ]) {
      expect((await t.as(alice).post('/api/rules', body)).status).toBe(201);
    }
    const { payload, headers } = form(CSV, accountId);
    const uploaded = await t.as(alice).post('/api/imports', payload, { headers });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const preview = (await t.as(alice).get(`/api/imports/${uploaded.body.data.id}`)).body.data.import;
    const proposals = preview.rows.map((r: Record<string, unknown>) => [
      r.proposed_category_id,
      r.proposed_payee,
    ]);
    expect(proposals).toEqual([
      [id('Dining out'), 'Swiggy'],
      [id('Salary'), 'Acme Ltd'],
      [null, null],
    ]);
    const commit = await t.as(alice).post(`/api/imports/${preview.id}/commit`, {});
    expect(commit.status, JSON.stringify(commit.body)).toBe(200);
    const book = await t
      .as(alice)
      .get(`/api/transactions?limit=10&account_id=${accountId}&sort_by=transaction_date&sort_order=ASC`);
    expect(book.body.data.transactions.map((r: Record<string, unknown>) => [r.category_id, r.payee])).toEqual(
      proposals,
    );
  });
});
