import { assertNever } from '../shared/messages';
import type { LoanDetails, LoanEvent, ScheduleTerms } from './events';

export type ExistingLoan = Readonly<{
  status: 'active' | 'deleted';
  loanId: string;
  userId: string;
  details: LoanDetails;
  /** Version of the latest schedule; 0 before the first. */
  scheduleVersion: number;
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

export function evolveLoan(state: LoanState, event: LoanEvent): LoanState {
  switch (event.type) {
    case 'LoanCreated': {
      const { loanId, userId, createdAt, ...details } = event.data;
      return {
        status: 'active',
        loanId,
        userId,
        details,
        scheduleVersion: 0,
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
      if (state.status === 'none') return state;
      return { ...state, scheduleVersion: event.data.version };
    default:
      return assertNever(event);
  }
}
