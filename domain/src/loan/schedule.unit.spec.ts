import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonths, loanEndDate } from './dates';
import type { ScheduleTerms } from './events';
import { levelEmi, percentRatio } from './rate';
import { balanceOn, generateSchedule } from './schedule';

const tenLakh: ScheduleTerms = {
  principalAmount: 100000000,
  interestRate: 10.5,
  isInterestRateYearly: true,
  duration: 10,
  isDurationYearly: true,
  startDate: '2024-01-31',
  hasGst: false,
  gstPercentage: 0,
};

describe('schedule', () => {
  // HDFC Bank EMI calculator example: ₹10,00,000 at 10.5% p.a. for 120 months -> EMI ₹13,493
  // and total interest ₹6,19,220 (whole rupees).
  it('matches the HDFC Bank published example', () => {
    const { rows, totals } = generateSchedule(tenLakh);
    expect(rows).toHaveLength(120);
    expect(Math.abs(rows[0]!.emi - 1349300)).toBeLessThanOrEqual(50);
    expect(Math.round(totals.interest / 100)).toBe(619220);
  });

  it('charges each month interest on the outstanding balance, rounded to the paisa', () => {
    const { rows } = generateSchedule(tenLakh);
    expect(rows[0]).toEqual({
      paymentNumber: 1,
      emiDate: '2024-02-29',
      principal: 474350,
      interest: 875000,
      gst: 0,
      emi: 1349350,
      remainingPrincipal: 99525650,
    });
    // 99,525,650 paise × 10.5% ÷ 12 = 870,849.4375 -> 870,849
    expect(rows[1]).toMatchObject({ interest: 870849, principal: 478501, remainingPrincipal: 99047149 });
  });

  it('lets the last instalment absorb the rounding', () => {
    const { rows } = generateSchedule(tenLakh);
    expect(rows[119]).toEqual({
      paymentNumber: 120,
      emiDate: '2034-01-31',
      principal: 1337638,
      interest: 11704,
      gst: 0,
      emi: 1349342,
      remainingPrincipal: 0,
    });
  });

  it('adds GST on each row’s interest, rounded to the paisa', () => {
    const { rows, totals } = generateSchedule({ ...tenLakh, hasGst: true, gstPercentage: 18 });
    expect(rows[0]).toMatchObject({ interest: 875000, gst: 157500, emi: 1349350 + 157500 });
    // 870,849 × 18% = 156,752.82 -> 156,753
    expect(rows[1]).toMatchObject({ gst: 156753 });
    expect(totals.gst).toBe(rows.reduce((sum, row) => sum + row.gst, 0));
  });

  it('ignores the GST percentage when GST is off', () => {
    const { totals } = generateSchedule({ ...tenLakh, hasGst: false, gstPercentage: 18 });
    expect(totals.gst).toBe(0);
  });

  it('treats a monthly rate as twelve times per year', () => {
    const monthly = generateSchedule({ ...tenLakh, interestRate: 0.875, isInterestRateYearly: false });
    expect(monthly).toEqual(generateSchedule(tenLakh));
  });

  it('splits the principal evenly at a rate of 0', () => {
    const { rows } = generateSchedule({
      ...tenLakh,
      principalAmount: 100000,
      interestRate: 0,
      duration: 3,
      isDurationYearly: false,
    });
    expect(rows.map((row) => [row.principal, row.interest, row.remainingPrincipal])).toEqual([
      [33333, 0, 66667],
      [33333, 0, 33334],
      [33334, 0, 0],
    ]);
  });

  it('rejects a duration that is not a whole number of months', () => {
    expect(() => generateSchedule({ ...tenLakh, duration: 2.5, isDurationYearly: false })).toThrow(
      RangeError,
    );
  });

  it('computes the EMI by the standard formula', () => {
    expect(levelEmi(100000000, percentRatio(10.5), 120)).toBe(1349350);
    expect(levelEmi(120000, percentRatio(0), 12)).toBe(10000);
  });
});

describe('payment dates', () => {
  it('puts payment n exactly n months after the start, clamped to the month end', () => {
    const { rows } = generateSchedule({
      ...tenLakh,
      startDate: '2023-01-31',
      duration: 14,
      isDurationYearly: false,
    });
    expect(rows.slice(0, 4).map((row) => row.emiDate)).toEqual([
      '2023-02-28',
      '2023-03-31',
      '2023-04-30',
      '2023-05-31',
    ]);
    expect(rows[11]!.emiDate).toBe('2024-01-31');
    expect(rows[12]!.emiDate).toBe('2024-02-29');
  });

  it('computes the end date as start plus duration', () => {
    expect(loanEndDate('2024-02-29', 1, true)).toBe('2025-02-28');
    expect(loanEndDate('2024-01-15', 18, false)).toBe('2025-07-15');
    expect(addMonths('2024-12-31', 2)).toBe('2025-02-28');
  });
});

describe('balanceOn', () => {
  const { rows } = generateSchedule({
    ...tenLakh,
    startDate: '2024-01-15',
    duration: 12,
    isDurationYearly: false,
  });
  it('is the full principal before the first instalment', () => {
    expect(balanceOn(100000000, rows, '2024-02-14')).toBe(100000000);
  });
  it('is the balance after the last instalment due on or before the date', () => {
    expect(balanceOn(100000000, rows, '2024-02-15')).toBe(rows[0]!.remainingPrincipal);
    expect(balanceOn(100000000, rows, '2024-03-20')).toBe(rows[1]!.remainingPrincipal);
    expect(balanceOn(100000000, rows, '2030-01-01')).toBe(0);
  });
});

/** Every valid input: principal ₹100 to ₹10 crore, rate 0.1 to 50 (3 decimals), 1 to 600 months, GST 0 to 100. */
const validTerms = fc.record({
  principalAmount: fc.integer({ min: 10000, max: 10000000000 }),
  interestRate: fc.integer({ min: 100, max: 50000 }).map((milli) => milli / 1000),
  isInterestRateYearly: fc.boolean(),
  months: fc.integer({ min: 1, max: 600 }),
  startDate: fc
    .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  hasGst: fc.boolean(),
  gstPercentage: fc.integer({ min: 0, max: 10000 }).map((hundredths) => hundredths / 100),
});

describe('schedule properties over the whole valid range', () => {
  it('always pays off exactly, every row repaying principal, and totals equal the sums of rows', () => {
    fc.assert(
      fc.property(validTerms, ({ months, ...rest }) => {
        const terms: ScheduleTerms = { ...rest, duration: months, isDurationYearly: false };
        const { rows, totals } = generateSchedule(terms);
        // A rounded-up EMI can repay before the tenure ends: the loan ends there, no ₹0.00 rows.
        expect(rows.length).toBeLessThanOrEqual(months);
        expect(rows.every((row) => row.principal > 0)).toBe(true);
        expect(rows.at(-1)!.remainingPrincipal).toBe(0);
        const sum = (pick: (row: (typeof rows)[number]) => number) =>
          rows.reduce((s, row) => s + pick(row), 0);
        expect(sum((row) => row.principal)).toBe(terms.principalAmount);
        expect(totals).toEqual({
          principal: sum((row) => row.principal),
          interest: sum((row) => row.interest),
          gst: sum((row) => row.gst),
          emi: sum((row) => row.emi),
          numberOfPayments: rows.length,
        });
        let balance = terms.principalAmount;
        const broken = rows.filter((row) => {
          balance -= row.principal;
          const parts = [row.principal, row.interest, row.gst, row.emi, row.remainingPrincipal];
          return (
            parts.some((value) => !Number.isInteger(value) || value < 0) ||
            row.emi !== row.principal + row.interest + row.gst ||
            row.remainingPrincipal !== balance ||
            (!terms.hasGst && row.gst !== 0)
          );
        });
        expect(broken).toEqual([]);
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('keeps every payment date on or before the start day of month and in consecutive months', () => {
    fc.assert(
      fc.property(validTerms, ({ months, startDate, ...rest }) => {
        const { rows } = generateSchedule({ ...rest, startDate, duration: months, isDurationYearly: false });
        const startDay = Number(startDate.slice(8));
        const wrong = rows.filter(
          (row, i) => row.emiDate !== addMonths(startDate, i + 1) || Number(row.emiDate.slice(8)) > startDay,
        );
        expect(wrong).toEqual([]);
        expect(rows.at(-1)!.emiDate <= loanEndDate(startDate, months, false)).toBe(true);
      }),
      { numRuns: 100 },
    );
  }, 60_000);
});
