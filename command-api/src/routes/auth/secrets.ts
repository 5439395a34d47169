import { createHash, randomBytes } from 'node:crypto';
import { type IssuedToken, normalizeEmail } from '@kosh/domain';

/** Section 9: a reset link works for 1 hour. */
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;
/** The spec gives no lifetime for verification links; a day, and a resend issues a fresh one. */
export const VERIFICATION_LINK_TTL_MS = 24 * 60 * 60 * 1000;

export const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/** E-mail addresses are compared, reserved, stored and mailed as the domain normalizes them. */
export { normalizeEmail };

/**
 * A fresh single-use link token: 32 random bytes (base64url) for the mail; the event keeps only
 * its SHA-256 and its sealed form (`seal`: the platform's, see platform/src/token-seal.ts).
 */
export function issueLinkToken(
  seal: (token: string) => string,
  now: Date,
  ttlMs: number,
): { token: string; issued: IssuedToken } {
  const token = randomBytes(32).toString('base64url');
  return {
    token,
    issued: {
      tokenHash: sha256Hex(token),
      sealedToken: seal(token),
      expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
    },
  };
}
