import { describe, expect, it } from 'vitest';
import {
  type CatalogNames,
  emiEntries,
  foldLedgerBatch,
  type LedgerEvent,
  type LedgerLoan,
  periodDelta,
} from './fold';

const userId = 'user-a';
const loanId = 'loan-1';
const names: CatalogNames = { banks: new Map([[1, 'HDFC Bank']]), loanTypes: new Map([[2, 'Home Loan']]) };
const row = (n: number, emiDate: string, emi: number) => ({
  paymentNumber: n,
  emiDate,
  principal: 0,
  interest: 0,
  gst: 0,
  emi,
  remainingPrincipal: 0,
});
const created = {
  type: 'LoanCreated',
  data: { loanId, userId, bankId: 1, loanTypeId: 2, accountNumber: 'AC12345', createdAt: 'x' },
  streamVersion: 1,
} as unknown as LedgerEvent;
const schedule = (version: number, streamVersion: number, rows: ReturnType<typeof row>[]) =>
  ({
    type: 'ScheduleGenerated',
    data: { loanId, userId, version, rows, generatedAt: '2025-01-01T00:00:00.000Z' },
    streamVersion,
  }) as unknown as LedgerEvent;

const loanAfter = (events: LedgerEvent[], before = new Map<string, LedgerLoan>()) =>
  foldLedgerBatch({ entries: new Map(), loans: before }, events).loans.get(loanId) as LedgerLoan;

describe('EMI entries of a loan', () => {
  it('are one debit per instalment of the latest schedule, named after lender, type and account', () => {
    const loan = loanAfter([
      created,
      schedule(1, 2, [row(1, '2025-02-10', 100)]),
      schedule(2, 3, [row(1, '2025-02-15', 90_00), row(2, '2025-03-15', 91_50)]),
    ]);
    expect(emiEntries(loan, names)).toEqual([
      expect.objectContaining({
        entryId: `emi-${loanId}-1`,
        date: '2025-02-15',
        side: 'D',
        kind: 'emi',
        amount: 90_00,
        particulars: 'EMI 1/2 · HDFC Bank Home Loan · AC12345',
      }),
      expect.objectContaining({
        entryId: `emi-${loanId}-2`,
        particulars: 'EMI 2/2 · HDFC Bank Home Loan · AC12345',
      }),
    ]);
  });

  it('disappear when the loan is deleted and follow a new account number', () => {
    const loan = loanAfter([created, schedule(1, 2, [row(1, '2025-02-10', 100)])]);
    const renamed = loanAfter(
      [
        {
          type: 'LoanUpdated',
          data: { loanId, userId, changes: { accountNumber: 'NEW999' }, previous: {}, updatedAt: 'x' },
          streamVersion: 3,
        } as unknown as LedgerEvent,
      ],
      new Map([[loanId, loan]]),
    );
    expect(emiEntries(renamed, names)[0]?.particulars).toBe('EMI 1/1 · HDFC Bank Home Loan · NEW999');
    const gone = loanAfter(
      [
        {
          type: 'LoanDeleted',
          data: { loanId, userId, deletedAt: 'x' },
          streamVersion: 4,
        } as unknown as LedgerEvent,
      ],
      new Map([[loanId, renamed]]),
    );
    expect(emiEntries(gone, names)).toEqual([]);
  });

  it('an older schedule version delivered late does not replace a newer one', () => {
    const loan = loanAfter([created, schedule(2, 3, [row(1, '2025-05-10', 7)])]);
    expect(loanAfter([schedule(1, 4, [row(1, '2025-02-10', 100)])], new Map([[loanId, loan]])).emis).toEqual([
      { n: 1, date: '2025-05-10', emi: 7 },
    ]);
  });
});

describe('month counts', () => {
  it('move with entries between months', () => {
    const loan = loanAfter([created, schedule(1, 2, [row(1, '2025-02-10', 1), row(2, '2025-03-10', 1)])]);
    const regenerated = loanAfter([schedule(2, 3, [row(1, '2025-03-12', 1)])], new Map([[loanId, loan]]));
    const delta = periodDelta(emiEntries(loan, names), emiEntries(regenerated, names));
    expect(Object.fromEntries(delta)).toEqual({
      [`${userId}|2025|2`]: { transactions: 0, emis: -1 },
      [`${userId}|2025|3`]: { transactions: 0, emis: 0 },
    });
  });

  it('count a transaction in its month, and move it when its date changes', () => {
    const recorded = {
      type: 'TransactionRecorded',
      data: {
        transactionId: 't1',
        userId,
        notes: 'Rent',
        transactionType: 'D',
        transactionDate: '2024-12-31',
        amount: 5,
        recordedAt: '2024-12-31T00:00:00.000Z',
      },
      streamVersion: 1,
    } as LedgerEvent;
    const first = foldLedgerBatch({ entries: new Map(), loans: new Map() }, [recorded]);
    const entry = first.transactionEntries.get('t1');
    expect(entry).toMatchObject({ kind: 'transaction', side: 'D', particulars: 'Rent', date: '2024-12-31' });
    const moved = foldLedgerBatch({ entries: new Map([['t1', entry!]]), loans: new Map() }, [
      {
        type: 'TransactionUpdated',
        data: {
          transactionId: 't1',
          userId,
          changes: { transactionDate: '2025-01-01' },
          previous: {},
          updatedAt: 'x',
        },
        streamVersion: 2,
      } as unknown as LedgerEvent,
    ]).transactionEntries.get('t1');
    expect(Object.fromEntries(periodDelta([entry!], [moved!]))).toEqual({
      [`${userId}|2024|12`]: { transactions: -1, emis: 0 },
      [`${userId}|2025|1`]: { transactions: 1, emis: 0 },
    });
  });
});
