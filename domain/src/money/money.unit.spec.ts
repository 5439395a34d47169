import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideRounded, formatInr, formatRupees, fromPaise, toDecimalString, toPaise } from './index';

describe('toPaise', () => {
  it.each([
    ['1234.56', 123456],
    ['0.01', 1],
    ['100', 10000],
    ['.5', 50],
    ['1.005', 101],
    ['1.004', 100],
    ['-2.50', -250],
    [' 42 ', 4200],
  ])('reads the decimal text %s as %i paise', (text, paise) => {
    expect(toPaise(text)).toBe(paise);
  });

  it('reads numbers by their decimal digits, not their binary value', () => {
    expect(toPaise(1.005)).toBe(101);
    expect(toPaise(0.1 + 0.2)).toBe(30);
    expect(toPaise(100000000)).toBe(10000000000);
    expect(toPaise(1e-7)).toBe(0);
  });

  it('rejects what is not an amount', () => {
    expect(() => toPaise('abc')).toThrow(RangeError);
    expect(() => toPaise('')).toThrow(RangeError);
    expect(() => toPaise(Number.NaN)).toThrow(RangeError);
  });

  it('round-trips every two-decimal amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (paise) => {
        expect(toPaise(toDecimalString(paise))).toBe(paise);
        expect(toPaise(fromPaise(paise))).toBe(paise);
      }),
    );
  });
});

describe('toDecimalString / fromPaise', () => {
  it('writes two decimals', () => {
    expect(toDecimalString(123456)).toBe('1234.56');
    expect(toDecimalString(5)).toBe('0.05');
    expect(toDecimalString(-5)).toBe('-0.05');
    expect(fromPaise(123450)).toBe(1234.5);
  });

  it('fromPaise is the number its decimal text reads as, for any whole paise up to 2^53', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (paise) => {
        expect(fromPaise(paise)).toBe(Number(toDecimalString(paise)) || 0);
      }),
      { numRuns: 20_000 },
    );
    expect(Object.is(fromPaise(-0), 0)).toBe(true);
    expect(fromPaise(12.9)).toBe(0.12);
  });

  it('toPaise reads the text of numeric(14,2) as the general parse does', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 14) + 1, max: 10 ** 14 - 1 }), (paise) => {
        const text = toDecimalString(paise);
        expect(toPaise(text)).toBe(paise);
        expect(toPaise(` ${text}`)).toBe(paise);
      }),
      { numRuns: 20_000 },
    );
    expect(Object.is(toPaise('-0.00'), 0)).toBe(true);
  });
});

describe('divideRounded', () => {
  it('rounds half away from zero', () => {
    expect(divideRounded(5n, 2n)).toBe(3n);
    expect(divideRounded(4n, 3n)).toBe(1n);
    expect(divideRounded(5n, 3n)).toBe(2n);
    expect(divideRounded(-5n, 2n)).toBe(-3n);
  });
});

describe('formatInr', () => {
  it('groups digits the Indian way with the rupee sign', () => {
    expect(formatInr(12345678)).toBe('₹1,23,456.78');
    expect(formatInr(0)).toBe('₹0.00');
    expect(formatRupees(1234.5)).toBe('₹1,234.50');
  });
});
