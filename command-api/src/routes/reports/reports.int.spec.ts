import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { loanInput } from '../../testing/fixtures';
import { rebuildEverything } from '../../testing/round-trip';
import { createTestApp, type TestApp } from '../../testing/test-app';

type Month = {
  year: number;
  month: number;
  month_name: string;
  income: number;
  expense: number;
  loan_payments: number;
  net: number;
};
type Point = { date: string; accounts: number; loans: number; net_worth: number };

describe.each(['postgres', 'embedded'] as const)(
  'reports: income against expense, net worth (%s)',
  (mode) => {
    const clock = testClock('2025-03-20T04:00:00.000Z', { step: 1000 });
    let t: TestApp;
    const alice = randomUUID();
    const bob = randomUUID();
    let emi = 0;
    let schedule: { emi_date: string; principal: number }[] = [];

    const get = async (userId: string, url: string) => {
      const res = await t.as(userId).get(url);
      expect(res.status, res.text).toBe(200);
      return res;
    };
    const incomeExpense = async (query = '') =>
      (await get(alice, `/api/reports/income-expense${query}`)).body.data as {
        months: Month[];
        totals: Omit<Month, 'year' | 'month' | 'month_name'>;
        as_of: string;
      };
    const netWorth = async (query = '') =>
      (await get(alice, `/api/reports/net-worth${query}`)).body.data as { points: Point[]; as_of: string };

    beforeAll(async () => {
      t = await createTestApp({ mode, clock });
      const savings = (
        await t.as(alice).post('/api/accounts', {
          name: 'Savings',
          kind: 'savings',
          opening_balance: '10000',
          opening_date: '2025-01-01',
        })
      ).body.data.account.id as string;
      const wallet = (
        await t.as(alice).post('/api/accounts', {
          name: 'Wallet',
          kind: 'wallet',
          opening_balance: '0',
          opening_date: '2025-01-01',
        })
      ).body.data.account.id as string;
      const record = (body: Record<string, unknown>) =>
        t
          .as(alice)
          .post('/api/transactions', body)
          .then((res) => expect(res.status, res.text).toBe(201));
      await record({
        notes: 'Salary',
        transaction_type: 'C',
        transaction_date: '2025-02-01',
        amount: 50000,
        account_id: savings,
      });
      await record({
        notes: 'Groceries',
        transaction_type: 'D',
        transaction_date: '2025-02-10',
        amount: 2000.5,
        account_id: savings,
      });
      await record({
        notes: 'Cash spend',
        transaction_type: 'D',
        transaction_date: '2025-03-05',
        amount: 300,
      });
      // A transfer between own accounts is neither income nor expense, and leaves net worth as it is.
      const transfer = await t.as(alice).post('/api/transfers', {
        from_account_id: savings,
        to_account_id: wallet,
        amount: 5000,
        transfer_date: '2025-02-15',
      });
      expect(transfer.status, transfer.text).toBe(201);
      const loan = await t.as(alice).post(
        '/api/loans',
        loanInput({
          principal_amount: 120000,
          interest_rate: 12,
          duration: 12,
          is_duration_yearly: 0,
          start_date: '2024-12-10',
          end_date: '2025-12-10',
        }),
      );
      expect(loan.status, loan.text).toBe(201);
      const loanId = loan.body.data.loan?.id ?? loan.body.data.id;
      const rows = (await get(alice, `/api/loans/${loanId}/amortization`)).body.data.schedule;
      schedule = rows;
      emi = rows[0].emi;
      // Recorded five days later: an answer as of the 21st does not know it.
      clock.set('2025-03-25T04:00:00.000Z');
      await record({
        notes: 'Bonus',
        transaction_type: 'C',
        transaction_date: '2025-02-20',
        amount: 1000,
        account_id: savings,
      });
      // Bob's money is his own.
      await t.as(bob).post('/api/transactions', {
        notes: 'Bob',
        transaction_type: 'C',
        transaction_date: '2025-02-01',
        amount: 999,
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('totals each month as the ledger does, the 24 months ending with this one', async () => {
      const report = await incomeExpense();
      expect(report.months).toHaveLength(24);
      expect(report.months[0]).toMatchObject({ year: 2023, month: 4, month_name: 'April' });
      expect(report.as_of).toBe('2025-03-25');
      const feb = report.months.find((m) => m.year === 2025 && m.month === 2);
      expect(feb).toEqual({
        year: 2025,
        month: 2,
        month_name: 'February',
        income: 51000,
        expense: 2000.5,
        loan_payments: emi,
        net: Math.round((51000 - 2000.5 - emi) * 100) / 100,
      });
      for (const month of [1, 2, 3]) {
        const ledger = (await get(alice, `/api/ledger?month=${month}&year=2025`)).body.data;
        const row = report.months.find((m) => m.year === 2025 && m.month === month) as Month;
        expect(row.income).toBe(ledger.summary.totalCredit);
        expect(Math.round((row.expense + row.loan_payments) * 100) / 100).toBe(ledger.summary.totalDebit);
      }
      expect((await incomeExpense('?months=3')).months.map((m) => m.month)).toEqual([1, 2, 3]);
    });

    it("is each month's accounts less the loans' outstanding principal, transfers cancelling out", async () => {
      const { points } = await netWorth('?months=4');
      expect(points.map((p) => p.date)).toEqual(['2024-12-31', '2025-01-31', '2025-02-28', '2025-03-25']);
      const owed = (date: string) =>
        Math.round(
          (120000 - schedule.filter((r) => r.emi_date <= date).reduce((s, r) => s + r.principal, 0)) * 100,
        ) / 100;
      expect(points[0]).toEqual({ date: '2024-12-31', accounts: 0, loans: 120000, net_worth: -120000 });
      expect(points[2]).toMatchObject({ accounts: 58999.5, loans: owed('2025-02-28') });
      expect(points[3]).toMatchObject({ accounts: 58999.5, loans: owed('2025-03-25') });
      expect(points[3]?.net_worth).toBe(Math.round((58999.5 - owed('2025-03-25')) * 100) / 100);
    });

    it('answers as of a date, and in CSV', async () => {
      const before = await incomeExpense('?as_of=2025-03-21&months=2');
      expect(before.as_of).toBe('2025-03-21');
      expect(before.months.map((m) => [m.month, m.income, m.expense])).toEqual([
        [2, 50000, 2000.5],
        [3, 0, 300],
      ]);
      const worth = await netWorth('?as_of=2025-03-21&months=1');
      expect(worth.points).toEqual([expect.objectContaining({ date: '2025-03-21', accounts: 57999.5 })]);
      const csv = await get(alice, '/api/reports/income-expense.csv?months=2');
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.text.split('\r\n')).toEqual([
        '\uFEFFMonth,Income,Expense,Loan payments,Net',
        `February 2025,51000.00,2000.50,${emi.toFixed(2)},${(51000 - 2000.5 - emi).toFixed(2)}`,
        `March 2025,0.00,300.00,${emi.toFixed(2)},${(-300 - emi).toFixed(2)}`,
        `Total,51000.00,2300.50,${(2 * emi).toFixed(2)},${(51000 - 2300.5 - 2 * emi).toFixed(2)}`,
        '',
      ]);
      const worthCsv = await get(alice, '/api/reports/net-worth.csv?months=1&as_of=2025-03-21');
      expect(worthCsv.text.split('\r\n')[1]).toMatch(/^2025-03-21,57999\.50,/);
    });

    it("refuses a bad months or as_of with 422, and shows no one else's money", async () => {
      for (const url of ['/api/reports/income-expense?months=0', '/api/reports/net-worth.csv?months=abc']) {
        const res = await t.as(alice).get(url);
        expect(res.status).toBe(422);
        expect(res.body.errors).toEqual([
          { field: 'months', message: 'Months must be a whole number from 1 to 120' },
        ]);
      }
      const future = await t.as(alice).get('/api/reports/net-worth?as_of=2030-01-01');
      expect(future.status).toBe(422);
      const bobs = (await get(bob, '/api/reports/income-expense?months=2')).body.data.months as Month[];
      expect(bobs.map((m) => m.income)).toEqual([999, 0]);
      expect((await get(bob, '/api/reports/net-worth?months=1')).body.data.points[0]).toMatchObject({
        accounts: 0,
        loans: 0,
      });
    });

    it('reads the same after every read model is rebuilt', async () => {
      const [ie, nw] = [await incomeExpense(), await netWorth()];
      await rebuildEverything(t);
      expect(await incomeExpense()).toEqual(ie);
      expect(await netWorth()).toEqual(nw);
    });
  },
);
