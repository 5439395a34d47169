import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { EraseAccountBody, ErasureResponse, errorResponses } from '@kosh/contract';
import {
  erasureDecider,
  erasureStreamId,
  type RegisteredUser,
  userDecider,
  userStreamId,
} from '@kosh/domain';
import { getPendingErasure, type PendingErasure } from '@kosh/projections';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type CommandContext, handleCommand, loadAggregate } from '../../commands/handle';
import { commandContext } from '../../commands/route';
import type { Platform } from '../../platform';
import { TOO_MANY_REQUESTS } from '../auth/limits';
import { verifyPassword } from '../auth/passwords';
import { twoFactorKeys } from '../auth/two-factor-codes';
import { registeredOrNotFound, str } from '../auth/wire';
import { verifySecondFactor } from './second-factor';

/** The read model the erasure answers and the banner read. */
const WAIT_FOR = ['erasures'] as const;

const MINUTE = 60_000;
/** Deleting asks for the password: counted per user like a sign-in, so it cannot be used to guess. */
export const ERASURE_LIMIT = { max: 10, windowMs: 15 * MINUTE };
/** An export reads everything the user has: a few an hour is plenty. */
export const EXPORT_LIMIT = { max: 5, windowMs: 60 * MINUTE };

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** A `preHandler` counting the route per signed-in user; 429 with the spec's message past the limit. */
export function perUserLimit(
  app: FastifyInstance,
  key: string,
  limit: { max: number; windowMs: number },
): Hook {
  const byUser = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: (request) => `${key}:user:${request.userId}`,
  });
  return async (request, reply) => {
    if (!app.platform.config.RATE_LIMIT_ENABLED) return;
    const result = await byUser(request);
    if (!result.isAllowed && result.isExceeded) {
      reply.header('Retry-After', String(result.ttlInSeconds));
      throw Object.assign(new Error(TOO_MANY_REQUESTS), { statusCode: 429 });
    }
  };
}

const wireOf = (pending: PendingErasure | null) =>
  pending ? { requested_at: pending.requestedAt, erase_after: pending.eraseAfter } : null;

const eraseAfterOf = (events: readonly { type: string; data: unknown }[]) => {
  const requested = events.find((e) => e.type === 'AccountErasureRequested');
  return requested ? (requested.data as { requestedAt: string; eraseAfter: string }) : null;
};

/**
 * Signing in cancels a pending erasure (issue 32 item 4). Called by the sign-in route once the
 * user is known to be who they say; records nothing when no erasure is pending.
 */
export async function cancelErasureOnSignIn(context: CommandContext, user: RegisteredUser): Promise<void> {
  await handleCommand(context, {
    streamId: erasureStreamId(user.userId),
    decider: erasureDecider,
    command: {
      type: 'CancelErasure',
      data: {
        userId: user.userId,
        email: user.email,
        via: 'sign-in',
        now: context.platform.clock().toISOString(),
      },
    },
    waitFor: WAIT_FOR,
  });
}

async function ownUser(platform: Platform, userId: string): Promise<RegisteredUser> {
  const { state } = await loadAggregate(platform, userStreamId(userId), userDecider);
  return registeredOrNotFound(state);
}

/** Issue 32 item 4: `DELETE /api/account`, `POST /api/account/restore`, `GET /api/account/erasure`. */
export async function erasureRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  const keys = twoFactorKeys(platform.config.JWT_SECRET);
  const security = [{ bearerAuth: [] }];
  const tags = ['account'];

  app.get(
    '/erasure',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The pending deletion of your account, if any (null when none)',
        response: { 200: ErasureResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { erasure: wireOf(await getPendingErasure(platform.db, request.userId)) },
    }),
  );

  app.delete(
    '/',
    {
      onRequest: app.authenticate,
      preHandler: perUserLimit(app, 'account-erasure', ERASURE_LIMIT),
      schema: {
        tags,
        security,
        summary:
          'Delete your account: password, the second factor when on, and the word DELETE. Erased after 7 days unless you sign in before.',
        body: EraseAccountBody,
        response: { 200: ErasureResponse, ...errorResponses(401, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const password = str(body.password);
      const user = await ownUser(platform, request.userId);
      const passwordMatches = password.length > 0 && (await verifyPassword(user.passwordHash, password));
      const secondFactor = await verifySecondFactor(user, body.code, keys, platform.clock());
      const result = await handleCommand(commandContext(request, { reply }), {
        streamId: erasureStreamId(request.userId),
        decider: erasureDecider,
        command: {
          type: 'RequestErasure',
          data: {
            userId: request.userId,
            email: user.email,
            passwordGiven: password.length > 0,
            passwordMatches,
            secondFactor,
            confirmation: str(body.confirmation),
            now: platform.clock().toISOString(),
          },
        },
        waitFor: WAIT_FOR,
      });
      const requested = eraseAfterOf(result.events);
      return {
        success: true as const,
        message: 'Your account will be deleted in 7 days. Sign in before then to keep it.',
        data: {
          erasure: requested
            ? { requested_at: requested.requestedAt, erase_after: requested.eraseAfter }
            : null,
        },
      };
    },
  );

  app.post(
    '/restore',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Cancel the pending deletion of your account',
        response: { 200: ErasureResponse, ...errorResponses(401, 404, 409) },
      },
    },
    async (request, reply) => {
      const user = await ownUser(platform, request.userId);
      await handleCommand(commandContext(request, { reply }), {
        streamId: erasureStreamId(request.userId),
        decider: erasureDecider,
        command: {
          type: 'CancelErasure',
          data: {
            userId: user.userId,
            email: user.email,
            via: 'restore',
            now: platform.clock().toISOString(),
          },
        },
        waitFor: WAIT_FOR,
      });
      return {
        success: true as const,
        message: 'Deletion cancelled. Your account stays.',
        data: { erasure: null },
      };
    },
  );
}
