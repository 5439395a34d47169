import {
  emailReservationDecider,
  emailStreamId,
  type RegisteredUser,
  type UserCommand,
  type UserEvent,
  type UserState,
  userDecider,
  userStreamId,
} from '@kosh/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type CommandContext, handleCommand, loadAggregate } from '../../commands/handle';
import { type CommandStream, commandContext } from '../../commands/route';
import type { Platform } from '../../platform';
import { sha256Hex } from './secrets';

/**
 * Read models the auth answers and the next requests rely on: the user, and the sessions, which
 * a password change or reset ends (the next request with an ended session's token is refused).
 */
const WAIT_FOR = ['users', 'sessions'] as const;

/** The signed-in user's own stream, for the command routes of the profile and password. */
export const ownUserStream: CommandStream<UserState, UserCommand, UserEvent> = {
  decider: userDecider,
  streamId: (_command, request) => userStreamId(request.userId),
  waitFor: WAIT_FOR,
};

export const runUserCommand = (context: CommandContext, userId: string, command: UserCommand) =>
  handleCommand(context, {
    streamId: userStreamId(userId),
    decider: userDecider,
    command,
    waitFor: WAIT_FOR,
  });

const nowOf = (context: CommandContext) => context.platform.clock().toISOString();

/** Whether `holder` is registered with `email` (else a reservation of theirs may be stale). */
async function usesAddress(platform: Platform, holder: string | null, email: string): Promise<boolean> {
  if (!holder) return true;
  const { state } = await loadAggregate(platform, userStreamId(holder), userDecider);
  return state.status === 'registered' && state.email === email;
}

/** Reserves `email` for `userId`; a taken address is a 409 (uniqueness lives in this stream). */
export async function reserveEmail(context: CommandContext, email: string, userId: string) {
  const streamId = emailStreamId(email, sha256Hex);
  const { state } = await loadAggregate(context.platform, streamId, emailReservationDecider);
  const holderUsesAddress =
    state.heldBy === userId || (await usesAddress(context.platform, state.heldBy, email));
  return handleCommand(context, {
    streamId,
    decider: emailReservationDecider,
    command: { type: 'ReserveEmail', data: { email, userId, now: nowOf(context), holderUsesAddress } },
  });
}

export const releaseEmail = (context: CommandContext, email: string, userId: string) =>
  handleCommand(context, {
    streamId: emailStreamId(email, sha256Hex),
    decider: emailReservationDecider,
    command: { type: 'ReleaseEmail', data: { email, userId, now: nowOf(context) } },
  });

/** E-mail to account through the reservation stream: the source of truth, never behind. */
export async function findUserByEmail(
  platform: Platform,
  email: string,
): Promise<{ userId: string | null; state: UserState }> {
  const { state: reservation } = await loadAggregate(
    platform,
    emailStreamId(email, sha256Hex),
    emailReservationDecider,
  );
  const unknown = { userId: null, state: userDecider.initialState() };
  if (!reservation.heldBy) return unknown;
  const { state } = await loadAggregate(platform, userStreamId(reservation.heldBy), userDecider);
  // A reservation left over from an unfinished change does not make the address the user's.
  if (state.status !== 'registered' || state.email !== email) return unknown;
  return { userId: reservation.heldBy, state };
}

/**
 * Who holds `email`'s reservation (null: nobody), and whether they have an account: one who has
 * not is a registration still under way, or stopped between its two appends.
 */
export async function reservationHolder(
  platform: Platform,
  email: string,
): Promise<{ userId: string; registered: boolean } | null> {
  const { state: reservation } = await loadAggregate(
    platform,
    emailStreamId(email, sha256Hex),
    emailReservationDecider,
  );
  if (!reservation.heldBy) return null;
  const { state } = await loadAggregate(platform, userStreamId(reservation.heldBy), userDecider);
  return { userId: reservation.heldBy, registered: state.status === 'registered' };
}

/** Tells `ownerId` by mail that someone tried to claim their address (EmailClaimAttempted). */
export function noteClaim(
  request: FastifyRequest,
  ownerId: string,
  email: string,
  via: 'register' | 'profile',
) {
  const context = commandContext(request, { userId: ownerId });
  return runUserCommand(context, ownerId, {
    type: 'NoteEmailClaimAttempt',
    data: { email, via, now: nowOf(context) },
  });
}

/**
 * After the answer, which is the same whether or not an account has `email` (no enumeration):
 * when one has, runs the command `commandFor` makes for it (none: nothing to do).
 */
export function afterAnswerForAccount(
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
  commandFor: (user: RegisteredUser, now: Date) => UserCommand | null,
): void {
  const { platform } = request.server;
  request.server.afterAnswer(request, reply, async () => {
    const { userId, state } = await findUserByEmail(platform, email);
    if (!userId || state.status !== 'registered') return;
    const command = commandFor(state, platform.clock());
    if (command) await runUserCommand(commandContext(request, { userId }), userId, command);
  });
}
