import type { LoanFields } from '../validation/loan';

/**
 * The loan the specs start from, as the decider takes it: SBI (bank 1), Home Loan (type 1),
 * ₹25 lakh at 8.5% for 20 years from 2025-03-15, ₹10,000 processing fee (amounts in paise).
 * A spec states only what differs.
 */
export function loanFields(overrides: Partial<LoanFields> = {}): LoanFields {
  return {
    bankId: 1,
    loanTypeId: 1,
    accountNumber: 'HL00012345',
    shortDetail: 'Flat in Pune',
    principalAmount: 250000000,
    interestRate: 8.5,
    isInterestRateYearly: true,
    duration: 20,
    isDurationYearly: true,
    startDate: '2025-03-15',
    processingFee: 1000000,
    hasGst: false,
    gstPercentage: 0,
    emisAutoDebited: true,
    processingFeeGst: true,
    ...overrides,
  };
}
