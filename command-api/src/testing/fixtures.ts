import { randomUUID } from 'node:crypto';

/** A user of the specs: `signUp` records them with this mail address. */
export function userFixture(id: string = randomUUID()) {
  return { id, email: `${id}@example.test`, firstName: 'Test', lastName: 'User' };
}

/**
 * The body of `POST /api/loans` the specs start from: SBI (bank 1), Home Loan (type 1), ₹25 lakh
 * at 8.5% for 20 years from 2025-03-15, ₹10,000 processing fee. A spec states only what differs.
 */
export function loanInput(overrides: Record<string, unknown> = {}) {
  return {
    bank_id: 1,
    loan_type_id: 1,
    account_number: 'HL00012345',
    short_detail: 'Flat in Pune',
    principal_amount: 2500000,
    interest_rate: 8.5,
    is_interest_rate_yearly: 1,
    duration: 20,
    is_duration_yearly: 1,
    start_date: '2025-03-15',
    end_date: '2045-03-15',
    processing_fee: 10000,
    has_gst: 0,
    gst_percentage: 0,
    ...overrides,
  };
}

/**
 * The body of `POST /api/accounts` the specs start from: an HDFC savings account named with a
 * random suffix, ₹10,000.50 on 1 February 2025. A spec states only what differs.
 */
export function accountInput(overrides: Record<string, unknown> = {}) {
  return {
    name: `Savings ${randomUUID().slice(0, 6)}`,
    kind: 'savings',
    bank_name: 'HDFC Bank',
    opening_balance: '10000.50',
    opening_date: '2025-02-01',
    ...overrides,
  };
}
