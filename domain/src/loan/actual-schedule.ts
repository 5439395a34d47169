import { formatInr } from '../money/format';
import { divideRounded, type Paise } from '../money/paise';
import { ConflictError } from '../shared/errors';
import {
  loanChangeError,
  LOAN_CHANGE_MESSAGES as M,
  NegativeAmortisationError,
} from '../validation/loan-change';
import { LOAN_LIMITS } from '../validation/loan-limits';
import { addMonths, daysBetween, durationInMonths, isIsoDate } from './dates';
import { annualRateRatio, levelEmi, percentRatio, type Ratio, ratioToNumber } from './rate';
import type { ScheduleTerms } from './schedule-terms';

export type PrepaymentChoice = 'reduce-emi' | 'reduce-tenure';

/**
 * The borrower's options when a floating rate resets (RBI circular of 18 August 2023 on resetting
 * floating interest rates on EMI-based personal loans): a new EMI over the same tenure, the same
 * EMI over a new tenure, a combination (the borrower gives the new EMI and the tenure follows),
 * or a switch to a fixed rate (the given rate, the same tenure, the EMI recomputed).
 */
export type RateChangeOption = 'increase-emi' | 'extend-tenure' | 'combination' | 'switch-to-fixed';

/** Amounts in paise; rates in percent a year; dates YYYY-MM-DD. */
export type LoanChange =
  | Readonly<{ kind: 'prepayment'; date: string; amount: Paise; charge: Paise; choice: PrepaymentChoice }>
  | Readonly<{
      kind: 'rate-change';
      date: string;
      annualRatePercent: number;
      option: RateChangeOption;
      /** The EMI before GST the borrower chose; only for `combination`. */
      newEmi: Paise | null;
    }>
  | Readonly<{ kind: 'emi-override'; date: string; emi: Paise }>
  | Readonly<{ kind: 'foreclosure'; date: string; charge: Paise }>;

export type ActualScheduleRow = Readonly<{
  /**
   * `pre-emi-interest`: interest from disbursal to the start of the first EMI's month, when the
   * first EMI falls later than a month after the start date.
   */
  kind: 'emi' | 'prepayment' | 'foreclosure' | 'pre-emi-interest';
  /** EMI rows: the instalment number from 1. Other rows: the number of the last EMI before them. */
  paymentNumber: number;
  date: string;
  principal: Paise;
  interest: Paise;
  gst: Paise;
  /** Prepayment or foreclosure charge. */
  charge: Paise;
  /** principal + interest + gst + charge: what leaves the borrower's account. */
  amount: Paise;
  /** Balance left after this row. */
  remainingPrincipal: Paise;
  /** Annual rate in force for this row's interest. */
  annualRatePercent: number;
}>;

export type ActualScheduleTotals = Readonly<{
  principal: Paise;
  interest: Paise;
  gst: Paise;
  charges: Paise;
  amount: Paise;
  numberOfEmis: number;
}>;

export type ActualSchedule = Readonly<{
  rows: ActualScheduleRow[];
  totals: ActualScheduleTotals;
  /** The level EMI (before GST) in force after the last change. */
  emi: Paise;
  annualRatePercent: number;
  /** Date of the switch to a fixed rate, if any. */
  fixedRateSince: string | null;
  /** Date of the last row: the last EMI, or the foreclosure. */
  closedOn: string;
}>;

export type ActualScheduleOptions = Readonly<{
  /**
   * When the lender sets the first EMI later than a month after disbursal, the months in between
   * accrue broken-period (pre-EMI) interest; Kosh's loan form has no such field yet, so by
   * default the first EMI falls one month after the start date and there is none.
   */
  firstEmiDate?: string;
}>;

/**
 * An annual rate, an exact fraction of the percent as entered (rate.ts) so every rounding is
 * exact, with the divisors of a month's and a day's interest computed once per rate.
 */
type Rate = Readonly<{ ratio: Ratio; monthlyDivisor: bigint; dailyDivisor: bigint }>;

const rateOf = (ratio: Ratio): Rate => ({
  ratio,
  monthlyDivisor: ratio.denominator * 1200n,
  dailyDivisor: ratio.denominator * 36_500n,
});

const monthlyInterest = (balance: bigint, annual: Rate): bigint =>
  divideRounded(balance * annual.ratio.numerator, annual.monthlyDivisor);

/**
 * Interest on `balance` for `days` days, actual/365 fixed: Indian lenders accrue interest on a
 * daily reducing balance over a 365-day year (the rupee market convention, also in leap years),
 * so a foreclosure letter's interest figure agrees with this to the paisa.
 */
function accruedInterest(balance: bigint, annual: Rate, days: number): bigint {
  return divideRounded(balance * annual.ratio.numerator * BigInt(days), annual.dailyDivisor);
}

const ZERO: Ratio = { numerator: 0n, denominator: 1n };

const isPaise = (value: number, min: number): boolean => Number.isSafeInteger(value) && value >= min;

/**
 * Instalments needed to repay `balance` at a level `emi`, the last one taking what is left; the
 * same month-by-month arithmetic as the schedule itself, so it never disagrees with it by a row.
 * Null past `limit`.
 */
function instalmentsToRepay(balance: bigint, annual: Rate, emi: bigint, limit: number): number | null {
  let left = balance;
  for (let count = 1; count <= limit; count++) {
    const principal = emi - monthlyInterest(left, annual);
    if (principal >= left) return count;
    left -= principal;
  }
  return null;
}

/**
 * The schedule a loan actually follows: the contract's monthly reducing-balance schedule (which
 * `generateSchedule` shows; an EMI rounded down to the month's interest gets a paisa more, and a
 * rounded-up EMI that repays early ends the loan there), then each change in date order. Rows
 * before a change stay (`assertPastUnchanged`); rows from it are regenerated under the choice.
 * EMIs due on a change's date are paid before the change. A rate change applies from the next
 * EMI for its whole month. A prepayment is principal, paid with the interest it accrued since the
 * last EMI (actual/365); a foreclosure pays the whole outstanding principal with its accrued
 * interest. GST, when the loan has it, is charged on every row's interest. The balance ends at
 * exactly 0 and the principal parts add up to the principal.
 *
 * Throws a `ValidationError` (422) for a change that cannot apply, and a
 * `NegativeAmortisationError` for an EMI that does not cover the month's interest.
 */
export function actualSchedule(
  terms: ScheduleTerms,
  changes: readonly LoanChange[],
  options: ActualScheduleOptions = {},
): ActualSchedule {
  const months = durationInMonths(terms.duration, terms.isDurationYearly);
  if (!Number.isInteger(months) || months < 1)
    throw new RangeError(`Not a whole number of months: ${months}`);
  const maxInstalments = LOAN_LIMITS.durationMonthsMax;
  const { firstEmiDate } = options;
  if (
    firstEmiDate !== undefined &&
    !(isIsoDate(firstEmiDate) && firstEmiDate >= addMonths(terms.startDate, 1))
  )
    throw loanChangeError('firstEmiDate', M.firstEmiDateInvalid);
  const emiDate = (n: number) =>
    firstEmiDate === undefined ? addMonths(terms.startDate, n) : addMonths(firstEmiDate, n - 1);

  const gstPercent = terms.hasGst ? percentRatio(terms.gstPercentage) : ZERO;
  const gstDivisor = gstPercent.denominator * 100n;
  let annual = rateOf(annualRateRatio(terms.interestRate, terms.isInterestRateYearly));
  let annualPercent = ratioToNumber(annual.ratio);
  let balance = BigInt(terms.principalAmount);
  let emi = 0n;
  let lastNumber = months;
  let next = 1;
  /** Where the interest of the next EMI starts running. */
  let periodStart = terms.startDate;
  let fixedRateSince: string | null = null;
  let foreclosedOn: string | null = null;
  const rows: ActualScheduleRow[] = [];

  const push = (
    kind: ActualScheduleRow['kind'],
    date: string,
    principal: bigint,
    interest: bigint,
    charge: bigint,
  ) => {
    const gst = divideRounded(interest * gstPercent.numerator, gstDivisor);
    balance -= principal;
    rows.push({
      kind,
      paymentNumber: kind === 'emi' ? next : next - 1,
      date,
      principal: Number(principal),
      interest: Number(interest),
      gst: Number(gst),
      charge: Number(charge),
      amount: Number(principal + interest + gst + charge),
      remainingPrincipal: Number(balance),
      annualRatePercent: annualPercent,
    });
  };
  const payEmi = () => {
    const interest = monthlyInterest(balance, annual);
    const due = emi - interest;
    const principal = next === lastNumber || due > balance ? balance : due;
    const date = emiDate(next);
    push('emi', date, principal, interest, 0n);
    periodStart = date;
    if (balance === 0n) lastNumber = next;
    next++;
  };
  /**
   * Sets `newEmi` and the tenure it needs (at most `cap` instalments, the last taking what is
   * left), refusing an EMI that does not cover the month's interest.
   */
  const keepEmi = (newEmi: bigint, field: string, message: typeof M.emiBelowInterest, cap = Infinity) => {
    const interest = monthlyInterest(balance, annual);
    if (newEmi <= interest) {
      throw new NegativeAmortisationError(
        [{ field, message: message(formatInr(Number(newEmi)), formatInr(Number(interest))) }],
        Number(newEmi),
        Number(interest),
      );
    }
    const limit = maxInstalments - (next - 1);
    const count =
      instalmentsToRepay(balance, annual, newEmi, Math.min(limit, cap)) ?? (cap <= limit ? cap : null);
    if (count === null) throw loanChangeError(field, M.tenureTooLong(maxInstalments));
    emi = newEmi;
    lastNumber = next - 1 + count;
  };
  /**
   * The level EMI over `count` instalments. On paisa-sized EMIs rounding can leave it equal to
   * the month's interest; a paisa more keeps every instalment repaying principal.
   */
  const levelOver = (count: number) => {
    const level = BigInt(levelEmi(Number(balance), annual.ratio, count));
    const interest = monthlyInterest(balance, annual);
    emi = level > interest ? level : interest + 1n;
  };
  /** Instalments the plan still has: the planned ones, or fewer where rounding ends it early. */
  const remainingInstalments = () =>
    Math.min(
      lastNumber - next + 1,
      instalmentsToRepay(balance, annual, emi, lastNumber - next + 1) ?? Infinity,
    );
  levelOver(months);

  if (firstEmiDate !== undefined) {
    const firstPeriodStart = addMonths(firstEmiDate, -1);
    const days = daysBetween(terms.startDate, firstPeriodStart);
    if (days > 0) push('pre-emi-interest', firstPeriodStart, 0n, accruedInterest(balance, annual, days), 0n);
    periodStart = firstPeriodStart;
  }

  const earliest = periodStart;
  let previousDate = earliest;
  for (const change of changes) {
    if (!isIsoDate(change.date)) throw loanChangeError('date', M.dateInvalid);
    if (change.date < earliest) throw loanChangeError('date', M.dateBeforeStart(earliest));
    if (change.date < previousDate) throw loanChangeError('date', M.changesOutOfOrder(previousDate));
    if (foreclosedOn !== null) throw loanChangeError('date', M.loanForeclosed(foreclosedOn));
    previousDate = change.date;
    while (balance > 0n && emiDate(next) <= change.date) payEmi();
    if (balance === 0n) throw loanChangeError('date', M.loanRepaid(emiDate(lastNumber)));

    switch (change.kind) {
      case 'prepayment': {
        if (!isPaise(change.amount, 1)) throw loanChangeError('amount', M.amountInvalid);
        if (!isPaise(change.charge, 0)) throw loanChangeError('charge', M.chargeInvalid);
        const amount = BigInt(change.amount);
        if (amount >= balance) {
          throw loanChangeError(
            'amount',
            M.prepaymentNotBelowOutstanding(formatInr(change.amount), formatInr(Number(balance))),
          );
        }
        const interest = accruedInterest(amount, annual, daysBetween(periodStart, change.date));
        const remaining = remainingInstalments();
        push('prepayment', change.date, amount, interest, BigInt(change.charge));
        if (change.choice === 'reduce-emi') {
          // Re-rounding a tiny EMI could land a paisa above the old one; the old one still repays.
          const previous = emi;
          levelOver(remaining);
          if (emi > previous) emi = previous;
          lastNumber = next - 1 + remaining;
        } else {
          // The contract's rounded EMI can leave a larger last instalment; the cap keeps a
          // reduce-tenure prepayment from ever adding a month because of it.
          keepEmi(emi, 'amount', M.emiBelowInterest, remaining);
        }
        break;
      }
      case 'rate-change': {
        if (fixedRateSince !== null) throw loanChangeError('option', M.fixedRateDoesNotReset(fixedRateSince));
        const rate = change.annualRatePercent;
        if (
          !(
            Number.isFinite(rate) &&
            rate >= LOAN_LIMITS.interestRateMin &&
            rate <= LOAN_LIMITS.interestRateMax
          )
        )
          throw loanChangeError('annualRatePercent', M.rateInvalid);
        const remaining = remainingInstalments();
        const rose = rate > annualPercent;
        annualPercent = rate;
        annual = rateOf(percentRatio(rate));
        switch (change.option) {
          case 'increase-emi':
          case 'switch-to-fixed': {
            const previous = emi;
            levelOver(remaining);
            lastNumber = next - 1 + remaining;
            // After a reduce-tenure part-payment the plan can end on a small last instalment;
            // levelled over the same count, the EMI would then fall although the rate rose
            // (₹20,758.36 to ₹20,443.53 at 9% to 9.5%). A rise never lowers the EMI: the old one
            // stays, and since it exceeds the level EMI it repays within the same tenure.
            if (rose && emi < previous) keepEmi(previous, 'option', M.keptEmiBelowInterest, remaining);
            if (change.option === 'switch-to-fixed') fixedRateSince = change.date;
            break;
          }
          case 'extend-tenure':
            keepEmi(emi, 'option', M.keptEmiBelowInterest);
            break;
          case 'combination':
            if (change.newEmi === null) throw loanChangeError('newEmi', M.newEmiRequired);
            if (!isPaise(change.newEmi, 1)) throw loanChangeError('newEmi', M.emiInvalid);
            keepEmi(BigInt(change.newEmi), 'newEmi', M.emiBelowInterest);
            break;
          default:
            return unknownChange(change.option);
        }
        break;
      }
      case 'emi-override':
        if (!isPaise(change.emi, 1)) throw loanChangeError('emi', M.emiInvalid);
        keepEmi(BigInt(change.emi), 'emi', M.emiBelowInterest);
        break;
      case 'foreclosure': {
        if (!isPaise(change.charge, 0)) throw loanChangeError('charge', M.chargeInvalid);
        const interest = accruedInterest(balance, annual, daysBetween(periodStart, change.date));
        push('foreclosure', change.date, balance, interest, BigInt(change.charge));
        foreclosedOn = change.date;
        break;
      }
      default:
        return unknownChange(change);
    }
  }
  while (balance > 0n) payEmi();

  const sum = (pick: (row: ActualScheduleRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  return {
    rows,
    totals: {
      principal: sum((row) => row.principal),
      interest: sum((row) => row.interest),
      gst: sum((row) => row.gst),
      charges: sum((row) => row.charge),
      amount: sum((row) => row.amount),
      numberOfEmis: rows.filter((row) => row.kind === 'emi').length,
    },
    emi: Number(emi),
    annualRatePercent: annualPercent,
    fixedRateSince,
    closedOn: rows[rows.length - 1]?.date ?? terms.startDate,
  };
}

/** A change kind or option from outside the type (a stored event of a newer shape). */
function unknownChange(value: never): never {
  throw loanChangeError('kind', `Unknown loan change: ${JSON.stringify(value)}`);
}

/** Every field of a row, for comparing two schedules. */
const rowKey = (row: ActualScheduleRow): string =>
  [
    row.kind,
    row.paymentNumber,
    row.date,
    row.principal,
    row.interest,
    row.gst,
    row.charge,
    row.amount,
    row.remainingPrincipal,
    row.annualRatePercent,
  ].join('|');

/**
 * Refuses a revision that would alter or drop a row dated before the change that made it: what
 * was due before a change is history, and a change only ever acts from its date on. `actualSchedule`
 * never does so; this guard keeps any future rule from silently rewriting the past.
 */
export function assertPastUnchanged(
  before: readonly ActualScheduleRow[],
  after: readonly ActualScheduleRow[],
  changeDate: string,
): void {
  const past = (rows: readonly ActualScheduleRow[]) =>
    rows.filter((row) => row.date < changeDate).map(rowKey);
  const was = past(before);
  const is = past(after);
  if (was.length !== is.length || was.some((key, i) => key !== is[i]))
    throw new ConflictError(M.pastChanged(changeDate), 'PAST_SCHEDULE_CHANGED');
}
