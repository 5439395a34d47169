import { describe, expect, it } from 'vitest';
import { calculateLoan, type LoanCalculatorInput } from './calculator';

const yearly: LoanCalculatorInput = {
  principalAmount: 1000000,
  interestRate: 10.5,
  duration: 10,
  isDurationYearly: true,
  isInterestRateYearly: true,
  hasGst: false,
  gstPercentage: 0,
};

describe('loan calculator (spec section 5)', () => {
  // HDFC Bank's EMI calculator page works this example: "if you borrow ₹10,00,000 from the bank
  // at 10.5% annual rate of interest for a period of 10 years (i.e., 120 months), then
  // EMI = ₹10,00,000 * 0.00875 * (1 + 0.00875)^120 / ((1 + 0.00875)^120 - 1) = ₹13,493",
  // total payable ₹16,19,220 of which ₹6,19,220 is interest (figures in whole rupees).
  it('matches the HDFC Bank published example', () => {
    const result = calculateLoan(yearly);
    // The bank rounds to whole rupees; our two-decimal EMI (₹13,493.50) is within 50 paise of it.
    expect(Math.abs(result.emi - 13493)).toBeLessThanOrEqual(0.5);
    expect(Math.round(result.totalInterest)).toBe(619220);
    expect(Math.round(result.totalAmount)).toBe(1619220);
  });

  // SBI home loan EMI calculator figures reported by Patrika (patrika.com, "SBI home loan EMI
  // calculator and interest rate"): ₹22 lakh at 7.50% gives EMI ₹15,383 / interest ₹33,37,779
  // over 30 years, ₹16,258 / ₹26,77,342 over 25 years and ₹17,723 / ₹20,53,532 over 20 years.
  it.each([
    [30, 15383, 3337779],
    [25, 16258, 2677342],
    [20, 17723, 2053532],
  ])('matches the SBI calculator for ₹22 lakh at 7.5%% over %i years', (years, emi, interest) => {
    const result = calculateLoan({ ...yearly, principalAmount: 2200000, interestRate: 7.5, duration: years });
    expect(Math.abs(result.emi - emi)).toBeLessThanOrEqual(0.5);
    expect(Math.round(result.totalInterest)).toBe(interest);
  });

  it('rounds every result to two decimals', () => {
    expect(calculateLoan(yearly)).toEqual({
      months: 120,
      emi: 13493.5,
      totalInterest: 619219.96,
      gst: 0,
      totalAmount: 1619219.96,
      firstGst: 0,
      firstOutflow: 13493.5,
    });
  });

  it('counts a monthly rate as twelve times per year and months as given', () => {
    const monthly = calculateLoan({
      ...yearly,
      interestRate: 0.875,
      isInterestRateYearly: false,
      duration: 120,
      isDurationYearly: false,
    });
    expect(monthly).toEqual(calculateLoan(yearly));
  });

  it('charges GST on the total interest only when GST is on', () => {
    const withGst = calculateLoan({ ...yearly, hasGst: true, gstPercentage: 18 });
    expect(withGst.gst).toBe(111459.59);
    expect(withGst.totalAmount).toBe(1730679.55);
    expect(calculateLoan({ ...yearly, hasGst: false, gstPercentage: 18 }).gst).toBe(0);
  });

  it("names the GST on the first EMI and the first month's outflow, as the schedule charges them", () => {
    // ₹3.6 lakh at 10%: the first month's interest is ₹3,000.00, 18% GST on it ₹540.00.
    const result = calculateLoan({
      ...yearly,
      principalAmount: 360000,
      interestRate: 10,
      duration: 4,
      hasGst: true,
      gstPercentage: 18,
    });
    expect(result.firstGst).toBe(540);
    expect(result.firstOutflow).toBe(Math.round((result.emi + 540) * 100) / 100);
  });

  it('divides the principal evenly at a rate of 0', () => {
    const result = calculateLoan({
      ...yearly,
      principalAmount: 1000,
      interestRate: 0,
      duration: 3,
      isDurationYearly: false,
    });
    expect(result).toEqual({
      months: 3,
      emi: 333.33,
      totalInterest: 0,
      gst: 0,
      totalAmount: 1000,
      firstGst: 0,
      firstOutflow: 333.33,
    });
  });

  it('counts non-numeric inputs as 0 and then answers 0 everywhere', () => {
    const zero = {
      months: 0,
      emi: 0,
      totalInterest: 0,
      gst: 0,
      totalAmount: 0,
      firstGst: 0,
      firstOutflow: 0,
    };
    expect(calculateLoan({ ...yearly, principalAmount: 'abc' })).toEqual(zero);
    expect(calculateLoan({ ...yearly, duration: '' })).toEqual(zero);
    expect(calculateLoan({ ...yearly, duration: undefined })).toEqual(zero);
    expect(calculateLoan({ ...yearly, principalAmount: '1000000', interestRate: 'x' }).emi).toBe(8333.33);
  });
});
