import type { RegisteredUser } from '@kosh/domain';
import { looksLikeRecoveryCode, matchedStep, type TwoFactorKeys } from '../auth/two-factor-codes';

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
  if (looksLikeRecoveryCode(given)) {
    return factor.recoveryCodeHashes.includes(keys.hashRecoveryCode(given, user.userId)) ? 'ok' : 'wrong';
  }
  const step = matchedStep(keys.open(factor.sealedSecret, user.userId), given.replace(/\s/g, ''), now);
  return step !== null && step > factor.lastStep ? 'ok' : 'wrong';
}
