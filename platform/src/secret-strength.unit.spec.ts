import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { estimatedSecretBits, MIN_SECRET_BITS, weakSecretReason } from './secret-strength';

/** Issue 28, item 7: the JWT_SECRET boot check wants the equivalent of 32 random bytes. */
describe('how guessable a JWT secret is', () => {
  it.each([
    ["jwt.io's example, doubled to pass a length check", 'your-256-bit-secret-your-256-bit-secret'],
    ["jwt.io's example", 'your-256-bit-secret'],
    ["jwt.io's newer example", 'a-string-secret-at-least-256-bits-long'],
    ['our own .env.example value', 'change-me-to-a-long-random-string-of-32-plus-chars'],
    ['a keyboard walk by rows', 'qwertyuiopasdfghjklzxcvbnm1234567890'],
    ['a keyboard walk by columns', '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p'],
    ['a keyboard walk of three-key columns', 'qazwsxedcrfvtgbyhnujmikolpQAZWSXEDCRFVTGBYHNUJMIKOLP'],
    ['a shifted keyboard walk', '!QAZ@WSX#EDC$RFV%TGB^YHN&UJM*IK<(OL>)P:?'],
    ['a walk back and forth', 'zaq12wsxcde34rfvbgt56yhnmju78ik,.lo90p;/'],
    ['a phrase repeated', 'kosh1234'.repeat(8)],
    ['one character repeated', 'x'.repeat(64)],
    ['16 random bytes in hex', randomBytes(16).toString('hex')],
  ])('refuses %s', (_name, secret) => {
    expect(weakSecretReason(secret)).not.toBeNull();
  });

  it('passes a random secret whose steps land on keyboard neighbours by chance', () => {
    // 32 random bytes (base64url) that a half-the-steps rule took for a keyboard walk: 127 bits.
    expect(weakSecretReason('Q1C2y5XyuJI8bq7IsDVz8KLpPmUTgF8bvVRtfTTP0_w')).toBeNull();
  });

  it('passes 32 or more random bytes however they are written', () => {
    for (let i = 0; i < 3000; i++) {
      for (const secret of [
        randomBytes(32).toString('base64'),
        randomBytes(32).toString('base64url'),
        randomBytes(32).toString('hex'),
        randomBytes(48).toString('base64'),
      ]) {
        expect(weakSecretReason(secret), secret).toBeNull();
      }
    }
  });

  it('scores a published example inside a longer secret as that example', () => {
    const tail = 'Q7m';
    expect(estimatedSecretBits(`your-256-bit-secret${tail}`)).toBeLessThan(MIN_SECRET_BITS / 4);
  });
});
