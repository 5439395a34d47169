import { describe, expect, it } from 'vitest';
import { amountText } from './amountText';

describe('amountText: a number as typed or pasted, as the validators read it', () => {
  it.each([
    ['1,00,000', '100000'],
    ['₹ 5,000', '5000'],
    ['₹5,000.50', '5000.50'],
    ['12,34,567.89', '1234567.89'],
    ['₹ 1,00,00,000', '10000000'],
    ['  42.5 ', '42.5'],
    ['₹\u00a01,00,000', '100000'],
    ['1\u202f000', '1000'],
    ['999', '999'],
    ['0.5', '0.5'],
  ])('reads the Indian-formatted %j as %j', (typed, plain) => {
    expect(amountText(typed)).toBe(plain);
  });

  it('reads a cleared field (no value at all) as empty, never throwing', () => {
    expect(amountText(undefined)).toBe('');
    expect(amountText(null)).toBe('');
    expect(amountText('')).toBe('');
    expect(amountText('   ')).toBe('');
  });

  it.each([
    ['abc'],
    ['12abc'],
    ['1,000,000'],
    ['10,00'],
    ['1,00,0000'],
    [',100'],
    ['₹'],
    ['5,000₹'],
    ['-5,000'],
  ])('leaves %j as typed, for the form to refuse with its own message', (typed) => {
    const plain = amountText(typed);
    expect(plain).toBe(typed.replace(/\s/g, '').replace(/^₹/, ''));
    expect(/^\d+(\.\d+)?$/.test(plain)).toBe(false);
  });

  it('keeps a number that is already a number', () => {
    expect(amountText(2500.5)).toBe('2500.5');
  });
});
