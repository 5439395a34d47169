import { describe, expect, it } from 'vitest';
import { type LoanInput, LOAN_MESSAGES as M, parseLoan, validateLoan } from './loan';

const today = '2026-01-10';
const valid: LoanInput = {
  bankId: 1,
  loanTypeId: 2,
  accountNumber: 'HL00012345',
  shortDetail: 'Flat in Pune',
  principalAmount: 2500000,
  interestRate: 8.5,
  isInterestRateYearly: 1,
  duration: 20,
  isDurationYearly: 1,
  startDate: '2025-03-15',
  endDate: '2045-03-15',
  processingFee: 10000,
  hasGst: 0,
  gstPercentage: 0,
};

const errorsFor = (change: LoanInput, mode: 'create' | 'edit' = 'create') =>
  validateLoan({ ...valid, ...change }, mode, today);

describe('loan create rules (spec section 5)', () => {
  it('accepts a valid loan', () => {
    expect(validateLoan(valid, 'create', today)).toEqual([]);
  });

  it.each<[string, LoanInput, string, string]>([
    ['missing bank', { bankId: undefined }, 'bankId', M.bankRequired],
    ['bank 0', { bankId: 0 }, 'bankId', M.bankInvalid],
    ['negative bank', { bankId: -3 }, 'bankId', M.bankInvalid],
    ['missing loan type', { loanTypeId: '' }, 'loanTypeId', M.loanTypeRequired],
    ['loan type 1.5', { loanTypeId: 1.5 }, 'loanTypeId', M.loanTypeInvalid],
    ['bank beyond a PostgreSQL integer', { bankId: 2 ** 31 }, 'bankId', M.bankInvalid],
    ['loan type of 20 digits', { loanTypeId: '99999999999999999999' }, 'loanTypeId', M.loanTypeInvalid],
    ['missing account number', { accountNumber: '  ' }, 'accountNumber', M.accountNumberRequired],
    ['short account number', { accountNumber: 'AB12' }, 'accountNumber', M.accountNumberTooShort],
    ['long account number', { accountNumber: 'A'.repeat(31) }, 'accountNumber', M.accountNumberTooLong],
    ['account number with a dash', { accountNumber: 'HL-0001' }, 'accountNumber', M.accountNumberCharacters],
    ['long description', { shortDetail: 'x'.repeat(201) }, 'shortDetail', M.shortDetailTooLong],
    ['missing principal', { principalAmount: null }, 'principalAmount', M.principalRequired],
    ['principal text', { principalAmount: 'lots' }, 'principalAmount', M.principalNotNumber],
    ['principal 99.99', { principalAmount: 99.99 }, 'principalAmount', M.principalTooSmall],
    ['principal over 10 crore', { principalAmount: 100000000.01 }, 'principalAmount', M.principalTooLarge],
    ['principal with 3 decimals', { principalAmount: '1000.005' }, 'principalAmount', M.principalDecimals],
    ['missing rate', { interestRate: '' }, 'interestRate', M.interestRateRequired],
    ['rate 0.09', { interestRate: 0.09 }, 'interestRate', M.interestRateTooSmall],
    ['rate 50.001', { interestRate: 50.001 }, 'interestRate', M.interestRateTooLarge],
    ['rate with 4 decimals', { interestRate: 8.1234 }, 'interestRate', M.interestRateDecimals],
    ['missing duration', { duration: undefined }, 'duration', M.durationRequired],
    ['duration 0', { duration: 0 }, 'duration', M.durationTooSmall],
    ['51 years', { duration: 51 }, 'duration', M.durationTooLarge],
    [
      '601 months',
      { duration: 601, isDurationYearly: 0, endDate: undefined },
      'duration',
      M.durationTooLarge,
    ],
    [
      '2.5 months',
      { duration: 2.5, isDurationYearly: 0, endDate: undefined },
      'duration',
      M.durationWholeMonths,
    ],
    ['missing start date', { startDate: '' }, 'startDate', M.startDateRequired],
    ['impossible start date', { startDate: '2025-02-30' }, 'startDate', M.startDateInvalid],
    ['start before 2000', { startDate: '1999-12-31' }, 'startDate', M.startDateTooEarly],
    ['start tomorrow', { startDate: '2026-01-11', endDate: undefined }, 'startDate', M.startDateInFuture],
    ['wrong end date', { endDate: '2045-03-14' }, 'endDate', M.endDateMismatch],
    ['negative fee', { processingFee: -1 }, 'processingFee', M.processingFeeNegative],
    ['fee over 10 lakh', { processingFee: 1000000.01 }, 'processingFee', M.processingFeeTooLarge],
    ['GST on without percentage', { hasGst: 1, gstPercentage: '' }, 'gstPercentage', M.gstRequired],
    ['GST 100.01', { hasGst: 1, gstPercentage: 100.01 }, 'gstPercentage', M.gstTooLarge],
    ['negative GST', { hasGst: 1, gstPercentage: -1 }, 'gstPercentage', M.gstNegative],
    ['GST with 3 decimals', { hasGst: 1, gstPercentage: 18.125 }, 'gstPercentage', M.gstDecimals],
    ['bad GST flag', { hasGst: 'maybe' }, 'hasGst', M.hasGstInvalid],
  ])('rejects a %s', (_, change, field, message) => {
    expect(errorsFor(change)).toEqual([{ field, message }]);
  });

  it('gives the exact spec messages', () => {
    expect(M.bankRequired).toBe('Bank selection is required');
    expect(M.accountNumberTooShort).toBe('Account number must be at least 5 characters');
    expect(M.interestRateDecimals).toBe('Interest rate can have maximum 3 decimal places');
    expect(M.durationTooLarge).toBe('Duration cannot exceed 600 months (50 years)');
    expect(M.startDateInFuture).toBe('Start date cannot be in the future');
    expect(M.gstRequired).toBe('GST percentage is required when GST is enabled');
  });

  it('accepts the limits themselves', () => {
    expect(
      errorsFor({
        principalAmount: 100,
        interestRate: 0.1,
        duration: 1,
        isDurationYearly: 0,
        endDate: undefined,
      }),
    ).toEqual([]);
    expect(
      errorsFor({ principalAmount: 100000000, interestRate: 50, duration: 50, endDate: '2075-03-15' }),
    ).toEqual([]);
    expect(errorsFor({ processingFee: 1000000, hasGst: 1, gstPercentage: 100 })).toEqual([]);
    expect(errorsFor({ startDate: today, endDate: '2046-01-10' })).toEqual([]);
    expect(errorsFor({ startDate: '2000-01-01', endDate: undefined })).toEqual([]);
  });

  it('ignores the GST percentage while GST is off', () => {
    expect(errorsFor({ hasGst: 0, gstPercentage: 'junk' })).toEqual([]);
  });

  it('reports every failing field at once, in form order', () => {
    const fields = validateLoan({}, 'create', today).map((error) => error.field);
    expect(fields).toEqual([
      'bankId',
      'loanTypeId',
      'accountNumber',
      'principalAmount',
      'interestRate',
      'duration',
      'startDate',
    ]);
  });
});

describe('loan edit rules', () => {
  it('allows more decimals on the rate and GST and a future start date', () => {
    expect(
      errorsFor(
        {
          interestRate: 8.1234,
          hasGst: 1,
          gstPercentage: 18.125,
          startDate: '2027-01-01',
          endDate: undefined,
        },
        'edit',
      ),
    ).toEqual([]);
  });

  it('refuses a start date after 2099-12-31, so every schedule ends in a four-digit year', () => {
    expect(errorsFor({ startDate: '9999-12-31', endDate: undefined }, 'edit')).toEqual([
      { field: 'startDate', message: M.startDateTooLate },
    ]);
    expect(errorsFor({ startDate: '2099-12-31', duration: 50, endDate: undefined }, 'edit')).toEqual([]);
  });

  it('needs a whole duration', () => {
    expect(errorsFor({ duration: 1.5, endDate: undefined }, 'edit')).toEqual([
      { field: 'duration', message: M.durationWhole },
    ]);
    expect(errorsFor({ duration: 1.5, endDate: undefined }, 'create')).toEqual([]);
  });
});

describe('parseLoan', () => {
  it('gives money in paise, flags as booleans and trimmed text', () => {
    const result = parseLoan(
      { ...valid, accountNumber: ' HL00012345 ', principalAmount: '2500000.50' },
      'create',
      today,
    );
    expect(result).toEqual({
      ok: true,
      value: {
        bankId: 1,
        loanTypeId: 2,
        accountNumber: 'HL00012345',
        shortDetail: 'Flat in Pune',
        principalAmount: 250000050,
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
      },
    });
  });

  it('takes auto-debit and the fee’s GST as on unless turned off, and refuses anything but a flag', () => {
    const off = parseLoan({ ...valid, emisAutoDebited: 0, processingFeeGst: '0' }, 'create', today);
    expect(off.ok && [off.value.emisAutoDebited, off.value.processingFeeGst]).toEqual([false, false]);
    expect(parseLoan({ ...valid, emisAutoDebited: 'sometimes', processingFeeGst: 7 }, 'edit', today)).toEqual(
      {
        ok: false,
        errors: [
          { field: 'emisAutoDebited', message: 'Auto-debit must be on (1) or off (0)' },
          { field: 'processingFeeGst', message: 'GST on the processing fee must be charged (1) or not (0)' },
        ],
      },
    );
  });

  it('uses the spec defaults: yearly rate and duration, no GST, no fee', () => {
    const { isInterestRateYearly, isDurationYearly, hasGst, processingFee, ...rest } = valid;
    const result = parseLoan({ ...rest, shortDetail: '' }, 'create', today);
    expect(result.ok && result.value).toMatchObject({
      isInterestRateYearly: true,
      isDurationYearly: true,
      hasGst: false,
      processingFee: 0,
      gstPercentage: 0,
      shortDetail: null,
    });
  });

  it('turns a part-year duration into months', () => {
    const result = parseLoan({ ...valid, duration: 1.5, endDate: '2026-09-15' }, 'create', today);
    expect(result.ok && result.value).toMatchObject({ duration: 18, isDurationYearly: false });
  });
});
