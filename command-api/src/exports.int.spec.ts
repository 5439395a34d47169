import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from './testing/clock';
import { loanInput, userFixture } from './testing/fixtures';
import { createTestApp, type TestApp } from './testing/test-app';

/** A multipart body of a statement file and the form fields. */
function form(fileName: string, text: string, fields: Record<string, string>) {
  const boundary = `----kosh${randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n${text}\r\n--${boundary}--\r\n`,
  );
  return {
    payload: Buffer.from(parts.join('')),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const BOM = '\uFEFF';
/** The lines of a CSV answer after its header, BOM and CRLF checked. */
function csvLines(text: string, header: string): string[] {
  expect(text.startsWith(`${BOM}${header}\r\n`)).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  return text.slice(BOM.length).split('\r\n').slice(1, -1);
}

/** Issue 30 item 8 (money out) and item 5's auditors on accounts, registers and imports, in both shapes. */
describe.each(['postgres', 'embedded'] as const)('CSV exports and auditors (%s)', (mode) => {
  const clock = testClock('2025-03-20T04:00:00.000Z', { step: 1000 });
  let t: TestApp;
  const owner = randomUUID();
  const bob = randomUUID();
  const auditor = randomUUID();
  const stranger = randomUUID();
  let savingsId = '';
  let loanId = '';
  let bobsLoanId = '';
  let importId = '';

  const record = async (body: Record<string, unknown>) => {
    const res = await t.as(owner).post('/api/transactions', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };

  beforeAll(async () => {
    t = await createTestApp({ mode, clock });
    const account = await t.as(owner).post('/api/accounts', {
      name: 'Savings "Main", Pune',
      kind: 'savings',
      bank_name: 'HDFC Bank',
      opening_balance: '1000',
      opening_date: '2025-02-01',
    });
    expect(account.status).toBe(201);
    savingsId = account.body.data.account.id;
    await record({
      transaction_type: 'C',
      transaction_date: '2025-03-05',
      amount: 50000,
      notes: 'Salary, March',
      account_id: savingsId,
    });
    await record({
      transaction_type: 'D',
      transaction_date: '2025-03-06',
      amount: 1234.5,
      notes: '=HYPERLINK("http://x")',
    });
    await record({
      transaction_type: 'D',
      transaction_date: '2025-03-07',
      amount: 99.99,
      notes: '+91 recharge',
    });
    await record({
      transaction_type: 'D',
      transaction_date: '2025-02-10',
      amount: 500,
      notes: 'February rent',
    });
    const loan = await t.as(owner).post(
      '/api/loans',
      loanInput({
        account_number: 'PL7701',
        principal_amount: 120000,
        interest_rate: 12,
        duration: 1,
        start_date: '2025-01-05',
        end_date: '2026-01-05',
        processing_fee: 0,
      }),
    );
    expect(loan.status, JSON.stringify(loan.body)).toBe(201);
    loanId = loan.body.data.loan.id;
    const bobs = await t.as(bob).post('/api/loans', loanInput());
    expect(bobs.status).toBe(201);
    bobsLoanId = bobs.body.data.loan.id;
    const statement = form(
      'march.csv',
      'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance\r\n10/03/25,ATM WDL,1,10/03/25,100.00,,50900.00\r\n',
      { account_id: savingsId },
    );
    const upload = await t.as(owner).post('/api/imports', statement.payload, { headers: statement.headers });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    importId = upload.body.data.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const BOOK_HEADER = 'Date,Type,Credit,Debit,Notes,Account,Bank narration';

  it('exports the transaction book with its filters: BOM, CRLF, quoting, formula guard, plain rupees', async () => {
    const all = await t.as(owner).get('/api/transactions.csv');
    expect(all.status).toBe(200);
    expect(all.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(all.headers['content-disposition']).toBe('attachment; filename="transactions.csv"');
    expect(csvLines(all.text, BOOK_HEADER)).toEqual([
      "2025-03-07,Debit,,99.99,'+91 recharge,,",
      `2025-03-06,Debit,,1234.50,"'=HYPERLINK(""http://x"")",,`,
      '2025-03-05,Credit,50000.00,,"Salary, March","Savings ""Main"", Pune",',
      '2025-02-10,Debit,,500.00,February rent,,',
    ]);

    const debits = await t
      .as(owner)
      .get(
        '/api/transactions.csv?transaction_type=D&date_from=2025-03-01&sort_by=amount&sort_order=ASC&limit=1',
      );
    expect(csvLines(debits.text, BOOK_HEADER).map((line) => line.slice(0, 10))).toEqual([
      '2025-03-07',
      '2025-03-06',
    ]);
    const inAccount = await t.as(owner).get(`/api/transactions.csv?account_id=${savingsId}`);
    expect(csvLines(inAccount.text, BOOK_HEADER)).toHaveLength(1);
    const searched = await t.as(owner).get('/api/transactions.csv?search=rent');
    expect(csvLines(searched.text, BOOK_HEADER)).toEqual(['2025-02-10,Debit,,500.00,February rent,,']);
    expect(csvLines((await t.as(bob).get('/api/transactions.csv')).text, BOOK_HEADER)).toEqual([]);

    const bad = await t.as(owner).get('/api/transactions.csv?date_from=05/03/2025');
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({
      success: false,
      errors: [{ field: 'date_from', message: 'Date must be a valid date (YYYY-MM-DD)' }],
    });
  });

  it("exports a ledger month (the ledger's query), EMIs included", async () => {
    const res = await t.as(owner).get('/api/ledger.csv?month=3&year=2025');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="ledger-2025-03.csv"');
    const lines = csvLines(res.text, 'Date,Particulars,Kind,Credit,Debit');
    const month = (await t.as(owner).get('/api/ledger?month=3&year=2025')).body.data;
    expect(lines).toHaveLength(month.credit.transactions.length + month.debit.transactions.length);
    expect(lines).toContain('2025-03-05,"Salary, March",Transaction,50000.00,');
    expect(lines.some((line) => /^2025-03-05,.*,EMI,,\d+\.\d{2}$/.test(line))).toBe(true);
    expect(lines.every((line) => line.startsWith('2025-03-'))).toBe(true);
    const bad = await t.as(owner).get('/api/ledger.csv?month=13');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { field: 'month', message: 'Month must be a whole number from 1 to 12' },
    ]);
  });

  it("exports a loan's amortization schedule; another user's loan is 404", async () => {
    const res = await t.as(owner).get(`/api/loans/${loanId}/amortization.csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="loan-PL7701-schedule-v1.csv"');
    const lines = csvLines(
      res.text,
      'No.,Date,Kind,EMI,Principal,Interest,GST,Charge,Principal remaining,Status,Paid on,Paid amount',
    );
    expect(lines).toHaveLength(12);
    // EMIs are auto-debited (the loan's default): each one due by today stands paid on its date.
    expect(lines[0]).toBe(
      '1,2025-02-05,EMI,10661.85,9461.85,1200.00,0.00,0.00,110538.15,Auto-debited,2025-02-05,10661.85',
    );
    expect(lines[2]).toMatch(/^3,2025-04-05,EMI,10661\.85,.*,Due,,$/);
    const paise = (cell: string) => Math.round(Number(cell) * 100);
    const principal = lines.reduce((sum, line) => sum + paise(line.split(',')[4] as string), 0);
    expect(principal).toBe(120000_00);
    expect(lines.at(-1)?.split(',')[8]).toBe('0.00');
    for (const id of [bobsLoanId, 'not-a-loan', randomUUID()]) {
      const other = await t.as(owner).get(`/api/loans/${id}/amortization.csv`);
      expect(other.status).toBe(404);
      expect(other.body.success).toBe(false);
    }
  });

  it('refuses the register of an account that is not the caller’s', async () => {
    expect((await t.as(bob).get(`/api/accounts/${savingsId}/register.csv`)).status).toBe(404);
    const own = await t.as(owner).get(`/api/accounts/${savingsId}/register.csv`);
    expect(own.headers['content-disposition']).toBe('attachment; filename="Savings-Main-Pune-register.csv"');
    expect(csvLines(own.text, 'Date,Details,Kind,Withdrawal,Deposit,Balance')).toEqual([
      '2025-02-01,Opening balance,Opening balance,,,1000.00',
      '2025-03-05,"Salary, March",Transaction,,50000.00,51000.00',
    ]);
  });

  describe('an auditor', () => {
    const onOwners = { headers: { 'x-kosh-account': owner } };
    beforeAll(async () => {
      const grant = await t
        .as(owner)
        .post('/api/audit-grants', { email: userFixture(auditor).email, expires_at: '2025-04-30' });
      expect(grant.status, JSON.stringify(grant.body)).toBe(201);
    });

    it('reads the accounts, registers, transfers, imports and every export', async () => {
      const accounts = await t.as(auditor).get('/api/accounts', onOwners);
      expect(accounts.status).toBe(200);
      expect(accounts.body.data.accounts.map((a: { id: string }) => a.id)).toEqual([savingsId]);
      for (const url of [
        `/api/accounts/${savingsId}`,
        `/api/accounts/${savingsId}/register`,
        '/api/transfers',
        '/api/imports',
        `/api/imports/${importId}`,
      ]) {
        expect((await t.as(auditor).get(url, onOwners)).status, url).toBe(200);
      }
      const register = await t.as(auditor).get(`/api/accounts/${savingsId}/register.csv`, onOwners);
      expect(register.text).toBe((await t.as(owner).get(`/api/accounts/${savingsId}/register.csv`)).text);
      for (const url of [
        '/api/transactions.csv',
        '/api/ledger.csv?month=3&year=2025',
        `/api/loans/${loanId}/amortization.csv`,
      ]) {
        const read = await t.as(auditor).get(url, onOwners);
        expect(read.status, url).toBe(200);
        expect(read.text).toBe((await t.as(owner).get(url)).text);
      }
      // Without the header the auditor reads their own (empty) accounts; the owner's are not found.
      expect((await t.as(auditor).get('/api/accounts')).body.data.accounts).toEqual([]);
      expect((await t.as(auditor).get(`/api/accounts/${savingsId}/register`)).status).toBe(404);
    });

    it('cannot write to them', async () => {
      const writes: ['POST' | 'PUT' | 'DELETE', string][] = [
        ['POST', '/api/accounts'],
        ['PUT', `/api/accounts/${savingsId}`],
        ['DELETE', `/api/accounts/${savingsId}`],
        ['POST', '/api/transfers'],
        ['POST', '/api/imports'],
        ['PUT', `/api/imports/${importId}`],
        ['POST', `/api/imports/${importId}/commit`],
        ['DELETE', `/api/imports/${importId}`],
      ];
      for (const [method, url] of writes) {
        const res = await t.as(auditor).send(method, url, { name: 'x' }, onOwners);
        expect(res.status, `${method} ${url}`).toBe(403);
        expect(res.body.errorCode).toBe('READ_ONLY');
      }
      expect((await t.as(owner).get(`/api/imports/${importId}`)).body.data.import.status).toBe('preview');
    });

    it('is the only one: anyone else is refused with the header and finds nothing without it', async () => {
      const refused = await t.as(stranger).get('/api/accounts', onOwners);
      expect(refused.status).toBe(403);
      expect(refused.body.errorCode).toBe('NO_ACCOUNT_ACCESS');
      for (const url of [
        `/api/accounts/${savingsId}`,
        `/api/accounts/${savingsId}/register`,
        `/api/accounts/${savingsId}/register.csv`,
        `/api/imports/${importId}`,
        `/api/loans/${loanId}/amortization.csv`,
      ]) {
        expect((await t.as(stranger).get(url)).status, url).toBe(404);
      }
    });
  });
});

/** An export larger than the bound is refused and says so, never cut to look complete. */
describe('a transaction export over EXPORT_MAX_ROWS', () => {
  let t: TestApp;
  const owner = randomUUID();
  beforeAll(async () => {
    t = await createTestApp({ env: { EXPORT_MAX_ROWS: '2' } });
    for (const [day, notes] of [
      ['01', 'Milk'],
      ['02', 'Bread'],
      ['03', 'Eggs'],
    ]) {
      const res = await t.as(owner).post('/api/transactions', {
        transaction_type: 'D',
        transaction_date: `2025-03-${day}`,
        amount: '40',
        notes,
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 422 naming the count, and the narrowed export is whole', async () => {
    const all = await t.as(owner).get('/api/transactions.csv');
    expect(all.status).toBe(422);
    expect(all.body.errors[0].message).toContain('3 transactions, more than 2');
    const narrowed = await t.as(owner).get('/api/transactions.csv?date_from=2025-03-02');
    expect(narrowed.status).toBe(200);
    expect(csvLines(narrowed.text, narrowed.text.slice(1).split('\r\n')[0] ?? '')).toHaveLength(2);
  });
});
