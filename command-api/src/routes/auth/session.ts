import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses, LoginBody, SessionResponse } from '@kosh/contract';
import { checkSignIn, validateLogin } from '@kosh/domain';
import type { FastifyInstance } from 'fastify';
import { findUserByEmail } from './accounts';
import { authRateLimit, TOO_MANY_REQUESTS } from './limits';
import { LoginLockout } from './lockout';
import { verifyPassword } from './passwords';
import { normalizeEmail } from './secrets';
import { failOn, str, toWireUser } from './wire';

/** Spec section 7 (Auth): signing in. */
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
}
