import {
  type LoanStreamEvent,
  loanDecider,
  loanStreamId,
  type RecordedEvent,
  transactionDecider,
  transactionStreamId,
} from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import {
  later,
  loanFields,
  loanId,
  now,
  seededCatalog,
  transactionId,
  userId,
} from '../runner/testing/fixtures';
import { readModelSpec, recordedStream } from '../runner/testing/read-model-spec';
import { ledgerProjection } from './projector';

const FEBRUARY = `SELECT entry_id, to_char(entry_date, 'YYYY-MM-DD') AS date, side, kind, particulars, amount::text,
  matched_to FROM ledger_entries WHERE entry_date BETWEEN '2025-02-01' AND '2025-02-28' ORDER BY kind, entry_id`;
const PERIODS = `SELECT year, month, transaction_count, emi_count FROM ledger_periods ORDER BY year, month LIMIT 2`;

const paidDebit = (amount: number) =>
  recordedStream(transactionDecider, transactionStreamId(transactionId), userId).decide({
    type: 'RecordTransaction',
    data: {
      transactionId,
      userId,
      notes: 'HDFC EMI',
      transactionType: 'D',
      transactionDate: '2025-02-15',
      amount,
      now,
    },
  });
function firstEmiOf(events: readonly RecordedEvent<LoanStreamEvent>[]): number {
  for (const event of events) if (event.type === 'ScheduleGenerated') return event.data.rows[0]!.emi;
  throw new Error('No schedule generated');
}

describe('ledger read model in PostgreSQL', () => {
  const spec = readModelSpec(ledgerProjection);

  const loan = () => recordedStream(loanDecider, loanStreamId(loanId), userId);
  const create = { type: 'CreateLoan', data: { loanId, userId, fields: loanFields, now } } as const;
  const markPaid = (amount: number) =>
    ({
      type: 'MatchEmi',
      data: {
        loanId,
        userId,
        markId: 'mark-1',
        paymentNumber: 1,
        paidOn: '2025-02-15',
        amount,
        transactionId,
        confirm: false,
        now: later,
      },
    }) as const;

  it('shows each EMI as a debit, and a debit matched to a paid EMI once, as the EMI', async () => {
    const stream = loan();
    const created = stream.decide(create);
    const emi = firstEmiOf(created);
    await spec.apply([...seededCatalog(), ...created, ...paidDebit(emi)]);
    expect(await spec.rows(PERIODS)).toEqual([
      { year: 2025, month: 2, transaction_count: 1, emi_count: 1 },
      { year: 2025, month: 3, transaction_count: 0, emi_count: 1 },
    ]);
    await spec.apply(stream.decide(markPaid(emi)));
    const amount = (emi / 100).toFixed(2);
    expect(await spec.rows(FEBRUARY)).toEqual([
      {
        entry_id: `emi-${loanId}-1`,
        date: '2025-02-15',
        side: 'D',
        kind: 'emi',
        particulars: 'EMI 1/24 · HDFC Bank Home Loan · HL00012345',
        amount,
        matched_to: null,
      },
      {
        entry_id: transactionId,
        date: '2025-02-15',
        side: 'D',
        kind: 'transaction',
        particulars: 'HDFC EMI',
        amount,
        matched_to: `emi-${loanId}-1`,
      },
    ]);
    expect(await spec.rows(PERIODS)).toMatchObject([
      { month: 2, transaction_count: 0, emi_count: 1 },
      { month: 3 },
    ]);
    await spec.apply(stream.decide({ type: 'DeleteLoan', data: { loanId, userId, now: later } }));
    expect(await spec.rows(FEBRUARY)).toMatchObject([{ entry_id: transactionId, matched_to: null }]);
    expect(await spec.rows(PERIODS)).toEqual([{ year: 2025, month: 2, transaction_count: 1, emi_count: 0 }]);
  });

  it('lands an event delivered twice once', async () => {
    const stream = loan();
    const created = stream.decide(create);
    const emi = firstEmiOf(created);
    const events = [...seededCatalog(), ...created, ...paidDebit(emi), ...stream.decide(markPaid(emi))];
    const counts = await spec.landsOnce(events);
    expect(counts).toEqual([25, 1, 2, 24]);
  });
});
