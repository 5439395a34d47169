import type { Decider } from '../shared/decider';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { assertNever, type Command } from '../shared/messages';
import type { LoanFields } from '../validation/loan';
import { loanEndDate } from './dates';
import type { LoanDetails, LoanEvent, ScheduleGenerated } from './events';
import { generateSchedule } from './schedule';
import { type ExistingLoan, evolveLoan, initialLoanState, type LoanState, scheduleTermsOf } from './state';

export const LOAN_NOT_FOUND = 'Loan not found';

/** Every command carries `now` (ISO-8601 UTC) and the acting user: the domain has no clock. */
export type CreateLoan = Command<
  'CreateLoan',
  Readonly<{ loanId: string; userId: string; fields: LoanFields; now: string }>
>;
export type UpdateLoan = Command<
  'UpdateLoan',
  Readonly<{ loanId: string; userId: string; fields: LoanFields; now: string }>
>;
export type DeleteLoan = Command<'DeleteLoan', Readonly<{ loanId: string; userId: string; now: string }>>;
export type RegenerateSchedule = Command<
  'RegenerateSchedule',
  Readonly<{ loanId: string; userId: string; now: string }>
>;

export type LoanCommand = CreateLoan | UpdateLoan | DeleteLoan | RegenerateSchedule;

/** A change to any of these makes a new schedule version. */
const SCHEDULE_FIELDS = [
  'principalAmount',
  'interestRate',
  'isInterestRateYearly',
  'duration',
  'isDurationYearly',
  'startDate',
  'hasGst',
  'gstPercentage',
] as const satisfies readonly (keyof LoanDetails)[];

function withEndDate(fields: LoanFields): LoanDetails {
  return { ...fields, endDate: loanEndDate(fields.startDate, fields.duration, fields.isDurationYearly) };
}

function scheduleEvent(
  loan: Pick<ExistingLoan, 'loanId' | 'userId' | 'details'>,
  version: number,
  reason: ScheduleGenerated['data']['reason'],
  now: string,
): ScheduleGenerated {
  const terms = scheduleTermsOf(loan.details);
  let schedule: ReturnType<typeof generateSchedule>;
  try {
    schedule = generateSchedule(terms);
  } catch {
    throw new ValidationError([{ field: 'duration', message: 'Duration must be a whole number of months' }]);
  }
  return {
    type: 'ScheduleGenerated',
    data: {
      loanId: loan.loanId,
      userId: loan.userId,
      version,
      reason,
      terms,
      rows: schedule.rows,
      totals: schedule.totals,
      generatedAt: now,
    },
  };
}

/** The user's live loan, or 404 (another user's loan answers exactly like a missing one). */
function ownLoan(state: LoanState, userId: string): ExistingLoan {
  if (state.status !== 'active' || state.userId !== userId) throw new NotFoundError(LOAN_NOT_FOUND);
  return state;
}

function decideLoan(command: LoanCommand, state: LoanState): LoanEvent[] {
  switch (command.type) {
    case 'CreateLoan': {
      const { loanId, userId, fields, now } = command.data;
      if (state.status !== 'none') throw new ConflictError('Loan already exists');
      const details = withEndDate(fields);
      return [
        { type: 'LoanCreated', data: { loanId, userId, ...details, createdAt: now } },
        scheduleEvent({ loanId, userId, details }, 1, 'created', now),
      ];
    }
    case 'UpdateLoan': {
      const { userId, fields, now } = command.data;
      const loan = ownLoan(state, userId);
      const next = withEndDate(fields);
      const changed = (Object.keys(next) as (keyof LoanDetails)[]).filter(
        (key) => next[key] !== loan.details[key],
      );
      if (changed.length === 0) return [];
      const pick = (details: LoanDetails) => Object.fromEntries(changed.map((key) => [key, details[key]]));
      const updated: LoanEvent = {
        type: 'LoanUpdated',
        data: {
          loanId: loan.loanId,
          userId,
          changes: pick(next),
          previous: pick(loan.details),
          updatedAt: now,
        },
      };
      const termsChanged = changed.some((key) => (SCHEDULE_FIELDS as readonly string[]).includes(key));
      if (!termsChanged) return [updated];
      return [updated, scheduleEvent({ ...loan, details: next }, loan.scheduleVersion + 1, 'updated', now)];
    }
    case 'DeleteLoan': {
      const { userId, now } = command.data;
      const loan = ownLoan(state, userId);
      return [{ type: 'LoanDeleted', data: { loanId: loan.loanId, userId, deletedAt: now } }];
    }
    case 'RegenerateSchedule': {
      const { userId, now } = command.data;
      const loan = ownLoan(state, userId);
      return [scheduleEvent(loan, loan.scheduleVersion + 1, 'regenerated', now)];
    }
    default:
      return assertNever(command);
  }
}

export const loanDecider: Decider<LoanState, LoanCommand, LoanEvent> = {
  initialState: initialLoanState,
  evolve: evolveLoan,
  decide: decideLoan,
};
