import type { Paise } from '../money/paise';
import type { DomainEvent } from '../shared/messages';
import type {
  ActualScheduleRow,
  ActualScheduleTotals,
  LoanChange,
  PrepaymentChoice,
  RateChangeOption,
} from './actual-schedule';
import type { LoanDetails } from './fields';
import type { ScheduleTerms } from './schedule-terms';

export type { LoanDetails } from './fields';
export type { ScheduleTerms };

export type ScheduleRow = Readonly<{
  /** 1-based. */
  paymentNumber: number;
  /** YYYY-MM-DD: `paymentNumber` months after the start date, day clamped to the month's end. */
  emiDate: string;
  principal: Paise;
  interest: Paise;
  gst: Paise;
  /** principal + interest + gst. */
  emi: Paise;
  /** Balance left after this payment; 0 after the last. */
  remainingPrincipal: Paise;
}>;

export type ScheduleTotals = Readonly<{
  principal: Paise;
  interest: Paise;
  gst: Paise;
  emi: Paise;
  numberOfPayments: number;
}>;

export type LoanCreated = DomainEvent<
  'LoanCreated',
  LoanDetails & Readonly<{ loanId: string; userId: string; createdAt: string }>
>;

/** `changes` holds the new value of every field that changed, `previous` their old values. */
export type LoanUpdated = DomainEvent<
  'LoanUpdated',
  Readonly<{
    loanId: string;
    userId: string;
    changes: Partial<LoanDetails>;
    previous: Partial<LoanDetails>;
    updatedAt: string;
  }>
>;

export type LoanDeleted = DomainEvent<
  'LoanDeleted',
  Readonly<{ loanId: string; userId: string; deletedAt: string }>
>;

/**
 * A complete repayment schedule. Versions count from 1 per loan; each new version replaces the
 * previous one for reading, and every version stays in the log.
 */
export type ScheduleGenerated = DomainEvent<
  'ScheduleGenerated',
  Readonly<{
    loanId: string;
    userId: string;
    version: number;
    reason: 'created' | 'updated' | 'regenerated';
    terms: ScheduleTerms;
    rows: readonly ScheduleRow[];
    totals: ScheduleTotals;
    generatedAt: string;
  }>
>;

export type LoanEvent = LoanCreated | LoanUpdated | LoanDeleted | ScheduleGenerated;

export const loanEventTypes = ['LoanCreated', 'LoanUpdated', 'LoanDeleted', 'ScheduleGenerated'] as const;

type LoanChangeData<Data> = Readonly<{ loanId: string; userId: string; recordedAt: string } & Data>;

/** A part-payment of principal on `date`, with the borrower's choice for the rest of the loan. */
export type LoanPrepaid = DomainEvent<
  'LoanPrepaid',
  LoanChangeData<{ date: string; amount: Paise; charge: Paise; choice: PrepaymentChoice }>
>;

/** A new annual rate from `date` with the reset option taken; `newEmi` only for `combination`. */
export type LoanRateChanged = DomainEvent<
  'LoanRateChanged',
  LoanChangeData<{ date: string; annualRatePercent: number; option: RateChangeOption; newEmi: Paise | null }>
>;

/** The EMI (before GST) the lender actually debits from `date`, when it rounds differently. */
export type EmiOverridden = DomainEvent<'EmiOverridden', LoanChangeData<{ date: string; emi: Paise }>>;

/**
 * The loan closed on `date`; `settlement` is what the borrower paid to close it: `amount` is the
 * principal, interest, GST and charge less `advanceCredit`, the EMIs paid before the foreclosure
 * that would have fallen due after it (absent on foreclosures recorded before it was credited).
 */
export type LoanForeclosed = DomainEvent<
  'LoanForeclosed',
  LoanChangeData<{
    date: string;
    charge: Paise;
    settlement: Readonly<{
      principal: Paise;
      interest: Paise;
      gst: Paise;
      charge: Paise;
      amount: Paise;
      advanceCredit?: Paise;
      advanceEmis?: readonly number[];
    }>;
  }>
>;

/**
 * EMI `paymentNumber` paid by hand on `paidOn`. `markId` names the mark so it can be undone; a
 * stored one without it gets `legacyMarkId` (upcast). A stored one with a `transactionId` was a
 * match to a debit and reads as `EmiMatched` (upcast); new ones always carry null.
 */
export type EmiMarkedPaid = DomainEvent<
  'EmiMarkedPaid',
  LoanChangeData<{
    markId: string;
    paymentNumber: number;
    paidOn: string;
    amount: Paise;
    transactionId: string | null;
  }>
>;

/** Every EMI due on or before `upTo` not yet covered (`paymentNumbers`), paid on its own due date. */
export type EmisMarkedPaidUpTo = DomainEvent<
  'EmisMarkedPaidUpTo',
  LoanChangeData<{ markId: string; upTo: string; paymentNumbers: readonly number[] }>
>;

/** A debit of the transaction book matched to EMI `paymentNumber`: what was actually paid, and when. */
export type EmiMatched = DomainEvent<
  'EmiMatched',
  LoanChangeData<{
    markId: string;
    paymentNumber: number;
    transactionId: string;
    paidOn: string;
    amount: Paise;
  }>
>;

/** EMI `paymentNumber` bounced: it was not debited on its due date. */
export type EmiMarkedMissed = DomainEvent<
  'EmiMarkedMissed',
  LoanChangeData<{ markId: string; paymentNumber: number }>
>;

/** A paid, paid-up-to, missed or pre-EMI interest mark taken back. */
export type EmiMarkUndone = DomainEvent<'EmiMarkUndone', LoanChangeData<{ markId: string }>>;

/** A match taken back by the user, or because its debit was deleted from the transaction book. */
export type EmiMatchReleased = DomainEvent<
  'EmiMatchReleased',
  LoanChangeData<{ markId: string; transactionId: string; reason: 'undone' | 'transaction-deleted' }>
>;

/** Pre-EMI (pre-construction) interest paid on `date`: deductible in fifths from construction's completion. */
export type PreEmiInterestPaid = DomainEvent<
  'PreEmiInterestPaid',
  LoanChangeData<{ markId: string; date: string; amount: Paise }>
>;

/** The house was completed on `date`: the first of the five years pre-EMI interest is deducted in. */
export type ConstructionCompleted = DomainEvent<'ConstructionCompleted', LoanChangeData<{ date: string }>>;

/** The payment events: marks and matches of EMIs, pre-EMI interest, construction's completion. */
export type LoanPaymentEvent =
  | EmiMarkedPaid
  | EmisMarkedPaidUpTo
  | EmiMatched
  | EmiMarkedMissed
  | EmiMarkUndone
  | EmiMatchReleased
  | PreEmiInterestPaid
  | ConstructionCompleted;

/**
 * The schedule the loan actually follows after its changes (see `actualSchedule`). It shares the
 * version sequence of `ScheduleGenerated`: the newest version of either is the loan's schedule.
 */
export type ScheduleRevised = DomainEvent<
  'ScheduleRevised',
  Readonly<{
    loanId: string;
    userId: string;
    version: number;
    reason: 'prepaid' | 'rate-changed' | 'emi-overridden' | 'foreclosed' | 'regenerated';
    terms: ScheduleTerms;
    changes: readonly LoanChange[];
    rows: readonly ActualScheduleRow[];
    totals: ActualScheduleTotals;
    generatedAt: string;
  }>
>;

/**
 * Events of a loan's life after it starts. Kept out of `LoanEvent` until the projections
 * subscribe to them, so today's read models and their exhaustive folds stay as they are.
 */
export type LoanChangeEvent =
  | LoanPrepaid
  | LoanRateChanged
  | EmiOverridden
  | LoanForeclosed
  | LoanPaymentEvent
  | ScheduleRevised;

export const loanChangeEventTypes = [
  'LoanPrepaid',
  'LoanRateChanged',
  'EmiOverridden',
  'LoanForeclosed',
  'EmiMarkedPaid',
  'EmisMarkedPaidUpTo',
  'EmiMatched',
  'EmiMarkedMissed',
  'EmiMarkUndone',
  'EmiMatchReleased',
  'PreEmiInterestPaid',
  'ConstructionCompleted',
  'ScheduleRevised',
] as const;

/** Everything a loan stream holds. */
export type LoanStreamEvent = LoanEvent | LoanChangeEvent;

/** Every event type of a loan stream: what the loan, schedule and ledger read models fold. */
export const loanStreamEventTypes = [...loanEventTypes, ...loanChangeEventTypes] as const;

export const loanStreamId = (loanId: string): string => `loan-${loanId}`;
