import type { Paise } from '../money/paise';
import type { DomainEvent } from '../shared/messages';

/** What a user records about a loan. Amounts in paise; rates and GST in percent. */
export type LoanDetails = Readonly<{
  bankId: number;
  loanTypeId: number;
  accountNumber: string;
  shortDetail: string | null;
  principalAmount: Paise;
  /** Percent per year when `isInterestRateYearly`, else percent per month. */
  interestRate: number;
  isInterestRateYearly: boolean;
  /** Years when `isDurationYearly`, else months. */
  duration: number;
  isDurationYearly: boolean;
  /** YYYY-MM-DD. */
  startDate: string;
  /** YYYY-MM-DD: start date plus the duration (same day of month, clamped to the month's end). */
  endDate: string;
  processingFee: Paise;
  hasGst: boolean;
  /** Percent charged on each instalment's interest; 0 when `hasGst` is off. */
  gstPercentage: number;
}>;

/** The inputs a schedule was computed from (a change to any of them makes a new version). */
export type ScheduleTerms = Readonly<{
  principalAmount: Paise;
  interestRate: number;
  isInterestRateYearly: boolean;
  duration: number;
  isDurationYearly: boolean;
  startDate: string;
  hasGst: boolean;
  gstPercentage: number;
}>;

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

export const loanStreamId = (loanId: string): string => `loan-${loanId}`;
