import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../shared/errors';
import { DeciderSpecification } from '../testing/decider-specification';
import { loanFields } from '../testing/fixtures';
import type { LoanFields } from '../validation/loan';
import { loanDecider } from './decide';
import type { LoanCreated, LoanEvent, ScheduleGenerated } from './events';
import { generateSchedule } from './schedule';
import { scheduleTermsOf } from './state';

const given = DeciderSpecification.for(loanDecider);

const loanId = '0b7d8f4e-0000-4000-8000-00000000000a';
const userId = '6f1c2d7e-0000-4000-8000-000000000001';
const otherUserId = '6f1c2d7e-0000-4000-8000-000000000002';
const now = '2026-01-10T10:00:00.000Z';
const later = '2026-02-01T09:00:00.000Z';

const fields = loanFields();
const details = { ...fields, endDate: '2045-03-15' };

function schedule(
  version: number,
  reason: ScheduleGenerated['data']['reason'],
  at: string,
  loan: LoanFields = fields,
): ScheduleGenerated {
  const terms = scheduleTermsOf({ ...loan, endDate: '' });
  const { rows, totals } = generateSchedule(terms);
  return {
    type: 'ScheduleGenerated',
    data: { loanId, userId, version, reason, terms, rows, totals, generatedAt: at },
  };
}

const created: LoanCreated = { type: 'LoanCreated', data: { loanId, userId, ...details, createdAt: now } };
const history: LoanEvent[] = [created, schedule(1, 'created', now)];

describe('CreateLoan', () => {
  it('records the loan with its end date and generates schedule version 1', () => {
    given([])
      .when({ type: 'CreateLoan', data: { loanId, userId, fields, now } })
      .then([created, schedule(1, 'created', now)]);
  });

  it('refuses a loan id that is already taken', () => {
    given(history)
      .when({ type: 'CreateLoan', data: { loanId, userId, fields, now } })
      .thenThrows(ConflictError);
  });
});

describe('UpdateLoan', () => {
  it('records only what changed, without a new schedule when the terms are the same', () => {
    given(history)
      .when({
        type: 'UpdateLoan',
        data: { loanId, userId, fields: { ...fields, accountNumber: 'HL99999999' }, now: later },
      })
      .then([
        {
          type: 'LoanUpdated',
          data: {
            loanId,
            userId,
            changes: { accountNumber: 'HL99999999' },
            previous: { accountNumber: 'HL00012345' },
            updatedAt: later,
          },
        },
      ]);
  });

  it.each([
    ['principal', { principalAmount: 200000000 }],
    ['rate', { interestRate: 9 }],
    ['duration', { duration: 15 }],
    ['GST', { hasGst: true, gstPercentage: 18 }],
  ])('generates the next schedule version when the %s changes', (_, change) => {
    const next = { ...fields, ...change };
    const events = loanDecider.decide(
      { type: 'UpdateLoan', data: { loanId, userId, fields: next, now: later } },
      history.reduce(loanDecider.evolve, loanDecider.initialState()),
    );
    expect(events.map((event) => event.type)).toEqual(['LoanUpdated', 'ScheduleGenerated']);
    expect(events[1]).toEqual(schedule(2, 'updated', later, next));
  });

  it('moves the end date with the start date', () => {
    given(history)
      .when({
        type: 'UpdateLoan',
        data: { loanId, userId, fields: { ...fields, startDate: '2025-05-31' }, now: later },
      })
      .then([
        {
          type: 'LoanUpdated',
          data: {
            loanId,
            userId,
            changes: { startDate: '2025-05-31', endDate: '2045-05-31' },
            previous: { startDate: '2025-03-15', endDate: '2045-03-15' },
            updatedAt: later,
          },
        },
        schedule(2, 'updated', later, { ...fields, startDate: '2025-05-31' }),
      ]);
  });

  it('records nothing when nothing changed', () => {
    given(history)
      .when({ type: 'UpdateLoan', data: { loanId, userId, fields, now: later } })
      .then([]);
  });

  it('answers not found for another user’s loan, a missing loan and a deleted loan', () => {
    const command = {
      type: 'UpdateLoan' as const,
      data: { loanId, userId: otherUserId, fields, now: later },
    };
    given(history)
      .when(command)
      .thenThrows(NotFoundError, (error) => expect(error.message).toBe('Loan not found'));
    given([])
      .when({ ...command, data: { ...command.data, userId } })
      .thenThrows(NotFoundError);
    given([...history, { type: 'LoanDeleted', data: { loanId, userId, deletedAt: later } }])
      .when({ ...command, data: { ...command.data, userId } })
      .thenThrows(NotFoundError);
  });
});

describe('DeleteLoan', () => {
  it('deletes the owner’s loan', () => {
    given(history)
      .when({ type: 'DeleteLoan', data: { loanId, userId, now: later } })
      .then([{ type: 'LoanDeleted', data: { loanId, userId, deletedAt: later } }]);
  });

  it('answers not found for another user and for a second delete', () => {
    given(history)
      .when({ type: 'DeleteLoan', data: { loanId, userId: otherUserId, now: later } })
      .thenThrows(NotFoundError);
    given([...history, { type: 'LoanDeleted', data: { loanId, userId, deletedAt: later } }])
      .when({ type: 'DeleteLoan', data: { loanId, userId, now: later } })
      .thenThrows(NotFoundError);
  });
});

describe('RegenerateSchedule', () => {
  it('generates the next version from the current terms, keeping earlier ones in the log', () => {
    given(history)
      .when({ type: 'RegenerateSchedule', data: { loanId, userId, now: later } })
      .then([schedule(2, 'regenerated', later)]);
  });

  it('numbers versions after updates', () => {
    const next = { ...fields, interestRate: 9 };
    given([
      ...history,
      ...loanDecider.decide(
        { type: 'UpdateLoan', data: { loanId, userId, fields: next, now: later } },
        history.reduce(loanDecider.evolve, loanDecider.initialState()),
      ),
    ])
      .when({ type: 'RegenerateSchedule', data: { loanId, userId, now: later } })
      .then([schedule(3, 'regenerated', later, next)]);
  });

  it('answers not found for another user', () => {
    given(history)
      .when({ type: 'RegenerateSchedule', data: { loanId, userId: otherUserId, now: later } })
      .thenThrows(NotFoundError);
  });
});
