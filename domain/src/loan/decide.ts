import { formatInr } from '../money/format';
import type { Paise } from '../money/paise';
import type { Decider } from '../shared/decider';
import { ConflictError, ValidationError } from '../shared/errors';
import { changedKeys } from '../shared/field-table';
import { assertNever, type Command } from '../shared/messages';
import type { LoanFields } from '../validation/loan';
import { LOAN_CHANGE_MESSAGES, loanChangeError } from '../validation/loan-change';
import {
  actualSchedule,
  assertPastUnchanged,
  type LoanChange,
  type PrepaymentChoice,
  type RateChangeOption,
} from './actual-schedule';
import { loanEndDate } from './dates';
import { decidePayment, type LoanPaymentCommand } from './decide-payments';
import type {
  EmiOverridden,
  LoanDetails,
  LoanEvent,
  LoanPrepaid,
  LoanRateChanged,
  LoanStreamEvent,
  ScheduleGenerated,
  ScheduleRevised,
} from './events';
import { LOAN_FIELDS } from './fields';
import { foreclosureQuote } from './foreclosure-quote';
import { assertPastDate, ownLoan } from './guards';
import { MAX_RATE_SIGNIFICANT_DIGITS, significantDigits } from './rate';
import { generateSchedule } from './schedule';
import {
  changeOf,
  type ExistingLoan,
  evolveLoan,
  initialLoanState,
  type LoanState,
  scheduleTermsOf,
  withChange,
} from './state';

export { LOAN_NOT_FOUND, ownLoan } from './guards';
/**
 * Once a loan has prepayments, resets or a foreclosure, its recorded history is computed from
 * its terms: editing them would silently rewrite every later figure.
 */
export const LOAN_TERMS_LOCKED =
  'This loan has recorded prepayments, rate changes or a foreclosure, so its amount, rate, tenure and start date can no longer be edited';

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

type ChangeCommandData<Data> = Readonly<{ loanId: string; userId: string; now: string } & Data>;

export type RecordPrepayment = Command<
  'RecordPrepayment',
  ChangeCommandData<{ date: string; amount: Paise; charge: Paise; choice: PrepaymentChoice }>
>;
export type ChangeLoanRate = Command<
  'ChangeLoanRate',
  ChangeCommandData<{
    date: string;
    annualRatePercent: number;
    option: RateChangeOption;
    newEmi: Paise | null;
  }>
>;
export type OverrideEmi = Command<'OverrideEmi', ChangeCommandData<{ date: string; emi: Paise }>>;
export type ForecloseLoan = Command<'ForecloseLoan', ChangeCommandData<{ date: string; charge: Paise }>>;
export type LoanChangeCommand = RecordPrepayment | ChangeLoanRate | OverrideEmi | ForecloseLoan;

export type LoanCommand =
  | CreateLoan
  | UpdateLoan
  | DeleteLoan
  | RegenerateSchedule
  | LoanChangeCommand
  | LoanPaymentCommand;

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

/** The schedule after `changes`; with `changeDate`, refusing one that alters a row dated before it. */
function revisedSchedule(
  loan: ExistingLoan,
  changes: readonly LoanChange[],
  reason: ScheduleRevised['data']['reason'],
  now: string,
  changeDate?: string,
): ScheduleRevised {
  const terms = scheduleTermsOf(loan.details);
  const { rows, totals } = actualSchedule(terms, changes);
  if (changeDate !== undefined)
    assertPastUnchanged(actualSchedule(terms, loan.changes).rows, rows, changeDate);
  return {
    type: 'ScheduleRevised',
    data: {
      loanId: loan.loanId,
      userId: loan.userId,
      version: loan.scheduleVersion + 1,
      reason,
      terms,
      changes,
      rows,
      totals,
      generatedAt: now,
    },
  };
}

/** A loan that can still change: live, owned, not foreclosed. */
function changeableLoan(state: LoanState, userId: string): ExistingLoan {
  const loan = ownLoan(state, userId);
  if (loan.foreclosedOn !== null)
    throw new ConflictError(LOAN_CHANGE_MESSAGES.loanForeclosed(loan.foreclosedOn));
  return loan;
}

/** The change event followed by the schedule it makes; the schedule refuses a change that cannot apply. */
function recordChange(
  loan: ExistingLoan,
  event: LoanPrepaid | LoanRateChanged | EmiOverridden,
  reason: ScheduleRevised['data']['reason'],
  now: string,
): LoanStreamEvent[] {
  const change = changeOf(event);
  return [event, revisedSchedule(loan, withChange(loan.changes, change), reason, now, change.date)];
}

function decideChange(command: LoanChangeCommand, state: LoanState): LoanStreamEvent[] {
  switch (command.type) {
    case 'RecordPrepayment': {
      const { userId, date, amount, charge, choice, now } = command.data;
      const loan = changeableLoan(state, userId);
      assertPastDate('date', date, now);
      const data = { loanId: loan.loanId, userId, date, amount, charge, choice, recordedAt: now };
      return recordChange(loan, { type: 'LoanPrepaid', data }, 'prepaid', now);
    }
    case 'ChangeLoanRate': {
      const { userId, date, annualRatePercent, option, now } = command.data;
      const loan = changeableLoan(state, userId);
      // A stored rate is used as its shortest decimal text; past 15 digits that may not be what was typed.
      if ((significantDigits(annualRatePercent) ?? 0) > MAX_RATE_SIGNIFICANT_DIGITS)
        throw loanChangeError('annualRatePercent', LOAN_CHANGE_MESSAGES.rateTooPrecise);
      const newEmi = option === 'combination' ? command.data.newEmi : null;
      const data = { loanId: loan.loanId, userId, date, annualRatePercent, option, newEmi, recordedAt: now };
      return recordChange(loan, { type: 'LoanRateChanged', data }, 'rate-changed', now);
    }
    case 'OverrideEmi': {
      const { userId, date, emi, now } = command.data;
      const loan = changeableLoan(state, userId);
      const data = { loanId: loan.loanId, userId, date, emi, recordedAt: now };
      return recordChange(loan, { type: 'EmiOverridden', data }, 'emi-overridden', now);
    }
    case 'ForecloseLoan': {
      const { userId, date, charge, now } = command.data;
      const loan = changeableLoan(state, userId);
      assertPastDate('date', date, now);
      const terms = scheduleTermsOf(loan.details);
      const quote = foreclosureQuote(terms, loan.changes, loan.payments.marks, date, charge);
      if (quote.payable < 0)
        throw loanChangeError(
          'date',
          LOAN_CHANGE_MESSAGES.advanceExceedsSettlement(
            formatInr(quote.advanceCredit),
            formatInr(quote.total),
          ),
        );
      const revised = revisedSchedule(
        loan,
        withChange(loan.changes, { kind: 'foreclosure', date, charge }),
        'foreclosed',
        now,
        date,
      );
      const { principal, interest, gst } = quote;
      const settlement = {
        principal,
        interest,
        gst,
        charge,
        amount: quote.payable,
        advanceCredit: quote.advanceCredit,
        advanceEmis: quote.advanceEmis.map((emi) => emi.paymentNumber),
      };
      return [
        {
          type: 'LoanForeclosed',
          data: { loanId: loan.loanId, userId, date, charge, settlement, recordedAt: now },
        },
        revised,
      ];
    }
    default:
      return assertNever(command);
  }
}

function decideLoan(command: LoanCommand, state: LoanState): LoanStreamEvent[] {
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
      // Every declared field is compared: an edit that changes none records nothing.
      const changed = changedKeys(LOAN_FIELDS, loan.details, next);
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
      if (loan.changes.length > 0) throw new ConflictError(LOAN_TERMS_LOCKED);
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
      if (loan.changes.length > 0) return [revisedSchedule(loan, loan.changes, 'regenerated', now)];
      return [scheduleEvent(loan, loan.scheduleVersion + 1, 'regenerated', now)];
    }
    case 'RecordPrepayment':
    case 'ChangeLoanRate':
    case 'OverrideEmi':
    case 'ForecloseLoan':
      return decideChange(command, state);
    case 'MarkEmiPaid':
    case 'MatchEmi':
    case 'MarkEmisPaidUpTo':
    case 'MarkEmiMissed':
    case 'UndoEmiMark':
    case 'ReleaseDeletedDebit':
    case 'RecordPreEmiInterest':
    case 'CompleteConstruction':
      return decidePayment(command, state);
    default:
      return assertNever(command);
  }
}

export const loanDecider: Decider<LoanState, LoanCommand, LoanStreamEvent> = {
  initialState: initialLoanState,
  evolve: evolveLoan,
  decide: decideLoan,
};
