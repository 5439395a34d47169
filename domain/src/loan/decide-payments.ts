import { formatInr } from '../money/format';
import type { Paise } from '../money/paise';
import { ConflictError, NotFoundError } from '../shared/errors';
import { assertNever, type Command } from '../shared/messages';
import { loanChangeError, LOAN_CHANGE_MESSAGES as M } from '../validation/loan-change';
import { actualSchedule } from './actual-schedule';
import { calendarDateOf, isIsoDate } from './dates';
import type { LoanPaymentEvent } from './events';
import { assertPastDate, ownLoan } from './guards';
import { emiStandings } from './payments';
import { type ExistingLoan, type LoanState, scheduleTermsOf } from './state';

type PaymentCommandData<Data> = Readonly<{ loanId: string; userId: string; now: string } & Data>;

/** EMI n paid by hand. `markId`: a new id, so the mark can be undone. */
export type MarkEmiPaid = Command<
  'MarkEmiPaid',
  PaymentCommandData<{
    markId: string;
    paymentNumber: number;
    paidOn: string;
    /** Null: the EMI's own amount. */
    amount: Paise | null;
  }>
>;
/** A debit of the book as EMI n's payment; `confirm` accepts a debit whose amount differs from the EMI's. */
export type MatchEmi = Command<
  'MatchEmi',
  PaymentCommandData<{
    markId: string;
    paymentNumber: number;
    transactionId: string;
    paidOn: string;
    amount: Paise;
    confirm: boolean;
  }>
>;
/** Every EMI due on or before `upTo` with nothing marked, paid on its own due date. */
export type MarkEmisPaidUpTo = Command<
  'MarkEmisPaidUpTo',
  PaymentCommandData<{ markId: string; upTo: string }>
>;
/** EMI n bounced. */
export type MarkEmiMissed = Command<
  'MarkEmiMissed',
  PaymentCommandData<{ markId: string; paymentNumber: number }>
>;
/** Undo a paid, paid-up-to, missed or pre-EMI interest mark, or release a match. */
export type UndoEmiMark = Command<'UndoEmiMark', PaymentCommandData<{ markId: string }>>;
/** The debit was deleted from the transaction book: every match to it is released. */
export type ReleaseDeletedDebit = Command<
  'ReleaseDeletedDebit',
  PaymentCommandData<{ transactionId: string }>
>;
export type RecordPreEmiInterest = Command<
  'RecordPreEmiInterest',
  PaymentCommandData<{ markId: string; date: string; amount: Paise }>
>;
export type CompleteConstruction = Command<'CompleteConstruction', PaymentCommandData<{ date: string }>>;

export type LoanPaymentCommand =
  | MarkEmiPaid
  | MatchEmi
  | MarkEmisPaidUpTo
  | MarkEmiMissed
  | UndoEmiMark
  | ReleaseDeletedDebit
  | RecordPreEmiInterest
  | CompleteConstruction;

/** The loan's EMIs as they stand today, marks only (auto-debit aside: a mark overrides it). */
function standingsOf(loan: ExistingLoan, now: string) {
  const { rows } = actualSchedule(scheduleTermsOf(loan.details), loan.changes);
  return emiStandings(rows, loan.payments.marks, false, calendarDateOf(new Date(now)));
}

function emiOf(loan: ExistingLoan, paymentNumber: number, now: string) {
  const emi = standingsOf(loan, now).find((s) => s.paymentNumber === paymentNumber);
  if (!emi) throw loanChangeError('paymentNumber', M.emiNumberUnknown(paymentNumber));
  return emi;
}

const isAmount = (amount: Paise) => Number.isSafeInteger(amount) && amount > 0;

/**
 * Marks and matches of EMIs (issue 27): what was paid, when, and how much; each an event with
 * its own id, so any of them can be taken back by another event.
 */
export function decidePayment(command: LoanPaymentCommand, state: LoanState): LoanPaymentEvent[] {
  const { userId, now } = command.data;
  const loan = ownLoan(state, userId);
  const ids = { loanId: loan.loanId, userId, recordedAt: now };
  switch (command.type) {
    case 'MarkEmiPaid': {
      const { markId, paymentNumber, paidOn } = command.data;
      assertPastDate('paidOn', paidOn, now);
      const amount = command.data.amount ?? emiOf(loan, paymentNumber, now).amount;
      if (!isAmount(amount)) throw loanChangeError('amount', M.amountInvalid);
      if (emiOf(loan, paymentNumber, now).remainder === 0)
        throw new ConflictError(M.emiAlreadyCovered(paymentNumber));
      const data = { ...ids, markId, paymentNumber, paidOn, amount, transactionId: null };
      return [{ type: 'EmiMarkedPaid', data }];
    }
    case 'MatchEmi': {
      const { markId, paymentNumber, transactionId, paidOn, amount, confirm } = command.data;
      assertPastDate('paidOn', paidOn, now);
      const emi = emiOf(loan, paymentNumber, now);
      if (emi.remainder === 0) throw new ConflictError(M.emiAlreadyCovered(paymentNumber));
      if (loan.payments.marks.some((m) => m.kind === 'matched' && m.transactionId === transactionId))
        throw loanChangeError('transactionId', M.debitAlreadyMatched);
      if (amount !== emi.amount && !confirm)
        throw loanChangeError(
          'confirm',
          M.matchAmountDiffers(paymentNumber, formatInr(amount), formatInr(emi.amount)),
        );
      return [{ type: 'EmiMatched', data: { ...ids, markId, paymentNumber, transactionId, paidOn, amount } }];
    }
    case 'MarkEmisPaidUpTo': {
      const { markId, upTo } = command.data;
      assertPastDate('upTo', upTo, now);
      const paymentNumbers = standingsOf(loan, now)
        .filter((s) => s.dueDate <= upTo && s.payments.length === 0 && s.missedMarkId === null)
        .map((s) => s.paymentNumber);
      if (paymentNumbers.length === 0) throw loanChangeError('upTo', M.nothingToMarkUpTo(upTo));
      return [{ type: 'EmisMarkedPaidUpTo', data: { ...ids, markId, upTo, paymentNumbers } }];
    }
    case 'MarkEmiMissed': {
      const { markId, paymentNumber } = command.data;
      const emi = emiOf(loan, paymentNumber, now);
      if (emi.dueDate > calendarDateOf(new Date(now)))
        throw loanChangeError('paymentNumber', M.emiNotDueYet(paymentNumber, emi.dueDate));
      if (emi.missedMarkId !== null) throw new ConflictError(M.emiAlreadyMissed(paymentNumber));
      if (emi.remainder === 0) throw new ConflictError(M.emiAlreadyCovered(paymentNumber));
      return [{ type: 'EmiMarkedMissed', data: { ...ids, markId, paymentNumber } }];
    }
    case 'UndoEmiMark': {
      const { markId } = command.data;
      const mark = loan.payments.marks.find((m) => m.markId === markId);
      if (!mark) throw new NotFoundError(M.markUnknown);
      if (mark.kind === 'matched') {
        const { transactionId } = mark;
        return [{ type: 'EmiMatchReleased', data: { ...ids, markId, transactionId, reason: 'undone' } }];
      }
      return [{ type: 'EmiMarkUndone', data: { ...ids, markId } }];
    }
    case 'ReleaseDeletedDebit': {
      const { transactionId } = command.data;
      return loan.payments.marks.flatMap((m): LoanPaymentEvent[] =>
        m.kind === 'matched' && m.transactionId === transactionId
          ? [
              {
                type: 'EmiMatchReleased',
                data: { ...ids, markId: m.markId, transactionId, reason: 'transaction-deleted' },
              },
            ]
          : [],
      );
    }
    case 'RecordPreEmiInterest': {
      const { markId, date, amount } = command.data;
      assertPastDate('date', date, now);
      // Interest runs on what was disbursed: none is paid before the loan starts.
      if (date < loan.details.startDate)
        throw loanChangeError('date', M.dateBeforeStart(loan.details.startDate));
      if (!isAmount(amount)) throw loanChangeError('amount', M.amountInvalid);
      return [{ type: 'PreEmiInterestPaid', data: { ...ids, markId, date, amount } }];
    }
    case 'CompleteConstruction': {
      const { date } = command.data;
      assertPastDate('date', date, now);
      if (!isIsoDate(date) || date < loan.details.startDate)
        throw loanChangeError('date', M.constructionBeforeStart(loan.details.startDate));
      if (loan.payments.constructionCompletedOn === date) return [];
      return [{ type: 'ConstructionCompleted', data: { ...ids, date } }];
    }
    default:
      return assertNever(command);
  }
}
