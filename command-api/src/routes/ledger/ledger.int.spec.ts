import { randomUUID } from 'node:crypto';
import {
  type LoanCommand,
  type LoanFields,
  loanDecider,
  loanStreamId,
  type ScheduleGenerated,
} from '@kosh/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleCommand } from '../../commands/handle';
import { testClock } from '../../testing/clock';
import { createTestApp, type TestApp } from '../../testing/test-app';

/** "Now" is 20 March 2025 (India), one second later at each call. */
const clock = testClock('2025-03-20T06:00:00.000Z', { step: 1000 });

let t: TestApp;
const user = randomUUID();
const stranger = randomUUID();

async function record(notes: string, type: 'C' | 'D', date: string, amount: number) {
  const res = await t.as(user).post('/api/transactions', {
    notes,
    transaction_type: type,
    transaction_date: date,
    amount,
  });
  expect(res.status).toBe(201);
  return res.body.data.transaction as { id: string };
}

/** Loan commands straight through the loan decider: the ledger reads the events, not the loan API. */
async function loanCommand(loanId: string, command: LoanCommand) {
  const result = await handleCommand(
    { platform: t.platform, userId: user },
    { streamId: loanStreamId(loanId), decider: loanDecider, command, waitFor: ['ledger', 'transactions'] },
  );
  return result.events.find((e): e is ScheduleGenerated => e.type === 'ScheduleGenerated');
}

const homeLoan: LoanFields = {
  bankId: 12, // HDFC Bank
  loanTypeId: 1, // Home Loan
  accountNumber: 'AC12345',
  shortDetail: null,
  principalAmount: 500_000_000,
  interestRate: 8.5,
  isInterestRateYearly: true,
  duration: 20,
  isDurationYearly: true,
  startDate: '2024-11-10',
  processingFee: 0,
  hasGst: false,
  gstPercentage: 0,
  emisAutoDebited: true,
  processingFeeGst: true,
};
const personalLoan: LoanFields = {
  bankId: 1, // State Bank of India
  loanTypeId: 2, // Personal Loan
  accountNumber: 'PL98765',
  shortDetail: 'Wedding',
  principalAmount: 20_000_000,
  interestRate: 12,
  isInterestRateYearly: true,
  duration: 12,
  isDurationYearly: false,
  startDate: '2025-01-25',
  processingFee: 0,
  hasGst: true,
  gstPercentage: 18,
  emisAutoDebited: true,
  processingFeeGst: true,
};

const homeLoanId = randomUUID();
const personalLoanId = randomUUID();
let homeSchedule: ScheduleGenerated;
let personalSchedule: ScheduleGenerated;
const rupees = (paise: number) => paise / 100;
const emiOf = (schedule: ScheduleGenerated, n: number) =>
  rupees(schedule.data.rows[n - 1]?.emi ?? Number.NaN);

type Ledger = {
  summary: { totalCredit: number; totalDebit: number; netBalance: number; emiCount: number };
  credit: {
    transactions: { id: string; date: string; particulars: string; amount: number; type: string }[];
    total: number;
  };
  debit: {
    transactions: { id: string; date: string; particulars: string; amount: number; type: string }[];
    total: number;
  };
  monthName: string;
  year: number;
  dateRange: { startDate: string; endDate: string };
};
const ledger = async (query = '', userId = user) => {
  const res = await t.as(userId).get(`/api/ledger${query}`);
  expect(res.status).toBe(200);
  return res.body.data as Ledger;
};
const periods = async (userId = user) => {
  const res = await t.as(userId).get('/api/ledger/periods');
  expect(res.status).toBe(200);
  return res.body.data as {
    periods: { month: number; year: number; monthName: string; count: number }[];
    currentMonth: number;
    currentYear: number;
  };
};

beforeAll(async () => {
  t = await createTestApp({ clock });
  await record('Salary', 'C', '2025-03-01', 85000);
  await record('Rent', 'D', '2025-03-05', 25000);
  homeSchedule = (await loanCommand(homeLoanId, {
    type: 'CreateLoan',
    data: { loanId: homeLoanId, userId: user, fields: homeLoan, now: clock().toISOString() },
  })) as ScheduleGenerated;
  personalSchedule = (await loanCommand(personalLoanId, {
    type: 'CreateLoan',
    data: { loanId: personalLoanId, userId: user, fields: personalLoan, now: clock().toISOString() },
  })) as ScheduleGenerated;
  await record('Groceries', 'D', '2025-03-10', 3499.99);
  await record('Freelance', 'C', '2025-03-15', 12000.5);
  await record('Phone bill', 'D', '2025-02-20', 799);
  await record('Advance booking', 'D', '2025-04-02', 500);
});
afterAll(async () => {
  await t?.close();
});

describe('a ledger month', () => {
  it('has the credits, and the debits with one EMI per loan, in date order', async () => {
    const march = await ledger('?month=3&year=2025');
    expect(march.monthName).toBe('March');
    expect(march.year).toBe(2025);
    expect(march.dateRange).toEqual({ startDate: '2025-03-01', endDate: '2025-03-31' });
    expect(march.credit.transactions.map((e) => [e.date, e.particulars, e.amount, e.type])).toEqual([
      ['2025-03-01', 'Salary', 85000, 'transaction'],
      ['2025-03-15', 'Freelance', 12000.5, 'transaction'],
    ]);
    const homeEmi = emiOf(homeSchedule, 4);
    const personalEmi = emiOf(personalSchedule, 2);
    // The GST loan's EMI includes GST.
    const personalRow = personalSchedule.data.rows[1];
    expect(
      personalRow &&
        personalRow.gst > 0 &&
        personalRow.emi === personalRow.principal + personalRow.interest + personalRow.gst,
    ).toBe(true);
    expect(march.debit.transactions.map((e) => [e.date, e.particulars, e.amount, e.type])).toEqual([
      ['2025-03-05', 'Rent', 25000, 'transaction'],
      ['2025-03-10', 'EMI 4/240 · HDFC Bank Home Loan · AC12345', homeEmi, 'emi'],
      ['2025-03-10', 'Groceries', 3499.99, 'transaction'],
      ['2025-03-25', 'EMI 2/12 · State Bank of India Personal Loan · PL98765', personalEmi, 'emi'],
    ]);
    const totalDebit = (2_500_000 + homeSchedule.data.rows[3]!.emi + 349_999 + personalRow!.emi) / 100;
    expect(march.credit.total).toBe(97000.5);
    expect(march.debit.total).toBe(totalDebit);
    expect(march.summary).toEqual({
      totalCredit: 97000.5,
      totalDebit,
      netBalance: (9_700_050 - Math.round(totalDebit * 100)) / 100,
      emiCount: 2,
    });
  });

  it('defaults to the current month of the app clock', async () => {
    const current = await ledger();
    expect(current.monthName).toBe('March');
    expect(current.year).toBe(2025);
    expect(current.summary.emiCount).toBe(2);
    expect((await ledger('?month=&year=')).dateRange).toEqual(current.dateRange);
    expect((await ledger('?month=2')).dateRange).toEqual({ startDate: '2025-02-01', endDate: '2025-02-28' });
  });

  it('is empty for a month without entries, and for another user', async () => {
    const empty = await ledger('?month=6&year=2019');
    expect(empty.summary).toEqual({ totalCredit: 0, totalDebit: 0, netBalance: 0, emiCount: 0 });
    expect(empty.credit).toEqual({ transactions: [], total: 0 });
    const theirs = await ledger('?month=3&year=2025', stranger);
    expect(theirs.credit.transactions).toEqual([]);
    expect(theirs.debit.transactions).toEqual([]);
    expect((await periods(stranger)).periods).toEqual([]);
  });

  it('answers 422 for a bad month or year', async () => {
    for (const [query, field] of [
      ['?month=13', 'month'],
      ['?month=0', 'month'],
      ['?month=march', 'month'],
      ['?year=99', 'year'],
      ['?year=20x5', 'year'],
    ] as const) {
      const res = await t.as(user).get(`/api/ledger${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });
});

describe('periods', () => {
  it('list months with a transaction or an EMI up to now, newest first, with the current month', async () => {
    const data = await periods();
    expect(data.currentMonth).toBe(3);
    expect(data.currentYear).toBe(2025);
    expect(data.periods).toEqual([
      // April has a transaction, so it is listed with every entry it holds.
      { year: 2025, month: 4, monthName: 'April', count: 3 },
      { year: 2025, month: 3, monthName: 'March', count: 6 },
      { year: 2025, month: 2, monthName: 'February', count: 3 },
      { year: 2025, month: 1, monthName: 'January', count: 1 },
      { year: 2024, month: 12, monthName: 'December', count: 1 },
    ]);
  });
});

describe('the ledger follows the loans', () => {
  it('a changed loan replaces its EMIs, a deleted loan removes them', async () => {
    const regenerated = (await loanCommand(homeLoanId, {
      type: 'UpdateLoan',
      data: {
        loanId: homeLoanId,
        userId: user,
        fields: { ...homeLoan, principalAmount: 400_000_000, accountNumber: 'AC99999' },
        now: clock().toISOString(),
      },
    })) as ScheduleGenerated;
    expect(regenerated.data.version).toBe(2);
    expect(emiOf(regenerated, 4)).not.toBe(emiOf(homeSchedule, 4));
    await loanCommand(personalLoanId, {
      type: 'DeleteLoan',
      data: { loanId: personalLoanId, userId: user, now: clock().toISOString() },
    });

    const march = await ledger('?month=3&year=2025');
    expect(march.debit.transactions.filter((e) => e.type === 'emi')).toEqual([
      {
        id: `emi-${homeLoanId}-4`,
        date: '2025-03-10',
        particulars: 'EMI 4/240 · HDFC Bank Home Loan · AC99999',
        amount: emiOf(regenerated, 4),
        type: 'emi',
      },
    ]);
    expect(march.summary.emiCount).toBe(1);
    expect((await periods()).periods.map((p) => [p.year, p.month, p.count])).toEqual([
      [2025, 4, 2],
      [2025, 3, 5],
      [2025, 2, 2],
      [2025, 1, 1],
      [2024, 12, 1],
    ]);
  });
});

describe('through the loan API', () => {
  it('a new loan, its regeneration, an edit and its deletion each show in the ledger at once', async () => {
    const owner = randomUUID();
    const bank = await t.as(owner).post('/api/banks', { bank_name: 'Sahakari Bank', branch_name: 'Pune' });
    expect(bank.status).toBe(201);
    const body = {
      bank_id: bank.body.data.bank.id,
      loan_type_id: 3, // Car Loan
      account_number: 'CAR12345',
      principal_amount: 600000,
      interest_rate: 9.5,
      is_interest_rate_yearly: 1,
      duration: 12,
      is_duration_yearly: 0,
      start_date: '2025-02-05',
      processing_fee: 0,
      has_gst: 0,
      gst_percentage: 0,
    };
    const created = await t.as(owner).post('/api/loans', body);
    expect(created.status).toBe(201);
    const loanId = created.body.data.loan.id as string;
    const emis = async () =>
      (await ledger('?month=3&year=2025', owner)).debit.transactions.map((e) => [e.particulars, e.amount]);
    const first = await emis();
    expect(first).toEqual([['EMI 1/12 · Sahakari Bank Car Loan · CAR12345', expect.any(Number)]]);

    expect((await t.as(owner).post(`/api/loans/${loanId}/amortization/regenerate`)).status).toBe(200);
    expect(await emis()).toEqual(first);

    expect(
      (await t.as(owner).put(`/api/loans/${loanId}`, { ...body, principal_amount: 300000 })).status,
    ).toBe(200);
    const [[, halved]] = (await emis()) as [[string, number]];
    expect(halved).toBeLessThan(first[0]?.[1] as number);

    expect((await t.as(owner).delete(`/api/loans/${loanId}`)).status).toBe(200);
    expect(await emis()).toEqual([]);
    expect((await periods(owner)).periods).toEqual([]);
  });
});

describe('rebuild', () => {
  const snapshot = async () => {
    const tables: Record<string, string> = {
      transactions: 'id',
      transaction_stats: 'user_id',
      ledger_entries: 'entry_id',
      ledger_loans: 'loan_id',
      ledger_names: 'kind, id',
      ledger_periods: 'user_id, year, month',
    };
    const out: Record<string, unknown[]> = {};
    for (const [table, key] of Object.entries(tables)) {
      const { rows } = await t.platform.db.query(`SELECT to_jsonb(x) AS row FROM ${table} x ORDER BY ${key}`);
      out[table] = rows;
    }
    return out;
  };

  it('replays the log into exactly the same transaction, stats, ledger and periods tables', async () => {
    // Edits and deletes too, so the replay has more than inserts to get right.
    const edited = await record('Typo', 'C', '2025-01-05', 10);
    await t.as(user).put(`/api/transactions/${edited.id}`, {
      notes: 'Cashback',
      transaction_type: 'D',
      transaction_date: '2025-02-05',
      amount: 11,
    });
    const gone = await record('Mistake', 'D', '2025-03-03', 1);
    await t.as(user).delete(`/api/transactions/${gone.id}`);
    // Transaction commands answer before their read models catch up (ARCHITECTURE.md "Read your
    // own writes"): the tables are read directly here, so wait for them.
    await t.caughtUp(['transactions', 'ledger']);

    const before = await snapshot();
    expect(before.ledger_entries?.length).toBeGreaterThan(240);
    expect((await t.platform.runner.rebuild('transactions')).processed).toBeGreaterThan(0);
    expect((await t.platform.runner.rebuild('ledger')).processed).toBeGreaterThan(0);
    expect(await snapshot()).toEqual(before);
    expect((await ledger('?month=3&year=2025')).summary.emiCount).toBe(1);
  });
});
