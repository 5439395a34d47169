import { transactionDecider, transactionStreamId } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { later, now, userId } from '../runner/testing/fixtures';
import { readModelSpec, recordedStream } from '../runner/testing/read-model-spec';
import { transactionsProjection } from './projector';

const ROWS = `SELECT id::text, notes, transaction_type, amount::text, version FROM transactions ORDER BY notes`;
const STATS = `SELECT user_id, total_transactions::int, credit_count::int, debit_count::int,
  credit_amount::text, debit_amount::text FROM transaction_stats`;

const salaryId = '1e7d8f4e-0000-4000-8000-000000000001';
const rentId = '1e7d8f4e-0000-4000-8000-000000000002';
const record = (transactionId: string, notes: string, transactionType: 'C' | 'D', amount: number) =>
  ({
    type: 'RecordTransaction',
    data: { transactionId, userId, notes, transactionType, transactionDate: '2026-01-05', amount, now },
  }) as const;

describe('transactions read model in PostgreSQL', () => {
  const spec = readModelSpec(transactionsProjection);

  const streams = () => ({
    salary: recordedStream(transactionDecider, transactionStreamId(salaryId), userId),
    rent: recordedStream(transactionDecider, transactionStreamId(rentId), userId),
  });

  it('holds one row per transaction and the user totals, as the events leave them', async () => {
    const { salary, rent } = streams();
    await spec.apply([
      ...salary.decide(record(salaryId, 'Salary', 'C', 9000000)),
      ...rent.decide(record(rentId, 'Rent', 'D', 2500000)),
    ]);
    await spec.apply(
      rent.decide({
        type: 'UpdateTransaction',
        data: { ...record(rentId, 'Rent', 'D', 2600000).data, now: later },
      }),
    );
    expect(await spec.rows(ROWS)).toEqual([
      { id: rentId, notes: 'Rent', transaction_type: 'D', amount: '26000.00', version: 2 },
      { id: salaryId, notes: 'Salary', transaction_type: 'C', amount: '90000.00', version: 1 },
    ]);
    expect(await spec.rows(STATS)).toEqual([
      {
        user_id: userId,
        total_transactions: 2,
        credit_count: 1,
        debit_count: 1,
        credit_amount: '90000.00',
        debit_amount: '26000.00',
      },
    ]);
    await spec.apply(
      rent.decide({ type: 'DeleteTransaction', data: { transactionId: rentId, userId, now: later } }),
    );
    expect(await spec.rows(ROWS)).toMatchObject([{ id: salaryId }]);
    expect(await spec.rows(STATS)).toMatchObject([
      { total_transactions: 1, debit_count: 0, debit_amount: '0.00' },
    ]);
  });

  it('lands an event delivered twice once, in the rows and in the totals', async () => {
    const { salary, rent } = streams();
    const events = [
      ...salary.decide(record(salaryId, 'Salary', 'C', 9000000)),
      ...rent.decide(record(rentId, 'Rent', 'D', 2500000)),
    ];
    const counts = await spec.landsOnce(events);
    expect(counts).toEqual([2, 1]);
  });
});
