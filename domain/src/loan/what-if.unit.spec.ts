import { describe, expect, it } from 'vitest';
import { actualSchedule } from './actual-schedule';
import type { ScheduleTerms } from './events';
import { comparePrepayment } from './what-if';

const lakh = 100_00_000;

describe('prepayment what-if', () => {
  // Published example: Ratan Chaudhary (head of home loans, Paisabazaar.com) in Mint, 14 Sep 2021,
  // https://www.livemint.com/money/personal-finance/consider-these-factors-before-opting-for-home-loan-prepayment/amp-11631592244435.html
  // "a home loan of ₹50 lakh about five years ago at 8% p.a. for a tenure of 20 years. Your
  // current outstanding would be Rs43.76 lakh. If you make a lump sum prepayment of Rs6 lakh now
  // and opt for tenure reduction, you will save about Rs11.30 lakh in interest payment, and your
  // loan repayment tenure would reduce by 41 months. [...] your EMI would fall from ₹41,822 to
  // ₹36,088 and generate a total interest savings of ₹4.32 lakh."
  const paisabazaar: ScheduleTerms = {
    principalAmount: 50 * lakh,
    interestRate: 8,
    isInterestRateYearly: true,
    duration: 20,
    isDurationYearly: true,
    startDate: '2016-09-14',
    hasGst: false,
    gstPercentage: 0,
  };
  const afterSixtyEmis = '2021-09-14';

  it('matches the Paisabazaar example published in Mint for both choices', () => {
    const before = actualSchedule(paisabazaar, []);
    expect(Math.round(before.emi / 100)).toBe(41822);
    const sixtieth = before.rows.find((row) => row.paymentNumber === 60)!;
    expect(sixtieth.date).toBe(afterSixtyEmis);
    expect(sixtieth.remainingPrincipal / lakh).toBeCloseTo(43.76, 2);

    const { choices } = comparePrepayment(paisabazaar, [], {
      date: afterSixtyEmis,
      amount: 6 * lakh,
      charge: 0,
    });
    expect(choices['reduce-tenure'].monthsSaved).toBe(41);
    expect(choices['reduce-tenure'].interestSaved / lakh).toBeCloseTo(11.3, 2);
    expect(choices['reduce-tenure'].emi).toBe(before.emi);
    expect(choices['reduce-emi'].monthsSaved).toBe(0);
    expect(Math.round(choices['reduce-emi'].emi / 100)).toBe(36088);
    expect(choices['reduce-emi'].interestSaved / lakh).toBeCloseTo(4.32, 2);
  });

  it('counts interest saved as the exact difference in total interest, GST apart', () => {
    const withGst = { ...paisabazaar, hasGst: true, gstPercentage: 18 };
    const prepayment = { date: '2018-03-01', amount: 2 * lakh, charge: 500000 };
    const comparison = comparePrepayment(withGst, [], prepayment);
    for (const choice of ['reduce-emi', 'reduce-tenure'] as const) {
      const after = actualSchedule(withGst, [{ kind: 'prepayment', ...prepayment, choice }]);
      expect(comparison.choices[choice].interestSaved).toBe(
        comparison.withoutPrepayment.interest - after.totals.interest,
      );
      expect(comparison.choices[choice].gstSaved).toBe(comparison.withoutPrepayment.gst - after.totals.gst);
      expect(comparison.choices[choice].gstSaved).toBeGreaterThan(0);
    }
    expect(comparison.choices['reduce-tenure'].interestSaved).toBeGreaterThan(
      comparison.choices['reduce-emi'].interestSaved,
    );
  });

  it('gives each choice its balances from the prepayment on, ending at 0, for the chart', () => {
    const { choices } = comparePrepayment(paisabazaar, [], {
      date: afterSixtyEmis,
      amount: 6 * lakh,
      charge: 0,
    });
    const tenure = choices['reduce-tenure'].balances;
    const emi = choices['reduce-emi'].balances;
    // The prepayment falls on the 60th EMI's date: that EMI, then the prepayment, then the rest.
    expect(tenure[0]!.date).toBe(afterSixtyEmis);
    expect(tenure.every((step) => step.date >= afterSixtyEmis)).toBe(true);
    expect(tenure.at(-1)!.remainingPrincipal).toBe(0);
    expect(emi.at(-1)!.remainingPrincipal).toBe(0);
    expect(tenure.at(-1)!.date).toBe(choices['reduce-tenure'].closedOn);
    expect(emi.length - tenure.length).toBe(41);
  });
});
