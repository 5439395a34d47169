import { assertNever } from '../shared/messages';
import type { LoanChange } from './actual-schedule';
import type {
  EmiOverridden,
  LoanDetails,
  LoanForeclosed,
  LoanPrepaid,
  LoanRateChanged,
  LoanStreamEvent,
  ScheduleTerms,
} from './events';
import { evolvePayments, type LoanPayments, noPayments, upcastLoanEvent } from './payments';

export type ExistingLoan = Readonly<{
  status: 'active' | 'deleted';
  loanId: string;
  userId: string;
  details: LoanDetails;
  /** Version of the latest schedule; 0 before the first. */
  scheduleVersion: number;
  /** Prepayments, rate changes, EMI overrides and a foreclosure, in date order. */
  changes: readonly LoanChange[];
  /** Marks and matches of EMIs, pre-EMI interest, construction's completion. */
  payments: LoanPayments;
  foreclosedOn: string | null;
  createdAt: string;
  updatedAt: string;
}>;

export type LoanState = Readonly<{ status: 'none' }> | ExistingLoan;

export const initialLoanState = (): LoanState => ({ status: 'none' });

/** The inputs of the schedule, taken from the loan's details. */
export function scheduleTermsOf(details: LoanDetails): ScheduleTerms {
  const { principalAmount, interestRate, isInterestRateYearly, duration, isDurationYearly, startDate } =
    details;
  const { hasGst, gstPercentage } = details;
  return {
    principalAmount,
    interestRate,
    isInterestRateYearly,
    duration,
    isDurationYearly,
    startDate,
    hasGst,
    gstPercentage,
  };
}

/** The schedule change an event records. */
export function changeOf(event: LoanPrepaid | LoanRateChanged | EmiOverridden | LoanForeclosed): LoanChange {
  switch (event.type) {
    case 'LoanPrepaid': {
      const { date, amount, charge, choice } = event.data;
      return { kind: 'prepayment', date, amount, charge, choice };
    }
    case 'LoanRateChanged': {
      const { date, annualRatePercent, option, newEmi } = event.data;
      return { kind: 'rate-change', date, annualRatePercent, option, newEmi };
    }
    case 'EmiOverridden':
      return { kind: 'emi-override', date: event.data.date, emi: event.data.emi };
    case 'LoanForeclosed':
      return { kind: 'foreclosure', date: event.data.date, charge: event.data.charge };
    default:
      return assertNever(event);
  }
}

/** `changes` with `change` placed after every change dated on or before it (a late entry may be backdated). */
export function withChange(changes: readonly LoanChange[], change: LoanChange): LoanChange[] {
  const at = changes.findIndex((existing) => existing.date > change.date);
  return at === -1 ? [...changes, change] : [...changes.slice(0, at), change, ...changes.slice(at)];
}

export function evolveLoan(state: LoanState, stored: LoanStreamEvent): LoanState {
  const event = upcastLoanEvent(stored);
  switch (event.type) {
    case 'LoanCreated': {
      const { loanId, userId, createdAt, ...details } = event.data;
      return {
        status: 'active',
        loanId,
        userId,
        details,
        scheduleVersion: 0,
        changes: [],
        payments: noPayments,
        foreclosedOn: null,
        createdAt,
        updatedAt: createdAt,
      };
    }
    case 'LoanUpdated':
      if (state.status === 'none') return state;
      return {
        ...state,
        details: { ...state.details, ...event.data.changes },
        updatedAt: event.data.updatedAt,
      };
    case 'LoanDeleted':
      if (state.status === 'none') return state;
      return { ...state, status: 'deleted', updatedAt: event.data.deletedAt };
    case 'ScheduleGenerated':
    case 'ScheduleRevised':
      if (state.status === 'none') return state;
      return { ...state, scheduleVersion: event.data.version };
    case 'LoanPrepaid':
    case 'LoanRateChanged':
    case 'EmiOverridden':
      if (state.status === 'none') return state;
      return {
        ...state,
        changes: withChange(state.changes, changeOf(event)),
        updatedAt: event.data.recordedAt,
      };
    case 'LoanForeclosed':
      if (state.status === 'none') return state;
      return {
        ...state,
        changes: withChange(state.changes, changeOf(event)),
        foreclosedOn: event.data.date,
        updatedAt: event.data.recordedAt,
      };
    case 'EmiMarkedPaid':
    case 'EmisMarkedPaidUpTo':
    case 'EmiMatched':
    case 'EmiMarkedMissed':
    case 'EmiMarkUndone':
    case 'EmiMatchReleased':
    case 'PreEmiInterestPaid':
    case 'ConstructionCompleted':
      if (state.status === 'none') return state;
      return {
        ...state,
        payments: evolvePayments(state.payments, event),
        updatedAt: event.data.recordedAt,
      };
    default:
      return assertNever(event);
  }
}
