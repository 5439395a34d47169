import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  EmailBody,
  errorResponses,
  LoginResponse,
  MessageResponse,
  RegisterBody,
  VerifyEmailBody,
} from '@kosh/contract';
import {
  BadRequestError,
  ConflictError,
  USER_MESSAGES,
  userDecider,
  userStreamId,
  validateRegister,
} from '@kosh/domain';
import { findUserIdByVerificationTokenHash } from '@kosh/projections';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { loadAggregate } from '../../commands/handle';
import { commandContext } from '../../commands/route';
import {
  afterAnswerForAccount,
  noteClaim,
  releaseEmail,
  reservationHolder,
  reserveEmail,
  runUserCommand,
} from './accounts';
import { authRateLimit } from './limits';
import { hashPassword } from './passwords';
import { issueLinkToken, normalizeEmail, sha256Hex, VERIFICATION_LINK_TTL_MS } from './secrets';
import { beginSession, issuePendingToken, newSession } from './session-start';
import { failOn, linkAddress, registeredOrNotFound, str, toWireUser } from './wire';

/**
 * The one answer to a registration, whether the address was free or taken (an account for it
 * exists): telling the two apart would let anyone probe who has an account. The spec's success
 * shape is kept (201, success, the message to check the mailbox); `data` carries no user, as
 * there may be none to show.
 */
const REGISTERED = {
  success: true as const,
  message: 'Registration successful. Please check your email to verify your account.',
  data: null,
};

const isTaken = (error: unknown) => error instanceof ConflictError && error.errorCode === 'EMAIL_TAKEN';
/** A concurrent registration appended to the same user stream first (handle.ts gave up retrying). */
const isStaleVersion = (error: unknown) =>
  error instanceof ConflictError && error.errorCode === 'STALE_VERSION';

/** The last `size` durations (ms) and their median (0 before the first). */
function recentTimes(size: number) {
  const times: number[] = [];
  return {
    add(ms: number) {
      times.push(ms);
      if (times.length > size) times.shift();
    },
    median(): number {
      const sorted = [...times].sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)] ?? 0;
    },
  };
}

/** Spec section 7 (Auth): a new account, and proving its e-mail address. */
export async function registrationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  const now = () => platform.clock();
  const newAccountTimes = recentTimes(31);

  /**
   * Registration proper, stored before the answer: a new account, or (the address is taken) a
   * mail to its owner. Both paths read the address's reservation and one user stream and append
   * to a stream before answering, so that their times stay alike (no enumeration by timing).
   */
  async function registerOrTellOwner(
    request: FastifyRequest,
    input: { firstName: string; lastName: string; email: string; passwordHash: string },
  ): Promise<'registered' | 'owner told'> {
    const { email } = input;
    const newUserId = randomUUID();
    let userId: string = newUserId;
    try {
      await reserveEmail(commandContext(request, { userId }), email, userId);
    } catch (error) {
      if (!isTaken(error)) throw error;
      const holder = await reservationHolder(platform, email);
      if (!holder) throw error;
      if (holder.registered) {
        await noteClaim(request, holder.userId, email, 'register');
        return 'owner told';
      }
      // Held by a registration that stopped between its two appends (its client got no answer,
      // or is retrying now): this one completes it, so that the address does not stay unusable
      // for STALE_RESERVATION_MS. Two at once: the first to register wins, the other is "taken".
      userId = holder.userId;
    }
    const context = commandContext(request, { userId });
    const { issued } = issueLinkToken(platform.sealToken, now(), VERIFICATION_LINK_TTL_MS);
    try {
      await runUserCommand(context, userId, {
        type: 'RegisterUser',
        data: { userId, ...input, verification: issued, now: now().toISOString() },
      });
    } catch (error) {
      if (isTaken(error) || isStaleVersion(error)) {
        await noteClaim(request, userId, email, 'register');
        return 'owner told';
      }
      if (userId === newUserId) await releaseEmail(context, email, userId);
      throw error;
    }
    return 'registered';
  }

  app.post(
    '/register',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Create an account; a verification mail follows. Does not sign in. The same answer for a taken address, whose owner is told by mail instead.',
        body: RegisterBody,
        response: { 201: MessageResponse, ...errorResponses(422, 429) },
      },
      preHandler: authRateLimit(app, 'register'),
    },
    async (request, reply) => {
      const body = request.body;
      const input = {
        firstName: str(body.first_name).trim(),
        lastName: str(body.last_name).trim(),
        email: str(body.email),
        password: str(body.password),
      };
      failOn(validateRegister(input));
      const passwordHash = await hashPassword(input.password);
      const { firstName, lastName } = input;
      const email = normalizeEmail(input.email);
      // Stored before it is acknowledged: a 201 is an account (or its owner told), whatever
      // happens to this process or the database after the answer.
      const started = performance.now();
      const outcome = await registerOrTellOwner(request, { firstName, lastName, email, passwordHash });
      const took = performance.now() - started;
      // Telling an owner appends less than making an account: it answers no sooner than a new
      // account typically does here, so the time does not tell a taken address either.
      if (outcome === 'registered') newAccountTimes.add(took);
      else if (newAccountTimes.median() > took) await sleep(newAccountTimes.median() - took);
      return reply.status(201).send(REGISTERED);
    },
  );

  app.post(
    '/verify-email',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Verify the e-mail address with the mailed single-use token; signs in (up to the code with two-factor on).',
        body: VerifyEmailBody,
        response: { 200: LoginResponse, ...errorResponses(400, 429) },
      },
      preHandler: authRateLimit(app, 'verifyEmail'),
    },
    async (request, reply) => {
      const token = str(request.body.token);
      const tokenHash = sha256Hex(token);
      const userId = token ? await findUserIdByVerificationTokenHash(platform.db, tokenHash) : null;
      if (!userId)
        throw new BadRequestError(USER_MESSAGES.invalidVerificationLink, 'INVALID_VERIFICATION_TOKEN');
      const context = commandContext(request, { reply, userId });
      const { state: before } = await loadAggregate(platform, userStreamId(userId), userDecider);
      // A link confirming a new address: the address is reserved before the account moves to it.
      const link = before.status === 'registered' ? before.verification : null;
      const currentEmail = before.status === 'registered' ? before.email : null;
      const movesTo = link?.tokenHash === tokenHash && link.email !== currentEmail ? link.email : null;
      if (movesTo) await reserveEmail(context, movesTo, userId);
      let result: Awaited<ReturnType<typeof runUserCommand>>;
      try {
        result = await runUserCommand(context, userId, {
          type: 'VerifyEmail',
          data: { tokenHash, now: now().toISOString() },
        });
      } catch (error) {
        if (movesTo) await releaseEmail(context, movesTo, userId);
        throw error;
      }
      for (const event of result.events) {
        if (event.type === 'EmailChanged') await releaseEmail(context, event.data.previousEmail, userId);
      }
      const user = registeredOrNotFound(result.state);
      // Opening the link signs in, as a password would: with two-factor on, only up to the code.
      if (user.security.twoFactor) {
        return {
          success: true as const,
          message: 'Email verified successfully. Enter the code from your authenticator app',
          data: { two_factor_required: true as const, pending_token: issuePendingToken(app, userId, false) },
        };
      }
      const session = newSession(request, false);
      const accessToken = await beginSession(
        request,
        reply,
        userId,
        session,
        { type: 'StartSession', data: { session, now: now().toISOString() } },
        false,
      );
      return {
        success: true as const,
        message: 'Email verified successfully',
        data: { user: toWireUser(user), token: accessToken },
      };
    },
  );

  app.post(
    '/resend-verification',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a new verification link. Same answer whether or not the address has an account.',
        body: EmailBody,
        response: { 200: MessageResponse, ...errorResponses(422, 429) },
      },
      preHandler: authRateLimit(app, 'resendVerification'),
    },
    async (request, reply) => {
      afterAnswerForAccount(request, reply, linkAddress(request.body.email), (user, at) =>
        user.emailVerified
          ? null
          : {
              type: 'RequestEmailVerification',
              data: {
                verification: issueLinkToken(platform.sealToken, at, VERIFICATION_LINK_TTL_MS).issued,
                now: at.toISOString(),
              },
            },
      );
      return {
        success: true as const,
        message: 'If an unverified account exists for this email, a verification email has been sent.',
        data: null,
      };
    },
  );
}
