import {
  type EmailReservationEvent,
  emailStreamId,
  NotFoundError,
  type ResetTwoFactor,
  userDecider,
  userStreamId,
} from '@kosh/domain';
import { handleCommand } from '../commands/handle';
import type { Platform } from '../platform';
import { sha256Hex } from '../routes/auth/secrets';

export type TwoFactorResetOutcome = Readonly<{
  userId: string;
  sessionsEnded: number;
  position: string | null;
}>;

/** The account that holds `email` now, from the address's own reservation stream (not a read model). */
async function holderOf(platform: Platform, email: string): Promise<string | null> {
  const { events } = await platform.eventStore.readStream(emailStreamId(email, sha256Hex));
  let holder: string | null = null;
  for (const event of events as unknown as EmailReservationEvent[]) {
    holder = event.type === 'EmailReserved' ? event.data.userId : null;
  }
  return holder;
}

/**
 * An operator turns two-factor sign-in off for someone who lost both the authenticator and the
 * recovery codes (`npm run reset-two-factor`, platform/src/two-factor-reset-cli.ts). The operator
 * has checked who they are out of band; the reset is an event of the user's stream
 * (`TwoFactorReset`, with who and why), every session ends with it, the owner is mailed, and their
 * History shows it. Refused when two-factor sign-in is not on (nothing to reset).
 */
export async function resetTwoFactor(
  platform: Platform,
  input: Readonly<{ email: string; operator: string; reason: string }>,
): Promise<TwoFactorResetOutcome> {
  const userId = await holderOf(platform, input.email);
  if (!userId) throw new NotFoundError('No account uses that e-mail address');
  const command: ResetTwoFactor = {
    type: 'ResetTwoFactor',
    data: { operator: input.operator, reason: input.reason, now: platform.clock().toISOString() },
  };
  const result = await handleCommand(
    { platform, userId },
    { streamId: userStreamId(userId), decider: userDecider, command, waitFor: ['users', 'sessions'] },
  );
  return {
    userId,
    sessionsEnded: result.events.filter((e) => e.type === 'SessionEnded').length,
    position: result.position,
  };
}
