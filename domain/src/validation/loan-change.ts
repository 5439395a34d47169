/**
 * Messages for the changes a loan goes through after it starts (prepayments, rate resets, EMI
 * overrides, foreclosure, paid EMIs), written as the API's 422 should read them. Amounts arrive
 * already formatted in rupees (`formatInr`).
 */

import type { Paise } from '../money/paise';
import { type FieldError, ValidationError } from '../shared/errors';

export const LOAN_CHANGE_MESSAGES = {
  dateInvalid: 'Please enter a valid date',
  dateInFuture: 'The date cannot be in the future',
  /** The start date, or with a later first EMI the start of its month (pre-EMI interest runs until then). */
  dateBeforeStart: (startDate: string) => `The date cannot be before the loan's start date (${startDate})`,
  changesOutOfOrder: (previous: string) => `Changes must be in date order: this one is before ${previous}`,
  loanRepaid: (lastEmiDate: string) =>
    `The loan was fully repaid on ${lastEmiDate}; nothing can change after that`,
  loanForeclosed: (date: string) => `The loan was foreclosed on ${date}; nothing can change after that`,
  amountInvalid: 'Amount must be more than ₹0 with at most 2 decimal places',
  chargeInvalid: 'Charge cannot be negative and can have at most 2 decimal places',
  prepaymentNotBelowOutstanding: (amount: string, outstanding: string) =>
    `The prepayment of ${amount} is not less than the outstanding principal of ${outstanding}; record a foreclosure to close the loan`,
  rateInvalid: 'Interest rate must be between 0.1% and 50%',
  rateTooPrecise: 'Interest rate can have at most 15 significant digits',
  fixedRateDoesNotReset: (since: string) =>
    `The loan switched to a fixed rate on ${since}; a fixed rate does not reset`,
  newEmiRequired: 'Enter the new EMI for a combination of a higher EMI and a longer tenure',
  emiInvalid: 'EMI must be more than ₹0 with at most 2 decimal places',
  emiBelowInterest: (emi: string, interest: string) =>
    `The EMI of ${emi} does not cover the monthly interest of ${interest}; enter an EMI above ${interest}`,
  keptEmiBelowInterest: (emi: string, interest: string) =>
    `The current EMI of ${emi} does not cover the new monthly interest of ${interest}, so extending the tenure cannot repay the loan; choose to increase the EMI`,
  tenureTooLong: (limit: number) =>
    `At this EMI the loan would need more than ${limit} instalments (${limit / 12} years); raise the EMI`,
  firstEmiDateInvalid: 'The first EMI cannot fall less than a month after the start date',
  emiNumberUnknown: (paymentNumber: number) =>
    `There is no EMI number ${paymentNumber} in this loan's schedule`,
  emiAlreadyPaid: (paymentNumber: number, paidOn: string) =>
    `EMI ${paymentNumber} was already marked paid on ${paidOn}`,
  pastChanged: (date: string) =>
    `This change would alter instalments due before ${date}; nothing was recorded`,
  financialYearInvalid: 'Financial year must be written like 2025-26',
  emiAlreadyCovered: (paymentNumber: number) => `EMI ${paymentNumber} is already paid in full`,
  emiNotDueYet: (paymentNumber: number, dueDate: string) =>
    `EMI ${paymentNumber} falls due on ${dueDate}; it cannot have bounced before then`,
  emiAlreadyMissed: (paymentNumber: number) => `EMI ${paymentNumber} is already marked missed`,
  nothingToMarkUpTo: (upTo: string) => `Every EMI due on or before ${upTo} is already marked`,
  matchAmountDiffers: (paymentNumber: number, debit: string, emi: string) =>
    `The debit of ${debit} differs from EMI ${paymentNumber}'s amount of ${emi}; confirm to match it anyway`,
  debitAlreadyMatched: 'This debit is already matched to an EMI',
  markUnknown: 'There is no such mark on this loan',
  constructionBeforeStart: (startDate: string) =>
    `Construction cannot be completed before the loan's start date (${startDate})`,
  advanceExceedsSettlement: (credit: string, total: string) =>
    `The EMIs paid in advance (${credit}) exceed what closing the loan costs on this date (${total}); choose a later date`,
} as const;

/** One rule broken: a 422 with this field's message. */
export function loanChangeError(field: string, message: string): ValidationError {
  return new ValidationError([{ field, message }]);
}

/**
 * An EMI that would not cover the month's interest: the balance would grow (negative
 * amortisation), so the change is refused. Carries the figures for the form.
 */
export class NegativeAmortisationError extends ValidationError {
  constructor(
    errors: FieldError[],
    readonly emi: Paise,
    readonly monthlyInterest: Paise,
  ) {
    super(errors);
  }
}
