import { describe, expect, it } from 'vitest';
import { endDateOf, loanFormValidator, NEW_LOAN, toLoanBody, valuesOf } from './loanFormValues';
import type { Loan } from './loansApi';

const filled = {
  ...NEW_LOAN,
  bankId: '3',
  loanTypeId: '1',
  accountNumber: 'HDFC12345',
  principalAmount: '500000',
  interestRate: '8.5',
  duration: '5',
  startDate: '2024-01-31',
};

const stored = {
  id: 'l1',
  bankId: 2,
  loanTypeId: 4,
  accountNumber: 'AC12345',
  shortDetail: null,
  principalAmount: 250000.5,
  interestRate: 9.25,
  isInterestRateYearly: false,
  duration: 18,
  isDurationYearly: false,
  startDate: '2024-03-10T00:00:00.000Z',
  endDate: '2025-09-10',
  processingFee: 1500,
  hasGst: false,
  gstPercentage: 0,
  emisAutoDebited: false,
  processingFeeHasGst: true,
  scheduleVersion: 1,
  createdAt: '2024-03-10T00:00:00Z',
  updatedAt: '2024-03-10T00:00:00Z',
} as unknown as Loan;

describe('loan form', () => {
  it('types a stored loan as the edit form shows it: numbers as text, choices as 1/0, switches as booleans', () => {
    expect(valuesOf(stored)).toEqual({
      bankId: '2',
      loanTypeId: '4',
      accountNumber: 'AC12345',
      shortDetail: '',
      principalAmount: '250000.5',
      interestRate: '9.25',
      isInterestRateYearly: '0',
      duration: '18',
      isDurationYearly: '0',
      startDate: '2024-03-10',
      processingFee: '1500',
      hasGst: false,
      gstPercentage: '18',
      emisAutoDebited: false,
      processingFeeGst: true,
    });
    expect(valuesOf({ ...stored, hasGst: true, gstPercentage: 12 }).gstPercentage).toBe('12');
    expect(toLoanBody(valuesOf(stored))).toMatchObject({
      endDate: '2025-09-10',
      processingFee: 1500,
      hasGst: 0,
    });
  });

  it('computes the end date from the start date and the duration in years or months', () => {
    expect(endDateOf(filled)).toBe('2029-01-31');
    expect(endDateOf({ ...filled, duration: '13', isDurationYearly: '0' })).toBe('2025-02-28');
    expect(endDateOf({ ...filled, duration: '' })).toBeNull();
  });

  it('sends the spec payload: flags as 1/0, GST 0 when off, the computed end date', () => {
    expect(toLoanBody(filled)).toEqual({
      bankId: 3,
      loanTypeId: 1,
      accountNumber: 'HDFC12345',
      shortDetail: '',
      principalAmount: 500000,
      interestRate: 8.5,
      isInterestRateYearly: 1,
      duration: 5,
      isDurationYearly: 1,
      startDate: '2024-01-31',
      endDate: '2029-01-31',
      processingFee: 0,
      hasGst: 0,
      gstPercentage: 0,
      emisAutoDebited: 1,
      processingFeeHasGst: 1,
    });
    expect(toLoanBody({ ...filled, hasGst: true }).gstPercentage).toBe(18);
    expect(toLoanBody({ ...filled, emisAutoDebited: false, processingFeeGst: false })).toMatchObject({
      emisAutoDebited: 0,
      processingFeeHasGst: 0,
    });
  });

  it('shows the domain messages, with the create-only rules off when editing', () => {
    const today = () => '2025-06-01';
    expect(loanFormValidator('create', today)(NEW_LOAN)).toMatchObject({
      bankId: 'Bank selection is required',
      accountNumber: 'Account number is required',
    });
    const future = { ...filled, startDate: '2025-07-01' };
    expect(loanFormValidator('create', today)(future).startDate).toBe('Start date cannot be in the future');
    expect(loanFormValidator('edit', today)(future).startDate).toBeUndefined();
  });

  it('reads pasted Indian amounts as the number they say, and refuses anything else with its own message', () => {
    const today = () => '2025-06-01';
    const pasted = { ...filled, principalAmount: '₹ 5,00,000', processingFee: '₹ 2,500.50' };
    expect(loanFormValidator('create', today)(pasted)).toEqual({});
    expect(toLoanBody(pasted)).toMatchObject({ principalAmount: 500000, processingFee: 2500.5 });
    expect(loanFormValidator('create', today)({ ...filled, principalAmount: 'five lakh' })).toEqual({
      principalAmount: 'Principal amount must be a number',
    });
    expect(loanFormValidator('create', today)({ ...filled, principalAmount: '5,000,00' })).toEqual({
      principalAmount: 'Principal amount must be a number',
    });
  });
});
