import { loanDecider, loanStreamId } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { later, loanFields, loanId, now, userId } from '../runner/testing/fixtures';
import { readModelSpec, recordedStream } from '../runner/testing/read-model-spec';
import { schedulesProjection } from './projector';

const HEADERS = `SELECT loan_id::text, version, reason, principal::text, number_of_payments,
  to_char(closed_on, 'YYYY-MM-DD') AS closed_on FROM loan_schedules`;
const ROWS = `SELECT count(*)::int AS rows, max(version) AS version FROM loan_schedule_rows`;
const PAID = `SELECT (mark->>'paymentNumber')::int AS payment_number, mark->>'paidOn' AS paid_on, transaction_id
  FROM loan_emi_marks`;

const create = { type: 'CreateLoan', data: { loanId, userId, fields: loanFields, now } } as const;
const update = {
  type: 'UpdateLoan',
  data: { loanId, userId, fields: { ...loanFields, principalAmount: 15000000 }, now: later },
} as const;
const markPaid = (amount: number) =>
  ({
    type: 'MarkEmiPaid',
    data: { loanId, userId, markId: 'mark-1', paymentNumber: 1, paidOn: '2025-02-15', amount, now: later },
  }) as const;

describe('schedules read model in PostgreSQL', () => {
  const spec = readModelSpec(schedulesProjection);

  const loan = () => recordedStream(loanDecider, loanStreamId(loanId), userId);

  it("holds each loan's newest schedule and the EMIs paid, whatever the version", async () => {
    const stream = loan();
    await spec.apply(stream.decide(create, markPaid(550000)));
    expect(await spec.rows(HEADERS)).toEqual([
      {
        loan_id: loanId,
        version: 1,
        reason: 'created',
        principal: '120000.00',
        number_of_payments: 24,
        closed_on: '2027-01-15',
      },
    ]);
    await spec.apply(stream.decide(update));
    expect(await spec.rows(HEADERS)).toMatchObject([{ version: 2, principal: '150000.00' }]);
    expect(await spec.rows(ROWS)).toEqual([{ rows: 24, version: 2 }]);
    expect(await spec.rows(PAID)).toEqual([
      { payment_number: 1, paid_on: '2025-02-15', transaction_id: null },
    ]);
    await spec.apply(stream.decide({ type: 'DeleteLoan', data: { loanId, userId, now: later } }));
    expect([...(await spec.rows(HEADERS)), ...(await spec.rows(PAID))]).toEqual([]);
    expect(await spec.rows(ROWS)).toEqual([{ rows: 0, version: null }]);
  });

  it('lands an event delivered twice once', async () => {
    const counts = await spec.landsOnce(loan().decide(create, update, markPaid(550000)));
    expect(counts).toEqual([1, 24, 1]);
  });
});
