import { describe, expect, it } from 'vitest';
import {
  isCalendarDate,
  TRANSACTION_MESSAGES as M,
  parseTransaction,
  validateTransaction,
} from './transaction';

const valid = { notes: 'Groceries', transaction_type: 'D', transaction_date: '2024-02-29', amount: 1234.5 };
const errorsFor = (patch: Record<string, unknown>) => validateTransaction({ ...valid, ...patch });

describe('validateTransaction', () => {
  it('accepts a valid transaction', () => {
    expect(validateTransaction(valid)).toEqual([]);
  });

  it('requires every field, with the spec messages, in form order', () => {
    expect(validateTransaction({})).toEqual([
      { field: 'notes', message: M.notesRequired },
      { field: 'transaction_type', message: M.typeRequired },
      { field: 'transaction_date', message: M.dateRequired },
      { field: 'amount', message: M.amountPositive },
    ]);
  });

  it('checks notes after trimming and counts characters, not bytes', () => {
    expect(errorsFor({ notes: '  \n ' })).toEqual([{ field: 'notes', message: 'Notes are required' }]);
    expect(errorsFor({ notes: 'x'.repeat(256) })).toEqual([
      { field: 'notes', message: 'Notes must not exceed 255 characters' },
    ]);
    expect(errorsFor({ notes: `  ${'x'.repeat(255)}  ` })).toEqual([]);
    expect(errorsFor({ notes: '₹'.repeat(255) })).toEqual([]);
  });

  it('allows only C and D', () => {
    expect(errorsFor({ transaction_type: '' })).toEqual([
      { field: 'transaction_type', message: 'Transaction type is required' },
    ]);
    for (const bad of ['c', 'X', 'CD', 1]) {
      expect(errorsFor({ transaction_type: bad })).toEqual([
        { field: 'transaction_type', message: 'Invalid transaction type' },
      ]);
    }
  });

  it('takes only real calendar dates written YYYY-MM-DD', () => {
    expect(errorsFor({ transaction_date: '' })).toEqual([
      { field: 'transaction_date', message: 'Transaction date is required' },
    ]);
    for (const bad of ['2025-02-30', '2023-02-29', '2025-13-01', '2025-1-01', '01/02/2025', '2025-04-31']) {
      expect(errorsFor({ transaction_date: bad })).toEqual([
        { field: 'transaction_date', message: M.dateInvalid },
      ]);
    }
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('1900-02-29')).toBe(false);
  });

  it('wants an amount above 0 with at most two decimals and at most 9,999,999,999.99', () => {
    for (const bad of [0, -1, '0.00', 'abc', '-5']) {
      expect(errorsFor({ amount: bad })).toEqual([
        { field: 'amount', message: 'Amount must be greater than 0' },
      ]);
    }
    expect(errorsFor({ amount: 0.001 })).toEqual([{ field: 'amount', message: M.amountDecimals }]);
    expect(errorsFor({ amount: '10.123' })).toEqual([{ field: 'amount', message: M.amountDecimals }]);
    expect(errorsFor({ amount: '10.100' })).toEqual([]);
    expect(errorsFor({ amount: 9_999_999_999.99 })).toEqual([]);
    expect(errorsFor({ amount: 10_000_000_000 })).toEqual([{ field: 'amount', message: M.amountTooLarge }]);
    expect(errorsFor({ amount: '10000000000.00' })).toEqual([{ field: 'amount', message: M.amountTooLarge }]);
    expect(errorsFor({ amount: 1e21 })).toEqual([{ field: 'amount', message: M.amountTooLarge }]);
    expect(errorsFor({ amount: 0.01 })).toEqual([]);
  });
});

describe('parseTransaction', () => {
  it('gives trimmed notes and the amount in paise', () => {
    expect(parseTransaction({ ...valid, notes: ' Rent ', amount: '0.1' })).toEqual({
      ok: true,
      value: { notes: 'Rent', transactionType: 'D', transactionDate: '2024-02-29', amount: 10 },
    });
    expect(parseTransaction({ ...valid, amount: 9_999_999_999.99 })).toMatchObject({
      value: { amount: 999_999_999_999 },
    });
  });
});
