import {
  type LoanCommand,
  type LoanFields,
  type LoanState,
  type LoanStreamEvent,
  loanDecider,
} from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { presentOf, presentPartsOf } from './present';
import { evolveSchedule } from './projector';

const loanId = '0b7d8f4e-0000-4000-8000-00000000000b';
const userId = '6f1c2d7e-0000-4000-8000-000000000001';
const now = '2026-01-10T10:00:00.000Z';

/** ₹10 lakh at 9% for 5 years from 2024-01-15. */
const fields: LoanFields = {
  bankId: 1,
  loanTypeId: 1,
  accountNumber: 'HL55501234',
  shortDetail: null,
  principalAmount: 100000000,
  interestRate: 9,
  isInterestRateYearly: true,
  duration: 5,
  isDurationYearly: true,
  startDate: '2024-01-15',
  processingFee: 0,
  hasGst: false,
  gstPercentage: 0,
  emisAutoDebited: true,
  processingFeeGst: true,
};

/** The schedule the read model folds after creating the loan and running `commands`. */
function scheduleAfter(...commands: { type: LoanCommand['type']; data: Record<string, unknown> }[]) {
  let state: LoanState = loanDecider.initialState();
  const events: LoanStreamEvent[] = [];
  const run = (command: LoanCommand) => {
    for (const event of loanDecider.decide(command, state)) {
      events.push(event);
      state = loanDecider.evolve(state, event);
    }
  };
  run({ type: 'CreateLoan', data: { loanId, userId, fields, now } });
  for (const { type, data } of commands) run({ type, data: { loanId, userId, now, ...data } } as LoanCommand);
  const schedule = events.reduce(evolveSchedule, null);
  if (!schedule) throw new Error('no schedule');
  return schedule;
}

const loan = { principal: fields.principalAmount, contractRate: 9 };

describe("a loan's present, from its schedule", () => {
  it('before any change: the contract rate, the next EMI, the balance after the last one due', () => {
    const schedule = scheduleAfter();
    const present = presentOf(presentPartsOf(schedule, '2026-01-10'), loan, '2026-01-10');
    // 23 EMIs fell due by then (Feb 2024 to Dec 2025): the 24th is next, 37 are left.
    const next = schedule.rows[23];
    expect(present).toEqual({
      asOf: '2026-01-10',
      annualRatePercent: 9,
      rateSince: null,
      emi: (next?.principal ?? 0) + (next?.interest ?? 0),
      nextEmiDate: '2026-01-15',
      nextEmiGst: 0,
      emisLeft: 37,
      closingDate: '2029-01-15',
      outstandingPrincipal: schedule.rows[22]?.remainingPrincipal,
    });
    // Before the first EMI, all of it is owed.
    expect(presentOf(presentPartsOf(schedule, '2024-01-20'), loan, '2024-01-20').outstandingPrincipal).toBe(
      100000000,
    );
  });

  it('after a reset: the new rate since the last EMI charged at the old one, and the higher EMI', () => {
    const schedule = scheduleAfter({
      type: 'ChangeLoanRate',
      data: { date: '2024-05-20', annualRatePercent: 10, option: 'increase-emi', newEmi: null },
    });
    const present = presentOf(presentPartsOf(schedule, '2026-01-10'), loan, '2026-01-10');
    // The reset applies from the EMI of 15 Jun for its whole month, which starts on 15 May.
    expect(present).toMatchObject({ annualRatePercent: 10, rateSince: '2024-05-15', emisLeft: 37 });
    const first = schedule.rows[0];
    expect(present.emi).toBeGreaterThan((first?.principal ?? 0) + (first?.interest ?? 0));
    // Before the reset's month the old rate runs.
    expect(presentOf(presentPartsOf(schedule, '2024-05-01'), loan, '2024-05-01')).toMatchObject({
      annualRatePercent: 9,
      rateSince: null,
    });
  });

  it('once repaid early: nothing due, nothing owed, the closing date the last payment’s', () => {
    const schedule = scheduleAfter({
      type: 'ForecloseLoan',
      data: { date: '2025-03-01', charge: 0 },
    });
    expect(presentOf(presentPartsOf(schedule, '2026-01-10'), loan, '2026-01-10')).toMatchObject({
      annualRatePercent: 9,
      emi: null,
      nextEmiDate: null,
      emisLeft: 0,
      closingDate: '2025-03-01',
      outstandingPrincipal: 0,
    });
  });
});
