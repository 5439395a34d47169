import { loanDecider, loanStreamId } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { later, loanFields, loanId, now, userId } from '../runner/testing/fixtures';
import { readModelSpec, recordedStream } from '../runner/testing/read-model-spec';
import { loansProjection } from './projector';

const ROWS = `SELECT id::text, user_id, account_number, principal_amount::text, to_char(end_date, 'YYYY-MM-DD') AS end_date,
  schedule_version, version FROM loans ORDER BY id`;

describe('loans read model in PostgreSQL', () => {
  const spec = readModelSpec(loansProjection);

  const loan = () => recordedStream(loanDecider, loanStreamId(loanId), userId);
  const create = { type: 'CreateLoan', data: { loanId, userId, fields: loanFields, now } } as const;
  const update = {
    type: 'UpdateLoan',
    data: { loanId, userId, fields: { ...loanFields, principalAmount: 15000000 }, now: later },
  } as const;

  it('holds one row per live loan, as its events leave it', async () => {
    const stream = loan();
    await spec.apply(stream.decide(create));
    await spec.apply(stream.decide(update));
    expect(await spec.rows(ROWS)).toEqual([
      {
        id: loanId,
        user_id: userId,
        account_number: 'HL00012345',
        principal_amount: '150000.00',
        end_date: '2027-01-15',
        schedule_version: 2,
        version: 4,
      },
    ]);
    await spec.apply(stream.decide({ type: 'DeleteLoan', data: { loanId, userId, now: later } }));
    expect(await spec.rows(ROWS)).toEqual([]);
  });

  it('lands an event delivered twice once', async () => {
    const counts = await spec.landsOnce(loan().decide(create, update));
    expect(counts).toEqual([1]);
  });
});
