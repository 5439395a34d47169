import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  errorResponses,
  LoginTwoFactorBody,
  MessageResponse,
  RecoveryCodesResponse,
  SessionResponse,
  TwoFactorCodeBody,
  TwoFactorDisableBody,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
} from '@kosh/contract';
import {
  type CodeProof,
  type FieldError,
  type RegisteredUser,
  UnauthorizedError,
  userDecider,
  userStreamId,
} from '@kosh/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadAggregate } from '../../commands/handle';
import { commandContext, commandRoutes } from '../../commands/route';
import { cancelErasureOnSignIn } from '../account/erasure';
import { authRateLimit, TOO_MANY_REQUESTS } from './limits';
import { LoginLockout } from './lockout';
import { verifyPassword } from './passwords';
import { ownSessions } from './session';
import { beginSession, newSession, openPendingToken, SIGN_IN_EXPIRED } from './session-start';
import {
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  proofOfCode,
  qrDataUrl,
  twoFactorKeys,
} from './two-factor-codes';
import { failOn, registeredOrNotFound, str, toWireUser } from './wire';

const CODE_REQUIRED = 'Code is required';
const PASSWORD_REQUIRED = 'Password is required';

const required = (fields: Record<string, [string, string]>): FieldError[] =>
  Object.entries(fields)
    .filter(([, [value]]) => value.trim() === '')
    .map(([field, [, message]]) => ({ field, message }));

/**
 * Issue 32, item 1: two-factor sign-in (TOTP, RFC 6238). Every route that checks a code counts it
 * like a password guess (lockout.ts: 10 failures per client and account in 15 minutes, then an
 * account-wide back-off for new addresses), besides the per-address limit; a code's time step is
 * recorded when used, so the same code (or an older one) never works twice.
 */
export async function twoFactorRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  const keys = twoFactorKeys(platform.config.JWT_SECRET);
  const lockout = new LoginLockout(() => platform.clock());
  const userCommand = commandRoutes(app, ownSessions);
  const limited = authRateLimit(app, 'twoFactor');

  /** Counts a code attempt of `userId` from this client; 429 once locked out. */
  function attempt(request: FastifyRequest, userId: string, reply?: FastifyReply) {
    const key = `two-factor:${userId}`;
    const decision = lockout.begin(request.ip, key);
    if (!decision.allowed) {
      reply?.header('Retry-After', String(decision.retryAfterSeconds));
      throw Object.assign(new Error(TOO_MANY_REQUESTS), { statusCode: 429 });
    }
    return { succeeded: () => lockout.succeeded(request.ip, key) };
  }

  async function userOf(userId: string): Promise<RegisteredUser> {
    const { state } = await loadAggregate(platform, userStreamId(userId), userDecider);
    return registeredOrNotFound(state);
  }

  /** What `code` proves for `user` now: a recovery code's hash, or the TOTP step it matches. */
  const proofOf = (user: RegisteredUser, code: string, sealed: string | null): CodeProof =>
    proofOfCode(keys, user.userId, code, sealed, platform.clock());

  const totpStep = (user: RegisteredUser, code: string, sealed: string | null) => {
    const proof = proofOf(user, code, sealed);
    return proof.kind === 'totp' ? proof.step : null;
  };

  app.get(
    '/2fa',
    {
      schema: {
        tags: ['auth'],
        summary: 'Whether two-factor sign-in is on, and how many recovery codes are left.',
        security: [{ bearerAuth: [] }],
        response: { 200: TwoFactorStatusResponse, ...errorResponses(401) },
      },
      onRequest: app.authenticate,
    },
    async (request) => {
      const { twoFactor } = (await userOf(request.userId)).security;
      return {
        success: true as const,
        data: { enabled: twoFactor !== null, recovery_codes_left: twoFactor?.recoveryCodeHashes.length ?? 0 },
      };
    },
  );

  userCommand({
    method: 'POST',
    url: '/2fa/setup',
    schema: {
      tags: ['auth'],
      summary: 'Start enrolling: a new secret, its otpauth URI and QR code. Nothing changes until confirmed.',
      security: [{ bearerAuth: [] }],
      response: { 200: TwoFactorSetupResponse, ...errorResponses(401, 409, 429) },
    },
    options: { onRequest: [app.authenticate], preHandler: limited },
    command: async ({ userId }, now) => {
      const secret = newTotpSecret();
      return { type: 'StartTwoFactorSetup', data: { sealedSecret: keys.seal(secret, userId), now } };
    },
    answer: async (result) => {
      const event = result.events.find((e) => e.type === 'TwoFactorSetupStarted');
      const user = registeredOrNotFound(result.state);
      if (event?.type !== 'TwoFactorSetupStarted') throw new Error('setup recorded no secret');
      const secret = keys.open(event.data.sealedSecret, user.userId);
      const uri = otpauthUri(secret, user.email);
      return {
        success: true as const,
        message: 'Scan the QR code with your authenticator app, then enter its code',
        data: { secret, otpauth_uri: uri, qr_code: await qrDataUrl(uri) },
      };
    },
  });

  /** Issue 32: recovery codes are made when asked for and shown once; they pass to the answer here. */
  const shownCodes = new WeakMap<FastifyRequest, string[]>();

  userCommand({
    method: 'POST',
    url: '/2fa/confirm',
    schema: {
      tags: ['auth'],
      summary:
        'Turn two-factor sign-in on with a code of the new secret. Answers 10 recovery codes, shown once.',
      security: [{ bearerAuth: [] }],
      body: TwoFactorCodeBody,
      response: { 200: RecoveryCodesResponse, ...errorResponses(401, 409, 422, 429) },
    },
    options: { onRequest: [app.authenticate], preHandler: limited },
    command: async (request, now) => {
      const code = str(request.body.code);
      failOn(required({ code: [code, CODE_REQUIRED] }));
      const user = await userOf(request.userId);
      const counted = attempt(request, user.userId);
      const step = totpStep(user, code, user.security.pendingSecret);
      if (step !== null) counted.succeeded();
      const codes = newRecoveryCodes();
      shownCodes.set(request, codes);
      const recoveryCodeHashes = codes.map((c) => keys.hashRecoveryCode(c, user.userId));
      return { type: 'ConfirmTwoFactor', data: { step, recoveryCodeHashes, now } };
    },
    answer: (_result, request) => ({
      success: true as const,
      message:
        'Two-factor sign-in is on. Keep these recovery codes somewhere safe: they are shown only once.',
      data: { recovery_codes: shownCodes.get(request) ?? [] },
    }),
  });

  userCommand({
    method: 'POST',
    url: '/2fa/recovery-codes',
    schema: {
      tags: ['auth'],
      summary: 'Replace the recovery codes (a code from the app needed); the old ones stop working.',
      security: [{ bearerAuth: [] }],
      body: TwoFactorCodeBody,
      response: { 200: RecoveryCodesResponse, ...errorResponses(401, 409, 422, 429) },
    },
    options: { onRequest: [app.authenticate], preHandler: limited },
    command: async (request, now) => {
      const code = str(request.body.code);
      failOn(required({ code: [code, CODE_REQUIRED] }));
      const user = await userOf(request.userId);
      const counted = attempt(request, user.userId);
      const step = totpStep(user, code, user.security.twoFactor?.sealedSecret ?? null);
      if (step !== null) counted.succeeded();
      const codes = newRecoveryCodes();
      shownCodes.set(request, codes);
      const recoveryCodeHashes = codes.map((c) => keys.hashRecoveryCode(c, user.userId));
      return { type: 'RegenerateRecoveryCodes', data: { step, recoveryCodeHashes, now } };
    },
    answer: (_result, request) => ({
      success: true as const,
      message: 'New recovery codes made. The old ones no longer work.',
      data: { recovery_codes: shownCodes.get(request) ?? [] },
    }),
  });

  userCommand({
    method: 'POST',
    url: '/2fa/disable',
    schema: {
      tags: ['auth'],
      summary: 'Turn two-factor sign-in off: the password and a code (or a recovery code).',
      security: [{ bearerAuth: [] }],
      body: TwoFactorDisableBody,
      response: { 200: MessageResponse, ...errorResponses(401, 409, 422, 429) },
    },
    options: { onRequest: [app.authenticate], preHandler: limited },
    command: async (request, now) => {
      const password = str(request.body.password);
      const code = str(request.body.code);
      failOn(required({ password: [password, PASSWORD_REQUIRED], code: [code, CODE_REQUIRED] }));
      const user = await userOf(request.userId);
      const counted = attempt(request, user.userId);
      const passwordMatches = await verifyPassword(user.passwordHash, password);
      const proof = proofOf(user, code, user.security.twoFactor?.sealedSecret ?? null);
      const good =
        proof.kind === 'totp'
          ? proof.step !== null
          : (user.security.twoFactor?.recoveryCodeHashes.includes(proof.codeHash) ?? false);
      if (passwordMatches && good) counted.succeeded();
      return { type: 'DisableTwoFactor', data: { passwordMatches, proof, now } };
    },
    answer: () => ({ success: true as const, message: 'Two-factor sign-in is off', data: null }),
  });

  app.post(
    '/login/2fa',
    {
      schema: {
        tags: ['auth'],
        summary: "Sign-in's second step: the pending token of POST /login and a code or a recovery code.",
        body: LoginTwoFactorBody,
        response: { 200: SessionResponse, ...errorResponses(401, 422, 429) },
      },
      preHandler: limited,
    },
    async (request, reply) => {
      const pendingToken = str(request.body.pending_token);
      const code = str(request.body.code);
      failOn(required({ code: [code, CODE_REQUIRED] }));
      if (!pendingToken) throw new UnauthorizedError(SIGN_IN_EXPIRED);
      const pending = openPendingToken(app, pendingToken);
      const counted = attempt(request, pending.userId, reply);
      const user = await userOf(pending.userId).catch(() => {
        throw new UnauthorizedError(SIGN_IN_EXPIRED);
      });
      const proof = proofOf(user, code, user.security.twoFactor?.sealedSecret ?? null);
      const session = newSession(request, pending.rememberMe);
      const now = platform.clock().toISOString();
      const token = await beginSession(
        request,
        reply,
        user.userId,
        session,
        {
          type: 'CompleteTwoFactorSignIn',
          data: {
            challengeId: pending.challengeId,
            challengeExpiresAt: pending.expiresAt,
            proof,
            session,
            now,
          },
        },
        pending.rememberMe,
      );
      counted.succeeded();
      // Issue 32: signing in during the cooling-off period keeps the account.
      await cancelErasureOnSignIn(commandContext(request, { reply, userId: user.userId }), user);
      return { success: true as const, message: 'Login successful', data: { user: toWireUser(user), token } };
    },
  );
}
