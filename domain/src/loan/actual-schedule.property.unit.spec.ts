import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../shared/errors';
import { NegativeAmortisationError } from '../validation/loan-change';
import { type ActualSchedule, actualSchedule, assertPastUnchanged, type LoanChange } from './actual-schedule';
import { addMonths } from './dates';
import type { ScheduleTerms } from './events';
import { generateSchedule } from './schedule';

/** The whole allowed range (spec section 9), the hard corner of tiny EMIs at high rates included. */
const terms = fc.record({
  principalAmount: fc.integer({ min: 10_000, max: 10_000_000_000 }),
  interestRate: fc.integer({ min: 100, max: 50_000 }).map((thousandths) => thousandths / 1000),
  isInterestRateYearly: fc.constant(true),
  duration: fc.integer({ min: 1, max: 600 }),
  isDurationYearly: fc.constant(false),
  startDate: fc
    .date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2099-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString().slice(0, 10)),
  hasGst: fc.boolean(),
  gstPercentage: fc.integer({ min: 0, max: 10_000 }).map((hundredths) => hundredths / 100),
}) satisfies fc.Arbitrary<ScheduleTerms>;

/** A change described relative to the loan, turned into figures once the balance at its date is known. */
type ChangeSpec = Readonly<{
  monthOffset: number;
  dayInPeriod: number;
  kind: 'prepayment' | 'rate-change' | 'emi-override';
  share: number;
  choice: 'reduce-emi' | 'reduce-tenure';
  rate: number;
  option: 'increase-emi' | 'extend-tenure' | 'combination';
  emiFactor: number;
}>;

const changeSpec: fc.Arbitrary<ChangeSpec> = fc.record({
  monthOffset: fc.integer({ min: 0, max: 359 }),
  dayInPeriod: fc.integer({ min: 0, max: 27 }),
  kind: fc.constantFrom('prepayment', 'rate-change', 'emi-override'),
  share: fc.double({ min: 0.001, max: 0.999, noNaN: true }),
  choice: fc.constantFrom('reduce-emi', 'reduce-tenure'),
  rate: fc.integer({ min: 100, max: 30_000 }).map((thousandths) => thousandths / 1000),
  option: fc.constantFrom('increase-emi', 'extend-tenure', 'combination'),
  emiFactor: fc.double({ min: 0.5, max: 3, noNaN: true }),
});

function plusDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year!, month! - 1, day! + days)).toISOString().slice(0, 10);
}

/** Outstanding principal and the EMI in force just before `date`, from the schedule so far. */
function balanceBefore(schedule: ActualSchedule, principal: number, date: string): number {
  const paid = schedule.rows.filter((row) => row.date <= date);
  return paid.length === 0 ? principal : paid[paid.length - 1]!.remainingPrincipal;
}

/**
 * Builds changes one by one in date order, each sized against the balance at its date, and
 * keeps those the schedule accepts; refusals must be `ValidationError`s.
 */
function acceptedChanges(loan: ScheduleTerms, specs: readonly ChangeSpec[]): LoanChange[] {
  const accepted: LoanChange[] = [];
  const ordered = [...specs].sort((a, b) => a.monthOffset - b.monthOffset || a.dayInPeriod - b.dayInPeriod);
  for (const spec of ordered) {
    const date = plusDays(addMonths(loan.startDate, spec.monthOffset), spec.dayInPeriod);
    const current = actualSchedule(loan, accepted);
    if (date < (accepted[accepted.length - 1]?.date ?? loan.startDate)) continue;
    const balance = balanceBefore(current, loan.principalAmount, date);
    const change: LoanChange =
      spec.kind === 'prepayment'
        ? {
            kind: 'prepayment',
            date,
            amount: Math.max(1, Math.floor(balance * spec.share)),
            charge: 0,
            choice: spec.choice,
          }
        : spec.kind === 'rate-change'
          ? {
              kind: 'rate-change',
              date,
              annualRatePercent: spec.rate,
              option: spec.option,
              newEmi:
                spec.option === 'combination' ? Math.max(1, Math.round(current.emi * spec.emiFactor)) : null,
            }
          : { kind: 'emi-override', date, emi: Math.max(1, Math.round(current.emi * spec.emiFactor)) };
    try {
      actualSchedule(loan, [...accepted, change]);
      accepted.push(change);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
    }
  }
  return accepted;
}

describe('actual schedule properties', () => {
  // Every loan, the one whose rounded EMI does not exceed the first month's interest (₹100 over
  // 25 years at 50%) included: it carries a paisa more in both, so no month repays nothing.
  it('without changes is exactly the contract schedule, for every loan', () => {
    fc.assert(
      fc.property(terms, (loan) => {
        const contract = generateSchedule(loan);
        expect(contract.rows.every((row) => row.principal > 0)).toBe(true);
        const actual = actualSchedule(loan, []);
        expect(
          actual.rows.map((row) => [row.date, row.principal, row.interest, row.gst, row.remainingPrincipal]),
        ).toEqual(
          contract.rows.map((row) => [
            row.emiDate,
            row.principal,
            row.interest,
            row.gst,
            row.remainingPrincipal,
          ]),
        );
      }),
    );
  });

  it('after any prepayments and rate changes ends at exactly 0, the principal parts adding up to the principal, the balance never rising', () => {
    fc.assert(
      fc.property(terms, fc.array(changeSpec, { maxLength: 6 }), (loan, specs) => {
        const { rows, totals } = actualSchedule(loan, acceptedChanges(loan, specs));
        expect(rows[rows.length - 1]!.remainingPrincipal).toBe(0);
        expect(totals.principal).toBe(loan.principalAmount);
        let balance = loan.principalAmount;
        for (const row of rows) {
          expect(row.principal).toBeGreaterThanOrEqual(0);
          expect(row.remainingPrincipal).toBe(balance - row.principal);
          balance = row.remainingPrincipal;
          if (row.kind === 'emi') expect(row.principal).toBeGreaterThan(0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('never accepts an EMI that does not cover the month’s interest', () => {
    fc.assert(
      fc.property(
        terms,
        fc.array(changeSpec, { maxLength: 4 }),
        fc.integer({ min: 0, max: 359 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (loan, specs, monthOffset, share) => {
          const changes = acceptedChanges(loan, specs);
          const current = actualSchedule(loan, changes);
          const date = addMonths(loan.startDate, monthOffset);
          const last = changes[changes.length - 1]?.date ?? loan.startDate;
          const balance = balanceBefore(current, loan.principalAmount, date);
          if (date < last || balance === 0) return;
          const rateAtDate = changes.reduce(
            (rate, change) => (change.kind === 'rate-change' ? change.annualRatePercent : rate),
            loan.interestRate,
          );
          // Rounded down, so the EMI tried is never above the schedule's exactly rounded interest.
          const interest = Math.floor((balance * rateAtDate) / 1200);
          const emi = Math.max(1, Math.floor(interest * share));
          if (emi > interest) return;
          expect(() => actualSchedule(loan, [...changes, { kind: 'emi-override', date, emi }])).toThrow(
            NegativeAmortisationError,
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reduce tenure never raises the EMI and reduce EMI never lengthens the tenure', () => {
    fc.assert(
      fc.property(
        terms,
        fc.array(changeSpec, { maxLength: 4 }),
        fc.integer({ min: 0, max: 359 }),
        fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        (loan, specs, monthOffset, share) => {
          const changes = acceptedChanges(loan, specs);
          const before = actualSchedule(loan, changes);
          const date = addMonths(loan.startDate, monthOffset);
          const balance = balanceBefore(before, loan.principalAmount, date);
          if (date < (changes[changes.length - 1]?.date ?? loan.startDate) || balance < 2) return;
          const amount = Math.max(1, Math.floor(balance * share));
          const prepaid = (choice: 'reduce-emi' | 'reduce-tenure') =>
            actualSchedule(loan, [...changes, { kind: 'prepayment', date, amount, charge: 0, choice }]);

          const tenure = prepaid('reduce-tenure');
          expect(tenure.emi).toBe(before.emi);
          expect(tenure.totals.numberOfEmis).toBeLessThanOrEqual(before.totals.numberOfEmis);
          const emisAfter = tenure.rows.filter((row) => row.kind === 'emi' && row.date > date);
          for (const row of emisAfter.slice(0, -1)) expect(row.principal + row.interest).toBe(before.emi);

          const emi = prepaid('reduce-emi');
          expect(emi.totals.numberOfEmis).toBeLessThanOrEqual(before.totals.numberOfEmis);
          expect(emi.emi).toBeLessThanOrEqual(before.emi);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a higher rate under increase EMI or a switch to fixed never lowers the EMI nor lengthens the tenure', () => {
    fc.assert(
      fc.property(
        terms,
        fc.array(changeSpec, { maxLength: 4 }),
        fc.integer({ min: 0, max: 359 }),
        fc.integer({ min: 1, max: 5_000 }),
        fc.constantFrom('increase-emi', 'switch-to-fixed'),
        (loan, specs, monthOffset, riseThousandths, option: 'increase-emi' | 'switch-to-fixed') => {
          const changes = acceptedChanges(loan, specs);
          if (changes.some((change) => change.kind === 'rate-change' && change.option === 'switch-to-fixed'))
            return;
          const before = actualSchedule(loan, changes);
          const date = addMonths(loan.startDate, monthOffset);
          const lastEmi = before.rows.filter((row) => row.kind === 'emi').at(-1)!;
          if (date < (changes[changes.length - 1]?.date ?? loan.startDate) || date >= lastEmi.date) return;
          const rate = Math.min(50, Math.round(before.annualRatePercent * 1000 + riseThousandths) / 1000);
          if (rate <= before.annualRatePercent) return;
          const after = actualSchedule(loan, [
            ...changes,
            { kind: 'rate-change', date, annualRatePercent: rate, option, newEmi: null },
          ]);
          expect(after.emi).toBeGreaterThanOrEqual(before.emi);
          expect(after.closedOn <= before.closedOn).toBe(true);
          expect(after.rows.at(-1)!.remainingPrincipal).toBe(0);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('the past stays past', () => {
  it('rows dated before a change are identical with and without it, after any sequence of changes', () => {
    const anyChange = fc.record({
      kind: fc.constantFrom('prepayment', 'rate-change', 'emi-override', 'foreclosure'),
      monthOffset: fc.integer({ min: 0, max: 599 }),
      dayInPeriod: fc.integer({ min: 0, max: 30 }),
      share: fc.double({ min: 0.001, max: 0.999, noNaN: true }),
      choice: fc.constantFrom('reduce-emi', 'reduce-tenure'),
      rate: fc.integer({ min: 100, max: 50_000 }).map((thousandths) => thousandths / 1000),
      option: fc.constantFrom('increase-emi', 'extend-tenure', 'combination', 'switch-to-fixed'),
      emiFactor: fc.double({ min: 0.5, max: 3, noNaN: true }),
    });
    fc.assert(
      fc.property(terms, fc.array(changeSpec, { maxLength: 5 }), anyChange, (loan, specs, spec) => {
        const changes = acceptedChanges(loan, specs);
        const before = actualSchedule(loan, changes);
        const last = changes.at(-1)?.date ?? loan.startDate;
        const date = plusDays(addMonths(loan.startDate, spec.monthOffset), spec.dayInPeriod);
        if (date < last) return;
        const balance = balanceBefore(before, loan.principalAmount, date);
        const change: LoanChange =
          spec.kind === 'prepayment'
            ? {
                kind: 'prepayment',
                date,
                amount: Math.max(1, Math.floor(balance * spec.share)),
                charge: 0,
                choice: spec.choice,
              }
            : spec.kind === 'rate-change'
              ? {
                  kind: 'rate-change',
                  date,
                  annualRatePercent: spec.rate,
                  option: spec.option,
                  newEmi:
                    spec.option === 'combination'
                      ? Math.max(1, Math.round(before.emi * spec.emiFactor))
                      : null,
                }
              : spec.kind === 'emi-override'
                ? { kind: 'emi-override', date, emi: Math.max(1, Math.round(before.emi * spec.emiFactor)) }
                : { kind: 'foreclosure', date, charge: 0 };
        let after: ActualSchedule;
        try {
          after = actualSchedule(loan, [...changes, change]);
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
          return;
        }
        const past = (schedule: ActualSchedule) => schedule.rows.filter((row) => row.date < date);
        expect(past(after)).toEqual(past(before));
        expect(() => assertPastUnchanged(before.rows, after.rows, date)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
