/**
 * The spec's loan limits (section 5): checked by the loan rules (`loan.ts`) and relied on by the
 * schedule code (`loan/actual-schedule.ts`, `loan/calculator.ts`), which imports them from here
 * and not from the rules (those import the loan's event types).
 */
export const LOAN_LIMITS = {
  principalMin: 10_000,
  principalMax: 10_000_000_000,
  interestRateMin: 0.1,
  interestRateMax: 50,
  durationMonthsMax: 600,
  durationYearsMax: 50,
  processingFeeMax: 100_000_000,
  gstMax: 100,
  startDateFloor: '2000-01-01',
  /** An edit may move the start into the future (spec), but a schedule must end in a four-digit year. */
  startDateCeiling: '2099-12-31',
  /** Bank and loan type ids are PostgreSQL `integer`s. */
  idMax: 2_147_483_647,
  accountNumberMin: 5,
  accountNumberMax: 30,
  shortDetailMax: 200,
  defaultGstPercentage: 18,
} as const;
