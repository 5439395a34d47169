import { describe, expect, it } from 'vitest';
import {
  looksLikeRecoveryCode,
  matchedStep,
  newRecoveryCodes,
  newTotpSecret,
  totpCode,
  twoFactorKeys,
} from './two-factor-codes';
import { parseUserAgent } from './user-agent';

describe('two-factor codes (issue 32)', () => {
  const keys = twoFactorKeys('a-test-secret-of-enough-length-0123456789');

  it('matches RFC 6238 test vector 1 (SHA-1, 59 s) and gives its time step', () => {
    // RFC 6238 appendix B: secret "12345678901234567890", T = 59 s, 8 digits 94287082 → 6 digits 287082.
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(totpCode(secret, new Date(59_000))).toBe('287082');
    expect(matchedStep(secret, '287082', new Date(59_000))).toBe(1);
    // One step late still matches (clock drift), two does not.
    expect(matchedStep(secret, '287082', new Date(89_000))).toBe(1);
    expect(matchedStep(secret, '287082', new Date(120_000))).toBeNull();
    expect(matchedStep(secret, '28708', new Date(59_000))).toBeNull();
  });

  it('seals a secret so that only the same user and key open it', () => {
    const secret = newTotpSecret();
    const sealed = keys.seal(secret, 'alice');
    expect(sealed).not.toContain(secret);
    expect(keys.open(sealed, 'alice')).toBe(secret);
    expect(() => keys.open(sealed, 'bob')).toThrow();
    expect(() => twoFactorKeys('another-secret-of-enough-length-0123456789').open(sealed, 'alice')).toThrow();
  });

  it('hashes recovery codes per user, ignoring case and separators', () => {
    const [code] = newRecoveryCodes();
    expect(looksLikeRecoveryCode(code as string)).toBe(true);
    expect(looksLikeRecoveryCode('123456')).toBe(false);
    const hash = keys.hashRecoveryCode(code as string, 'alice');
    expect(keys.hashRecoveryCode((code as string).toUpperCase().replace('-', ' '), 'alice')).toBe(hash);
    expect(keys.hashRecoveryCode(code as string, 'bob')).not.toBe(hash);
  });
});

describe('browser and system from the user agent', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge',
      'Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari',
      'macOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
      'Samsung Internet',
      'Android',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1',
      'Chrome',
      'iOS',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox', 'Linux'],
    [undefined, 'Unknown browser', 'unknown system'],
  ])('%s', (agent, browser, os) => {
    expect(parseUserAgent(agent)).toEqual({ browser, os });
  });
});
