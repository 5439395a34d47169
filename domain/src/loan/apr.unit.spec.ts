import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actualLoanApr, annualPercentageRate, loanApr, paymentsApr } from './apr';
import { addMonths } from './dates';
import type { LoanDetails } from './events';
import { generateSchedule } from './schedule';

const loan: LoanDetails = {
  bankId: 1,
  loanTypeId: 1,
  accountNumber: 'HL00012345',
  shortDetail: null,
  principalAmount: 100000000,
  interestRate: 10.5,
  isInterestRateYearly: true,
  duration: 10,
  isDurationYearly: true,
  startDate: '2024-01-31',
  endDate: '2034-01-31',
  processingFee: 0,
  hasGst: false,
  gstPercentage: 0,
  emisAutoDebited: true,
  processingFeeGst: true,
};

describe('APR (RBI Key Facts Statement)', () => {
  // RBL Bank's Key Facts Statement for a "Dial For Cash" loan, published in the RBI KFS format
  // (https://www.scribd.com/document/809869650/rbl-8aacbc01-cd1a-4784-8466-2915759cef13):
  // sanctioned ₹47,000, 24 monthly EPIs of ₹2,415.14, 21.00% p.a. fixed, processing fee ₹1,175
  // (fees shown net of GST), "Annual Percentage Rate (APR) 24.16%". With 18% GST on the fee the
  // borrower receives ₹45,613.50; the monthly IRR ×12 is 24.154% (compounded it would be 27.02%).
  // The KFS's exact disbursal date is not shown, so we agree to within 0.01 point.
  it('agrees with the APR RBL Bank discloses on its Key Facts Statement', () => {
    const apr = annualPercentageRate({
      principal: 4700000,
      processingFee: 117500,
      feeGstPercent: 18,
      instalments: Array.from({ length: 24 }, () => 241514),
    });
    expect(Math.round(Math.abs(apr - 24.16) * 100)).toBeLessThanOrEqual(1);
    expect(apr).not.toBeCloseTo(27.02, 0);
  });

  it('equals the loan’s own rate when there is no fee', () => {
    expect(loanApr(loan)).toBe(10.5);
    expect(loanApr({ ...loan, interestRate: 7.25, duration: 20 })).toBe(7.25);
  });

  it('counts the fee and the GST on it', () => {
    const withFee = loanApr({ ...loan, processingFee: 1000000 });
    expect(withFee).toBeGreaterThan(10.5);
    expect(loanApr({ ...loan, processingFee: 1000000 }, 0)).toBeLessThan(withFee);
  });

  it('is the rate at which the instalments are worth what the borrower received', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10_000_00, max: 1_00_00_000_00 }),
        fc.integer({ min: 500, max: 24_000 }).map((thousandths) => thousandths / 1000),
        fc.integer({ min: 6, max: 360 }),
        fc.double({ min: 0, max: 0.03, noNaN: true }),
        (principal, rate, months, feeShare) => {
          const { rows } = generateSchedule({
            principalAmount: principal,
            interestRate: rate,
            isInterestRateYearly: true,
            duration: months,
            isDurationYearly: false,
            startDate: '2024-01-31',
            hasGst: false,
            gstPercentage: 0,
          });
          const processingFee = Math.round(principal * feeShare);
          const apr = annualPercentageRate({
            principal,
            processingFee,
            feeGstPercent: 18,
            instalments: rows.map((row) => row.emi),
          });
          const received = principal - processingFee - Math.round(processingFee * 0.18);
          const worth = (annual: number) =>
            rows.reduce((value, row, index) => value + row.emi / (1 + annual / 1200) ** (index + 1), 0);
          // Rounded to two decimals, the APR brackets the exact rate within half a hundredth.
          expect(worth(apr - 0.005)).toBeGreaterThanOrEqual(received);
          expect(worth(apr + 0.005)).toBeLessThanOrEqual(received);
          expect(apr).toBeGreaterThanOrEqual(rate - 0.01);
        },
      ),
    );
  });

  describe('on dated payments', () => {
    it('counts a payment on the nth monthiversary as n months, month ends clamped (31 Jan → 29 Feb)', () => {
      fc.assert(
        fc.property(
          fc.constantFrom('2024-01-31', '2023-01-29', '2024-03-30', '2023-12-01', '2024-05-15'),
          fc.array(fc.integer({ min: 1_000_00, max: 50_000_00 }), { minLength: 1, maxLength: 120 }),
          fc.integer({ min: 0, max: 20_000_00 }),
          (startDate, amounts, processingFee) => {
            const principal = Math.round(amounts.reduce((sum, amount) => sum + amount, 0) * 0.9);
            fc.pre(principal - processingFee * 1.18 > 0);
            const fee = { principal, processingFee, feeGstPercent: 18 };
            const dated = amounts.map((amount, i) => ({ date: addMonths(startDate, i + 1), amount }));
            let byMonth: number | string;
            try {
              byMonth = annualPercentageRate({ ...fee, instalments: amounts });
            } catch (error) {
              byMonth = String(error);
            }
            let byDate: number | string;
            try {
              byDate = paymentsApr(fee, startDate, dated);
            } catch (error) {
              byDate = String(error);
            }
            expect(byDate).toBe(byMonth);
          },
        ),
      );
    });

    it('counts a payment between two monthiversaries by the share of days into the month', () => {
      // From 31 Jan 2023: 28 Feb is one month, 31 Mar two; 15 Mar is 15 of those 31 days in.
      const months = 1 + 15 / 31;
      const expected = Math.round((1.02 ** (1 / months) - 1) * 1200 * 100) / 100;
      const apr = paymentsApr({ principal: 100000, processingFee: 0, feeGstPercent: 0 }, '2023-01-31', [
        { date: '2023-03-15', amount: 102000 },
      ]);
      expect(apr).toBe(expected);
      // The same payment a day before the start's first monthiversary is under one month.
      expect(
        paymentsApr({ principal: 100000, processingFee: 0, feeGstPercent: 0 }, '2023-01-31', [
          { date: '2023-02-27', amount: 102000 },
        ]),
      ).toBe(Math.round((1.02 ** (1 / (27 / 28)) - 1) * 1200 * 100) / 100);
    });
  });

  describe('on the actual cash flows', () => {
    const withFee = { ...loan, processingFee: 1000000 };
    const prepayment = (charge: number) =>
      ({
        kind: 'prepayment',
        date: '2026-03-10',
        amount: 40000000,
        charge,
        choice: 'reduce-tenure',
      }) as const;

    it('is the contract APR while nothing changed', () => {
      expect(actualLoanApr(loan, [])).toBe(loanApr(loan));
      expect(actualLoanApr(withFee, [])).toBe(loanApr(withFee));
      const gst = { ...withFee, hasGst: true, gstPercentage: 18, startDate: '2024-01-15' };
      expect(actualLoanApr(gst, [])).toBe(loanApr(gst));
    });

    it('stays the loan rate after a part-payment without fee or charge (interest accrues at the rate)', () => {
      expect(Math.abs(actualLoanApr(loan, [prepayment(0)]) - 10.5)).toBeLessThanOrEqual(0.01);
    });

    it('rises when the fee is spread over a loan repaid sooner, and with a prepayment charge', () => {
      const sooner = actualLoanApr(withFee, [prepayment(0)]);
      expect(sooner).toBeGreaterThan(loanApr(withFee));
      expect(actualLoanApr(withFee, [prepayment(2000000)])).toBeGreaterThan(sooner);
    });
  });
});
