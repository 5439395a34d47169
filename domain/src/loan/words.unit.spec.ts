import { describe, expect, it } from 'vitest';
import type { LoanChange } from './actual-schedule';
import { loanStreamEventTypes, type ScheduleTerms } from './events';
import { addedChange, changeWords, LOAN_EVENT_LABELS, loanName, scheduleWhy } from './words';

/** ₹50 lakh at 8.5% a year for 20 years. */
const terms: ScheduleTerms = {
  principalAmount: 500000000,
  interestRate: 8.5,
  isInterestRateYearly: true,
  duration: 20,
  isDurationYearly: true,
  startDate: '2020-05-05',
  hasGst: false,
  gstPercentage: 0,
};
const context = { terms, changes: [] as LoanChange[] };

describe('the words of loan changes', () => {
  it('names every loan event type', () => {
    for (const type of loanStreamEventTypes) expect(LOAN_EVENT_LABELS[type]).toMatch(/^[A-Z]/);
  });

  it('writes a part-payment with its amount, charge and choice', () => {
    const change: LoanChange = {
      kind: 'prepayment',
      date: '2025-06-20',
      amount: 50000000,
      charge: 0,
      choice: 'reduce-tenure',
    };
    expect(changeWords(change, context)).toBe('Part-payment of ₹5,00,000.00, tenure reduced');
    expect(changeWords({ ...change, choice: 'reduce-emi', charge: 1000000 }, context)).toBe(
      'Part-payment of ₹5,00,000.00 (charge ₹10,000.00), EMI reduced',
    );
  });

  it('says whether a reset raised or lowered the EMI against the rate before it', () => {
    const up: LoanChange = {
      kind: 'rate-change',
      date: '2024-05-05',
      annualRatePercent: 9.25,
      option: 'increase-emi',
      newEmi: null,
    };
    expect(changeWords(up, context)).toBe('Rate reset to 9.25% from 05 May 2024, EMI increased');
    const down: LoanChange = { ...up, date: '2025-02-05', annualRatePercent: 8.75 };
    expect(changeWords(down, { terms, changes: [up, down] })).toBe(
      'Rate reset to 8.75% from 05 Feb 2025, EMI reduced',
    );
    expect(changeWords({ ...up, option: 'extend-tenure' }, context)).toBe(
      'Rate reset to 9.25% from 05 May 2024, tenure extended (same EMI)',
    );
    expect(changeWords({ ...up, option: 'combination', newEmi: 4100000 }, context)).toBe(
      'Rate reset to 9.25% from 05 May 2024, EMI set to ₹41,000.00',
    );
    expect(changeWords({ ...up, option: 'switch-to-fixed' }, context)).toBe(
      'Rate reset to 9.25% from 05 May 2024, switched to a fixed rate',
    );
  });

  it('writes an override and a foreclosure with its settlement', () => {
    expect(changeWords({ kind: 'emi-override', date: '2024-06-05', emi: 4100000 }, context)).toBe(
      'EMI set to ₹41,000.00 from 05 Jun 2024',
    );
    expect(
      changeWords(
        { kind: 'foreclosure', date: '2025-12-20', charge: 0 },
        { ...context, settlement: 123456789 },
      ),
    ).toBe('Foreclosed on 20 Dec 2025 (settlement ₹12,34,567.89)');
  });

  it('finds the change a revision added, a backdated one included', () => {
    const a: LoanChange = { kind: 'emi-override', date: '2024-06-05', emi: 4100000 };
    const b: LoanChange = { kind: 'emi-override', date: '2023-01-05', emi: 4200000 };
    expect(addedChange([b, a], [a])).toEqual(b);
    expect(addedChange([a], [a])).toBeNull();
    // As stored in JSONB, with its keys in another order.
    expect(addedChange([a], [{ emi: 4100000, date: '2024-06-05', kind: 'emi-override' }])).toBeNull();
  });

  it('explains versions without a change in words, not codes', () => {
    expect(scheduleWhy({ reason: 'created' }, [])).toBe('Loan created');
    expect(scheduleWhy({ reason: 'updated' }, [])).toBe('Terms edited');
    expect(scheduleWhy({ reason: 'regenerated', terms, changes: [] }, [])).toBe('Schedule regenerated');
  });

  it('names a loan as the screens do: account number and bank (with its branch)', () => {
    expect(loanName('HL20200505', 'State Bank of India', 'Andheri')).toBe(
      'HL20200505 · State Bank of India - Andheri',
    );
    expect(loanName('HL20200505', 'HDFC Bank')).toBe('HL20200505 · HDFC Bank');
  });
});
