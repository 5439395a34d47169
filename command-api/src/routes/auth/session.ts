import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses, LoginBody, LoginResponse, MessageResponse } from '@kosh/contract';
import {
  checkSignIn,
  type UserCommand,
  type UserEvent,
  type UserState,
  userDecider,
  userStreamId,
  validateLogin,
} from '@kosh/domain';
import type { FastifyInstance } from 'fastify';
import { type CommandStream, commandContext, commandRoutes } from '../../commands/route';
import { cancelErasureOnSignIn } from '../account/erasure';
import { findUserByEmail } from './accounts';
import { authRateLimit, TOO_MANY_REQUESTS } from './limits';
import { LoginLockout } from './lockout';
import { verifyPassword } from './passwords';
import { normalizeEmail } from './secrets';
import { beginSession, issuePendingToken, newSession, SESSION_WAIT_FOR } from './session-start';
import { failOn, str, toWireUser } from './wire';

/** Spec section 7 (Auth): signing in, and out. */
export async function sessionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  const lockout = new LoginLockout(() => platform.clock());

  app.post(
    '/login',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Sign in. Token valid 1 day, 30 days with remember_me. With two-factor on, answers a pending token for POST /login/2fa instead.',
        body: LoginBody,
        response: { 200: LoginResponse, ...errorResponses(401, 403, 422, 429) },
      },
      preHandler: authRateLimit(app, 'login'),
    },
    async (request, reply) => {
      const raw = str(request.body.email);
      const password = str(request.body.password);
      failOn(validateLogin({ email: raw, password }));
      const email = normalizeEmail(raw);
      const decision = lockout.begin(request.ip, email);
      if (!decision.allowed) {
        reply.header('Retry-After', String(decision.retryAfterSeconds));
        throw Object.assign(new Error(TOO_MANY_REQUESTS), { statusCode: 429 });
      }
      const { state } = await findUserByEmail(platform, email);
      const matches = await verifyPassword(
        state.status === 'registered' ? state.passwordHash : null,
        password,
      );
      if (matches) lockout.succeeded(request.ip, email);
      const user = checkSignIn(state, matches);
      const rememberMe = request.body.remember_me === true;
      if (user.security.twoFactor) {
        return {
          success: true as const,
          message: 'Enter the code from your authenticator app',
          data: {
            two_factor_required: true as const,
            pending_token: issuePendingToken(app, user.userId, rememberMe),
          },
        };
      }
      const session = newSession(request, rememberMe);
      const now = platform.clock().toISOString();
      const token = await beginSession(
        request,
        reply,
        user.userId,
        session,
        { type: 'StartSession', data: { session, now } },
        rememberMe,
      );
      // Issue 32: signing in during the cooling-off period keeps the account.
      await cancelErasureOnSignIn(commandContext(request, { reply, userId: user.userId }), user);
      return { success: true as const, message: 'Login successful', data: { user: toWireUser(user), token } };
    },
  );

  /**
   * Logout (spec section 4) ends the session on the server too: the token stops working at once.
   * Since issue 32 a token names its session, so only this session ends (the others are listed,
   * and ended, under /api/auth/sessions).
   */
  commandRoutes(
    app,
    ownSessions,
  )({
    method: 'POST',
    url: '/logout',
    schema: {
      tags: ['auth'],
      summary: 'Sign out: this session ends, and its token stops working.',
      security: [{ bearerAuth: [] }],
      response: { 200: MessageResponse, ...errorResponses(401) },
    },
    options: { onRequest: [app.authenticate] },
    command: (request, now) => ({
      type: 'EndSession',
      data: { sessionId: request.sessionId, reason: 'signed-out', now },
    }),
    answer: () => ({ success: true as const, message: 'Logged out successfully', data: null }),
  });
}

/** The signed-in user's stream, answering once the token check sees the change (`sessions`). */
export const ownSessions: CommandStream<UserState, UserCommand, UserEvent> = {
  decider: userDecider,
  streamId: (_command, request) => userStreamId(request.userId),
  waitFor: SESSION_WAIT_FOR,
};
