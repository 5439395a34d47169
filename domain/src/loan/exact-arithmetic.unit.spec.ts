import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../shared/errors';
import { LOAN_MESSAGES, validateLoan } from '../validation/loan';
import { type ActualScheduleRow, actualSchedule, assertPastUnchanged } from './actual-schedule';
import { calculateLoan } from './calculator';
import { financialYear, financialYearFigures } from './certificate';
import type { ScheduleTerms } from './events';
import { annualRateRatio, decimalRatio, levelEmi, percentRatio, significantDigits } from './rate';
import { generateSchedule } from './schedule';

const terms = (change: Partial<ScheduleTerms>): ScheduleTerms => ({
  principalAmount: 100000000,
  interestRate: 10.5,
  isInterestRateYearly: true,
  duration: 120,
  isDurationYearly: false,
  startDate: '2020-05-05',
  hasGst: false,
  gstPercentage: 0,
  ...change,
});

describe('the EMI is rounded from its exact value', () => {
  // Exactly 8,395.674999999987…: a float formula lands on 8,395.675 and rounds up to ₹8,395.68.
  const nearHalf = terms({ principalAmount: 96017184, interestRate: 0.962 });

  it('₹9,60,171.84 at 0.962% over 120 months pays ₹8,395.67', () => {
    expect(levelEmi(96017184, percentRatio(0.962), 120)).toBe(839567);
    const { rows } = generateSchedule(nearHalf);
    expect(rows[0]!.emi).toBe(839567);
    expect(rows.at(-1)).toMatchObject({ paymentNumber: 120, principal: 838955, interest: 673, emi: 839628 });
  });

  it('the calculator preview shows the same EMI', () => {
    const preview = calculateLoan({
      principalAmount: '960171.84',
      interestRate: '0.962',
      duration: '120',
      isDurationYearly: false,
      isInterestRateYearly: true,
      hasGst: false,
      gstPercentage: 0,
    });
    expect(preview.emi).toBe(8395.67);
  });

  it("the preview's first-month GST is rounded from the exact product: ₹8,982.25 × 18% = ₹1,616.805 → ₹1,616.81", () => {
    // ₹10,77,870 at 10% a year: the first month's interest is exactly ₹8,982.25.
    const preview = calculateLoan({
      principalAmount: 1077870,
      interestRate: 10,
      duration: 20,
      isDurationYearly: true,
      isInterestRateYearly: true,
      hasGst: true,
      gstPercentage: 18,
    });
    expect(preview.firstGst).toBe(1616.81);
    expect(preview.firstOutflow).toBe(Math.round((preview.emi + 1616.81) * 100) / 100);
  });

  it('a tenure that is not whole months, or beyond 600, previews nothing', () => {
    const base = {
      principalAmount: 100000,
      interestRate: 10,
      isInterestRateYearly: true,
      hasGst: false,
      gstPercentage: 0,
    };
    expect(calculateLoan({ ...base, duration: 2.5, isDurationYearly: false }).emi).toBe(0);
    expect(calculateLoan({ ...base, duration: 51, isDurationYearly: true }).emi).toBe(0);
    expect(calculateLoan({ ...base, duration: 1.5, isDurationYearly: true }).months).toBe(18);
  });
});

describe('the rate entered is the rate used', () => {
  it('reads a percentage by its decimal text, exponent forms included', () => {
    expect(percentRatio(9.1234567)).toEqual({ numerator: 91234567n, denominator: 10000000n });
    expect(decimalRatio(1e-7)).toEqual({ numerator: 1n, denominator: 10000000n });
    expect(decimalRatio(1.5e21)).toEqual({ numerator: 1500000000000000000000n, denominator: 1n });
    expect(decimalRatio('12.50')).toEqual({ numerator: 25n, denominator: 2n });
    expect(decimalRatio('abc')).toBeNull();
    expect(significantDigits(0.0012)).toBe(2);
    expect(significantDigits('9.12345678901234567')).toBe(18);
  });

  it('a monthly rate is twelve times itself, exactly (0.761% a month is 9.132% a year, not 9.132000000000001%)', () => {
    expect(annualRateRatio(0.761, false)).toEqual({ numerator: 2283n, denominator: 250n });
    const { rows } = actualSchedule(terms({ interestRate: 0.761, isInterestRateYearly: false }), []);
    expect(rows[0]!.annualRatePercent).toBe(9.132);
  });

  it('9.1234567% is not rounded to 9.123457%: each interest is balance × 9.1234567 ÷ 1200, rounded', () => {
    const loan = terms({ principalAmount: 10000000000, interestRate: 9.1234567, duration: 240 });
    const { rows } = actualSchedule(loan, [
      {
        kind: 'rate-change',
        date: '2021-01-10',
        annualRatePercent: 9.1234567,
        option: 'increase-emi',
        newEmi: null,
      },
    ]);
    for (const [i, row] of rows.entries()) {
      const balance = BigInt(i === 0 ? loan.principalAmount : rows[i - 1]!.remainingPrincipal);
      const exact = balance * 91234567n;
      const divisor = 1200n * 10000000n;
      expect(BigInt(row.interest)).toBe((2n * exact + divisor) / (2n * divisor));
      expect(row.annualRatePercent).toBe(9.1234567);
    }
    // ₹10 crore × 9.1234567 ÷ 1200 = ₹7,60,288.0583…; at 9.123457% it would be ₹7,60,288.08.
    expect(rows[0]!.interest).toBe(76028806);
  });

  it('refuses a rate or GST of more than 15 significant digits on the loan form', () => {
    const errors = validateLoan(
      {
        bankId: 1,
        loanTypeId: 1,
        accountNumber: 'HL00012345',
        principalAmount: 100000,
        interestRate: '9.12345678901234567',
        duration: 10,
        startDate: '2020-01-01',
        hasGst: 1,
        gstPercentage: '18.0000000000000001',
      },
      'edit',
      '2026-01-01',
    );
    expect(errors).toEqual([
      { field: 'interestRate', message: LOAN_MESSAGES.interestRateTooPrecise },
      { field: 'gstPercentage', message: LOAN_MESSAGES.gstTooPrecise },
    ]);
  });
});

describe('one schedule, and the past stays past', () => {
  it('a loan its rounded-up EMI repays early ends on its last real instalment: ₹137.73 at 12.26% over 42 years', () => {
    const loan = terms({
      principalAmount: 13773,
      interestRate: 12.26,
      duration: 42,
      isDurationYearly: true,
      startDate: '2018-11-28',
    });
    const { rows, totals } = generateSchedule(loan);
    expect(rows.filter((row) => row.emi === 0)).toEqual([]);
    expect(rows.every((row) => row.principal > 0)).toBe(true);
    expect(totals.numberOfPayments).toBe(rows.length);
    expect(rows.length).toBeLessThan(504);
    expect(rows.at(-1)!.remainingPrincipal).toBe(0);
    expect(actualSchedule(loan, []).closedOn).toBe(rows.at(-1)!.emiDate);
  });

  it('an EMI rounded down to the first month’s interest carries a paisa more in the schedule shown and in the one changes use', () => {
    // ₹100 at 50% over 50 years: the level EMI rounds to ₹4.17, exactly the first month's interest.
    const loan = terms({ principalAmount: 10000, interestRate: 50, duration: 600, startDate: '2000-01-31' });
    const shown = generateSchedule(loan);
    expect(shown.rows[0]).toMatchObject({ interest: 417, principal: 1 });
    const withChange = actualSchedule(loan, [
      { kind: 'prepayment', date: '2005-01-31', amount: 100, charge: 0, choice: 'reduce-tenure' },
    ]);
    const before = shown.rows.filter((row) => row.emiDate < '2005-01-31');
    expect(
      withChange.rows.slice(0, before.length).map((row) => [row.date, row.principal, row.interest]),
    ).toEqual(before.map((row) => [row.emiDate, row.principal, row.interest]));
  });

  it('the guard refuses a revision that alters a row dated before its change', () => {
    const { rows } = actualSchedule(terms({}), []);
    const altered: ActualScheduleRow[] = rows.map((row, i) =>
      i === 2 ? { ...row, interest: row.interest + 1 } : row,
    );
    expect(() => assertPastUnchanged(rows, altered, rows[3]!.date)).toThrow(ConflictError);
    expect(() => assertPastUnchanged(rows, altered, rows[2]!.date)).not.toThrow();
    expect(() => assertPastUnchanged(rows, rows.slice(0, 2), rows[3]!.date)).toThrow(ConflictError);
  });
});

describe('every financial year that holds payments', () => {
  it('1999-00 holds the February and March 2000 EMIs of a loan from 2000-01-01', () => {
    expect(financialYear('1999-00')).toEqual({ label: '1999-00', from: '1999-04-01', to: '2000-03-31' });
    const loan = terms({
      principalAmount: 10000000,
      interestRate: 12,
      duration: 5,
      isDurationYearly: true,
      startDate: '2000-01-01',
    });
    const figures = financialYearFigures(actualSchedule(loan, []).rows, '1999-00', {
      marks: [],
      emisAutoDebited: true,
      constructionCompletedOn: null,
      today: '2026-11-27',
    });
    expect(figures).toMatchObject({ interest: 198776, principal: 246112, emisDue: 2, emisPaid: 2 });
  });

  it('a year before any loan can start is refused', () => {
    expect(() => financialYear('1998-99')).toThrow(ValidationError);
  });
});
