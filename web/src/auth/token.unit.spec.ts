import { describe, expect, it } from 'vitest';
import { isTokenExpired, tokenExpiresAt } from './token';

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const tokenWith = (payload: object) => `${encode({ alg: 'HS256' })}.${encode(payload)}.signature`;
const now = Date.parse('2026-11-21T10:00:00Z');

describe('a token counts as expired when its exp is past or it cannot be decoded (spec section 4)', () => {
  it('reads exp in seconds', () => {
    expect(tokenExpiresAt(tokenWith({ exp: 1_800_000_000 }))).toBe(1_800_000_000_000);
  });

  it('is valid before exp and expired from exp on', () => {
    expect(isTokenExpired(tokenWith({ exp: now / 1000 + 60 }), now)).toBe(false);
    expect(isTokenExpired(tokenWith({ exp: now / 1000 }), now)).toBe(true);
    expect(isTokenExpired(tokenWith({ exp: now / 1000 - 60 }), now)).toBe(true);
  });

  it('treats an undecodable token, or one without exp, as expired', () => {
    expect(isTokenExpired('not-a-token', now)).toBe(true);
    expect(isTokenExpired('a.%%%.c', now)).toBe(true);
    expect(isTokenExpired(tokenWith({ sub: 'someone' }), now)).toBe(true);
  });
});
