import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ChangePasswordBody,
  EmailBody,
  errorResponses,
  MessageResponse,
  ResetPasswordBody,
  TokenResponse,
} from '@kosh/contract';
import {
  BadRequestError,
  USER_MESSAGES,
  userDecider,
  userStreamId,
  validateChangePassword,
  validateResetPassword,
} from '@kosh/domain';
import { findUserIdByResetTokenHash } from '@kosh/projections';
import type { FastifyInstance } from 'fastify';
import { loadAggregate } from '../../commands/handle';
import { commandContext, commandRoutes } from '../../commands/route';
import { afterAnswerForAccount, runUserCommand } from './accounts';
import { authRateLimit } from './limits';
import { hashPassword, verifyPassword } from './passwords';
import { issueLinkToken, RESET_LINK_TTL_MS, sha256Hex } from './secrets';
import { ownSessions } from './session';
import { failOn, linkAddress, registeredOrNotFound, str } from './wire';

/** Spec section 7 (Auth): changing a password, and resetting a forgotten one by mail. */
export async function passwordRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  const userCommand = commandRoutes(app, ownSessions);

  userCommand({
    method: 'PUT',
    url: '/change-password',
    schema: {
      tags: ['auth'],
      summary: 'Change the password; every other session ends, and this one gets a fresh token.',
      security: [{ bearerAuth: [] }],
      body: ChangePasswordBody,
      response: { 200: TokenResponse, ...errorResponses(401, 404, 422) },
    },
    options: { onRequest: [app.authenticate] },
    command: async ({ userId, sessionId, body }, now) => {
      const currentPassword = str(body.current_password);
      const newPassword = str(body.new_password);
      failOn(validateChangePassword({ currentPassword, newPassword }));
      const { state } = await loadAggregate(platform, userStreamId(userId), userDecider);
      const user = registeredOrNotFound(state);
      const matches = await verifyPassword(user.passwordHash, currentPassword);
      const passwordHash = matches ? await hashPassword(newPassword) : '';
      return {
        type: 'ChangePassword',
        data: { currentPasswordMatches: matches, passwordHash, now, keptSessionId: sessionId },
      };
    },
    answer: (_result, { userId, sessionId }) => ({
      success: true as const,
      message: 'Password changed successfully',
      data: { token: app.issueToken(userId, { sessionId }) },
    }),
  });

  app.post(
    '/forgot-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a reset link valid for 1 hour. Same answer whether or not the address has an account.',
        body: EmailBody,
        response: { 200: MessageResponse, ...errorResponses(422, 429) },
      },
      preHandler: authRateLimit(app, 'forgotPassword'),
    },
    async (request, reply) => {
      afterAnswerForAccount(request, reply, linkAddress(request.body.email), (_user, at) => ({
        type: 'RequestPasswordReset',
        data: {
          reset: issueLinkToken(platform.sealToken, at, RESET_LINK_TTL_MS).issued,
          now: at.toISOString(),
        },
      }));
      return {
        success: true as const,
        message: 'If an account exists for this email, a password reset link has been sent.',
        data: null,
      };
    },
  );

  app.post(
    '/reset-password',
    {
      schema: {
        tags: ['auth'],
        summary: "Set a new password with a mailed reset token (register's password rule). Works once.",
        body: ResetPasswordBody,
        response: { 200: MessageResponse, ...errorResponses(400, 422, 429) },
      },
      preHandler: authRateLimit(app, 'resetPassword'),
    },
    async (request, reply) => {
      const token = str(request.body.token);
      const password = str(request.body.password);
      failOn(validateResetPassword({ password }));
      const tokenHash = sha256Hex(token);
      const userId = token ? await findUserIdByResetTokenHash(platform.db, tokenHash) : null;
      if (!userId) throw new BadRequestError(USER_MESSAGES.invalidResetLink, 'INVALID_RESET_TOKEN');
      const passwordHash = await hashPassword(password);
      await runUserCommand(commandContext(request, { reply, userId }), userId, {
        type: 'ResetPassword',
        data: { tokenHash, passwordHash, now: platform.clock().toISOString() },
      });
      return {
        success: true as const,
        message: 'Password has been reset successfully. Please sign in with your new password.',
        data: null,
      };
    },
  );
}
