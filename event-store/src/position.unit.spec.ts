import { describe, expect, it } from 'vitest';
import { START_POSITION } from './port';
import { comparePositions, decodePosition, encodePosition } from './position';

describe('position tokens', () => {
  it('sort as strings in (transaction id, global position) order', () => {
    const tokens = [
      encodePosition(900, 5),
      encodePosition(12, 7),
      encodePosition(12, 30),
      encodePosition(1000, 1),
    ];
    expect([...tokens].sort(comparePositions)).toEqual([tokens[1], tokens[2], tokens[0], tokens[3]]);
    expect(START_POSITION < tokens[1]!).toBe(true);
  });

  it('round-trip, with the start position as zero', () => {
    expect(decodePosition(encodePosition('18446744073709551615', 42))).toEqual({
      transactionId: 18446744073709551615n,
      globalPosition: 42n,
    });
    expect(decodePosition(START_POSITION)).toEqual({ transactionId: 0n, globalPosition: 0n });
    expect(decodePosition(null)).toEqual({ transactionId: 0n, globalPosition: 0n });
    expect(() => decodePosition('12:34')).toThrow(/Invalid event position/);
  });
});
