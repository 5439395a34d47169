import { NotFoundError } from '../shared/errors';
import { LOAN_CHANGE_MESSAGES, loanChangeError } from '../validation/loan-change';
import { calendarDateOf, isIsoDate } from './dates';
import type { ExistingLoan, LoanState } from './state';

export const LOAN_NOT_FOUND = 'Loan not found';

/** The user's live loan, or 404 (another user's loan answers exactly like a missing one). */
export function ownLoan(state: LoanState, userId: string): ExistingLoan {
  if (state.status !== 'active' || state.userId !== userId) throw new NotFoundError(LOAN_NOT_FOUND);
  return state;
}

/** Payments are recorded once made: their date is a real date, not after today (in India). */
export function assertPastDate(field: string, date: string, now: string): void {
  if (!isIsoDate(date)) throw loanChangeError(field, LOAN_CHANGE_MESSAGES.dateInvalid);
  if (date > calendarDateOf(new Date(now))) throw loanChangeError(field, LOAN_CHANGE_MESSAGES.dateInFuture);
}
