import type { RegisteredUser } from '@kosh/domain';

/**
 * The second factor's check for deleting an account (issue 32 item 4: "second factor when on").
 * null: the account has no second factor, so there is nothing to check. When two-factor sign-in
 * lands (issue 32 item 1), this is where its code check is called: 'missing' without a code,
 * 'wrong' for a code that does not verify (and counts against its lockout), 'ok' otherwise.
 */
export async function verifySecondFactor(
  _user: RegisteredUser,
  _code: string | undefined,
): Promise<'ok' | 'missing' | 'wrong' | null> {
  return null;
}
