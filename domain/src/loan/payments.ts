import type { Paise } from '../money/paise';
import { withAbsent } from '../shared/field-table';
import { assertNever } from '../shared/messages';
import type { ActualScheduleRow } from './actual-schedule';
import type { LoanPaymentEvent, LoanStreamEvent } from './events';
import { LOAN_FIELDS } from './fields';

/**
 * What the borrower said about paying: each mark has an id so it can be undone. A `paid-up-to`
 * mark pays each of its EMIs on its own due date for its scheduled amount.
 */
export type EmiMark =
  | Readonly<{ kind: 'paid'; markId: string; paymentNumber: number; paidOn: string; amount: Paise }>
  | Readonly<{ kind: 'paid-up-to'; markId: string; upTo: string; paymentNumbers: readonly number[] }>
  | Readonly<{
      kind: 'matched';
      markId: string;
      paymentNumber: number;
      transactionId: string;
      paidOn: string;
      amount: Paise;
    }>
  | Readonly<{ kind: 'missed'; markId: string; paymentNumber: number }>
  | Readonly<{ kind: 'pre-emi-interest'; markId: string; date: string; amount: Paise }>;

/** A loan's marks and the date its house was completed (pre-EMI interest is deducted from then). */
export type LoanPayments = Readonly<{ marks: readonly EmiMark[]; constructionCompletedOn: string | null }>;

export const noPayments: LoanPayments = { marks: [], constructionCompletedOn: null };

/** The id a mark recorded before marks had ids gets: the same every time it is read. */
export const legacyMarkId = (loanId: string, paymentNumber: number, paidOn: string): string =>
  `${loanId}-${paymentNumber}-${paidOn}`;

/**
 * A stored loan event in today's shape: a loan created before a field was asked reads as its
 * `absent` value in `LOAN_FIELDS` (auto-debit and fee GST: on; its EMIs were counted paid on their
 * due dates, its APR always had the fee's GST); a paid mark without an id gets `legacyMarkId`, and one with a debit reads as a match.
 */
export function upcastLoanEvent<E extends LoanStreamEvent>(event: E): E | LoanStreamEvent {
  switch (event.type) {
    case 'LoanCreated': {
      const data = withAbsent(LOAN_FIELDS, event.data);
      return data === event.data ? event : { ...event, data };
    }
    case 'EmiMarkedPaid': {
      const d = event.data as Omit<typeof event.data, 'markId'> & { markId?: string };
      const markId = d.markId ?? legacyMarkId(d.loanId, d.paymentNumber, d.paidOn);
      if (d.transactionId !== null && d.transactionId !== undefined) {
        const { loanId, userId, recordedAt, paymentNumber, paidOn, amount, transactionId } = d;
        const data = { loanId, userId, recordedAt, markId, paymentNumber, transactionId, paidOn, amount };
        return { ...event, type: 'EmiMatched', data };
      }
      if (d.markId !== undefined) return event;
      return { ...event, data: { ...d, markId, transactionId: null } };
    }
    default:
      return event;
  }
}

/** The marks after one payment event (an undo or release of an unknown mark changes nothing). */
export function evolvePayments(payments: LoanPayments, event: LoanPaymentEvent): LoanPayments {
  const add = (mark: EmiMark) =>
    payments.marks.some((m) => m.markId === mark.markId)
      ? payments
      : { ...payments, marks: [...payments.marks, mark] };
  switch (event.type) {
    case 'EmiMarkedPaid':
      return add({
        kind: 'paid',
        markId: event.data.markId,
        paymentNumber: event.data.paymentNumber,
        paidOn: event.data.paidOn,
        amount: event.data.amount,
      });
    case 'EmisMarkedPaidUpTo':
      return add({
        kind: 'paid-up-to',
        markId: event.data.markId,
        upTo: event.data.upTo,
        paymentNumbers: event.data.paymentNumbers,
      });
    case 'EmiMatched': {
      const { markId, paymentNumber, transactionId, paidOn, amount } = event.data;
      return add({ kind: 'matched', markId, paymentNumber, transactionId, paidOn, amount });
    }
    case 'EmiMarkedMissed':
      return add({ kind: 'missed', markId: event.data.markId, paymentNumber: event.data.paymentNumber });
    case 'PreEmiInterestPaid':
      return add({
        kind: 'pre-emi-interest',
        markId: event.data.markId,
        date: event.data.date,
        amount: event.data.amount,
      });
    case 'EmiMarkUndone':
    case 'EmiMatchReleased': {
      const { markId } = event.data;
      return { ...payments, marks: payments.marks.filter((m) => m.markId !== markId) };
    }
    case 'ConstructionCompleted':
      return { ...payments, constructionCompletedOn: event.data.date };
    default:
      return assertNever(event);
  }
}

export const isPaymentEvent = (event: LoanStreamEvent): event is LoanPaymentEvent =>
  PAYMENT_EVENT_TYPES.has(event.type);

const PAYMENT_EVENT_TYPES = new Set<string>([
  'EmiMarkedPaid',
  'EmisMarkedPaidUpTo',
  'EmiMatched',
  'EmiMarkedMissed',
  'EmiMarkUndone',
  'EmiMatchReleased',
  'PreEmiInterestPaid',
  'ConstructionCompleted',
]);

/** One payment towards an EMI. */
export type EmiPayment = Readonly<{
  markId: string;
  via: 'paid' | 'paid-up-to' | 'matched';
  paidOn: string;
  amount: Paise;
  transactionId: string | null;
}>;

/**
 * Where an EMI stands on `today`. `paid`: what was marked or matched covers it; `auto-debited`:
 * nothing was marked, the loan's EMIs are auto-debited and its date has come, so it counts as
 * paid on its due date; `partly-paid`: payments short of it (the remainder is overdue once its
 * date has passed); `missed`: marked bounced and not covered since; `overdue`: past, not
 * auto-debited, nothing paid; `due`: not yet.
 */
export type EmiStanding = Readonly<{
  paymentNumber: number;
  dueDate: string;
  amount: Paise;
  state: 'paid' | 'auto-debited' | 'partly-paid' | 'missed' | 'overdue' | 'due';
  /** What counts as paid (the EMI's amount when auto-debited). */
  paid: Paise;
  /** What is still to pay (0 when covered). */
  remainder: Paise;
  /** The day the EMI was covered: its last payment, or its due date when auto-debited; else null. */
  paidOn: string | null;
  overdue: boolean;
  payments: readonly EmiPayment[];
  /** The id of its missed mark, if marked bounced. */
  missedMarkId: string | null;
}>;

type EmiRow = Pick<ActualScheduleRow, 'kind' | 'paymentNumber' | 'date' | 'amount'>;

/** Payments marked or matched for each EMI number (a paid-up-to mark pays each row's amount on its date). */
export function paymentsByEmi(rows: readonly EmiRow[], marks: readonly EmiMark[]): Map<number, EmiPayment[]> {
  const byEmi = new Map<number, EmiPayment[]>();
  if (marks.length === 0) return byEmi;
  let due: Map<number, EmiRow> | undefined;
  const push = (n: number, payment: EmiPayment) => {
    const payments = byEmi.get(n);
    if (payments) payments.push(payment);
    else byEmi.set(n, [payment]);
  };
  for (const mark of marks) {
    switch (mark.kind) {
      case 'paid':
        push(mark.paymentNumber, { ...pick(mark), via: 'paid', transactionId: null });
        break;
      case 'matched':
        push(mark.paymentNumber, { ...pick(mark), via: 'matched', transactionId: mark.transactionId });
        break;
      case 'paid-up-to':
        due ??= new Map(rows.filter((r) => r.kind === 'emi').map((r) => [r.paymentNumber, r]));
        for (const n of mark.paymentNumbers) {
          const row = due.get(n);
          if (row)
            push(n, {
              markId: mark.markId,
              via: 'paid-up-to',
              paidOn: row.date,
              amount: row.amount,
              transactionId: null,
            });
        }
        break;
      case 'missed':
      case 'pre-emi-interest':
        break;
      default:
        assertNever(mark);
    }
  }
  return byEmi;
}

const pick = (mark: Readonly<{ markId: string; paidOn: string; amount: Paise }>) => ({
  markId: mark.markId,
  paidOn: mark.paidOn,
  amount: mark.amount,
});

/** No payments (shared: a standing's payments are never changed). */
const NO_PAYMENTS: readonly EmiPayment[] = Object.freeze([]);

const byPaidOn = (a: EmiPayment, b: EmiPayment) => (a.paidOn < b.paidOn ? -1 : a.paidOn > b.paidOn ? 1 : 0);

/**
 * The standing of every EMI of `rows` on `today` (YYYY-MM-DD, India). Every read of a schedule
 * judges each of its rows (600 for a 50-year loan), so each standing is one object of one shape.
 */
export function emiStandings(
  rows: readonly EmiRow[],
  marks: readonly EmiMark[],
  emisAutoDebited: boolean,
  today: string,
): EmiStanding[] {
  const byEmi = paymentsByEmi(rows, marks);
  const missed = new Map<number, string>();
  for (const mark of marks) if (mark.kind === 'missed') missed.set(mark.paymentNumber, mark.markId);
  const standings: EmiStanding[] = [];
  for (const row of rows) {
    if (row.kind !== 'emi') continue;
    const own = byEmi.get(row.paymentNumber);
    const payments = own === undefined ? NO_PAYMENTS : own.length > 1 ? [...own].sort(byPaidOn) : own;
    const missedMarkId = missed.get(row.paymentNumber) ?? null;
    let state: EmiStanding['state'];
    let paid = 0;
    let paidOn: string | null = null;
    let overdue = false;
    if (payments.length === 0 && missedMarkId === null && emisAutoDebited && row.date <= today) {
      state = 'auto-debited';
      paid = row.amount;
      paidOn = row.date;
    } else {
      for (const payment of payments) {
        paid += payment.amount;
        if (paidOn === null && paid >= row.amount) paidOn = payment.paidOn;
      }
      const past = row.date < today;
      if (row.amount - paid <= 0) state = 'paid';
      else {
        paidOn = null;
        if (paid > 0) {
          state = 'partly-paid';
          overdue = past;
        } else if (missedMarkId !== null) {
          state = 'missed';
          overdue = true;
        } else if (past && !emisAutoDebited) {
          state = 'overdue';
          overdue = true;
        } else state = 'due';
      }
    }
    standings.push({
      paymentNumber: row.paymentNumber,
      dueDate: row.date,
      amount: row.amount,
      payments,
      missedMarkId,
      state,
      paid,
      remainder: Math.max(0, row.amount - paid),
      paidOn,
      overdue,
    });
  }
  return standings;
}
