import { describe, expect, it } from 'vitest';
import { axisMoney } from './chartFormat';

describe('axisMoney', () => {
  it('names the quarter ticks of a ₹3 lakh axis as they are, not rounded to another amount', () => {
    expect([0, 75_000, 150_000, 225_000, 300_000].map(axisMoney)).toEqual([
      '₹0',
      '₹75K',
      '₹1.5L',
      '₹2.25L',
      '₹3L',
    ]);
  });

  it('stays compact for crores', () => {
    expect(axisMoney(12_500_000)).toBe('₹1.25Cr');
  });
});
