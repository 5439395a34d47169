import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses, LoginBody, MessageResponse, SessionResponse } from '@kosh/contract';
import { checkSignIn, validateLogin } from '@kosh/domain';
import type { FastifyInstance } from 'fastify';
import { commandContext, commandRoutes } from '../../commands/route';
import { cancelErasureOnSignIn } from '../account/erasure';
import { findUserByEmail, ownUserStream } from './accounts';
import { authRateLimit, TOO_MANY_REQUESTS } from './limits';
import { LoginLockout } from './lockout';
import { verifyPassword } from './passwords';
import { normalizeEmail } from './secrets';
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
        summary: 'Sign in. Token valid 1 day, 30 days with remember_me.',
        body: LoginBody,
        response: { 200: SessionResponse, ...errorResponses(401, 403, 422, 429) },
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
      // Issue 32: signing in during the cooling-off period keeps the account.
      await cancelErasureOnSignIn(commandContext(request, { reply, userId: user.userId }), user);
      return {
        success: true as const,
        message: 'Login successful',
        data: {
          user: toWireUser(user),
          token: app.issueToken(user.userId, { rememberMe: request.body.remember_me === true }),
        },
      };
    },
  );

  /**
   * Logout (spec section 4) ends the session on the server too: the token stops working at once,
   * as after a password change. Every token of the user issued before it ends with it, since a
   * token names no session of its own to end alone.
   */
  commandRoutes(
    app,
    ownUserStream,
  )({
    method: 'POST',
    url: '/logout',
    schema: {
      tags: ['auth'],
      summary: 'Sign out: this token, and every other token of the user issued before now, stop working.',
      security: [{ bearerAuth: [] }],
      response: { 200: MessageResponse, ...errorResponses(401) },
    },
    options: { onRequest: [app.authenticate] },
    command: (_request, now) => ({ type: 'SignOut', data: { now } }),
    answer: () => ({ success: true as const, message: 'Logged out successfully', data: null }),
  });
}
