import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { type CodeProof, RECOVERY_CODE_COUNT } from '@kosh/domain';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/**
 * Issue 32: TOTP (RFC 6238: SHA-1, 6 digits, 30 s, as every authenticator app reads it) with
 * `otpauth`, the QR code with `qrcode` (SVG), and the keys that keep both out of the log in clear:
 * the secret is sealed with AES-256-GCM under a key derived from JWT_SECRET (bound to the user
 * as associated data, so a sealed secret cannot be moved to another account), and recovery codes
 * are stored as HMAC-SHA256 under another derived key, so the log (which auditors may export)
 * gives no way to check a guess offline.
 */
export const TOTP_PERIOD_S = 30;
/** Codes of the step before and after the current one are accepted too (clock drift). */
export const TOTP_WINDOW = 1;
const ISSUER = 'Kosh';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const derived = (secret: string, info: string) => Buffer.from(hkdfSync('sha256', secret, 'kosh', info, 32));

export type TwoFactorKeys = {
  seal(secretBase32: string, userId: string): string;
  open(sealed: string, userId: string): string;
  hashRecoveryCode(code: string, userId: string): string;
};

export function twoFactorKeys(jwtSecret: string): TwoFactorKeys {
  const sealKey = derived(jwtSecret, 'totp-secret-seal/v1');
  const codeKey = derived(jwtSecret, 'recovery-code-hash/v1');
  return {
    seal(secretBase32, userId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
      cipher.setAAD(Buffer.from(userId, 'utf8'));
      const sealed = Buffer.concat([cipher.update(secretBase32, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    },
    open(sealed, userId) {
      const bytes = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', sealKey, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(userId, 'utf8'));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
    hashRecoveryCode(code, userId) {
      return createHmac('sha256', codeKey)
        .update(`${userId}\n${normalizeRecoveryCode(code)}`)
        .digest('hex');
    },
  };
}

const totpOf = (secretBase32: string, label: string) =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });

/** A fresh 160-bit secret (RFC 4226's recommended length), base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URI an authenticator app reads from the QR code. */
export const otpauthUri = (secretBase32: string, email: string): string =>
  totpOf(secretBase32, email).toString();

/** The QR code of `uri` as an SVG data URL (the page's CSP allows `data:` images). */
export async function qrDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

/** The RFC 6238 time step a code matches at `now` (within ±TOTP_WINDOW), or null. */
export function matchedStep(secretBase32: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const timestamp = now.getTime();
  const delta = totpOf(secretBase32, 'x').validate({ token: code, timestamp, window: TOTP_WINDOW });
  if (delta === null) return null;
  return Math.floor(timestamp / 1000 / TOTP_PERIOD_S) + delta;
}

/** The code of `secretBase32` at `now` (tests and the browser test's authenticator). */
export const totpCode = (secretBase32: string, now: Date): string =>
  totpOf(secretBase32, 'x').generate({ timestamp: now.getTime() });

/** Crockford-like alphabet without look-alikes (0/o, 1/l/i). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes of 10 characters (about 49 bits each), written `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Case and separators do not matter when a recovery code is typed. */
export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Whether what was typed looks like a recovery code rather than a 6-digit code. */
export const looksLikeRecoveryCode = (code: string) => normalizeRecoveryCode(code).length === 10;

/**
 * What `code` proves for the user now: a recovery code's keyed hash, or the TOTP step it matches
 * under the sealed secret (null: none). Whether that proof is accepted (a step not used yet, a
 * hash not spent) is the user decider's to judge.
 */
export function proofOfCode(
  keys: TwoFactorKeys,
  userId: string,
  code: string,
  sealed: string | null,
  now: Date,
): CodeProof {
  if (looksLikeRecoveryCode(code)) return { kind: 'recovery', codeHash: keys.hashRecoveryCode(code, userId) };
  if (!sealed) return { kind: 'totp', step: null };
  return { kind: 'totp', step: matchedStep(keys.open(sealed, userId), code.replace(/\s/g, ''), now) };
}
