import type { RegisteredUser } from '@kosh/domain';
import { proofOfCode, type TwoFactorKeys } from '../auth/two-factor-codes';

/**
 * The second factor's check for deleting an account (issue 32 item 4: "second factor when on").
 * null: the account has no second factor, so there is nothing to check; 'missing' without a code;
 * 'wrong' for a code that does not verify now (a TOTP code of a step already used, or a recovery
 * code already spent, is wrong: the sign-in rules); 'ok' otherwise. Checking consumes nothing: the
 * request is cancellable for 7 days, and a code that lets the owner ask it still lets them sign in.
 */
export async function verifySecondFactor(
  user: RegisteredUser,
  code: string | undefined,
  keys: TwoFactorKeys,
  now: Date,
): Promise<'ok' | 'missing' | 'wrong' | null> {
  const factor = user.security.twoFactor;
  if (!factor) return null;
  const given = (code ?? '').trim();
  if (given === '') return 'missing';
  const proof = proofOfCode(keys, user.userId, given, factor.sealedSecret, now);
  if (proof.kind === 'recovery') return factor.recoveryCodeHashes.includes(proof.codeHash) ? 'ok' : 'wrong';
  return proof.step !== null && proof.step > factor.lastStep ? 'ok' : 'wrong';
}
