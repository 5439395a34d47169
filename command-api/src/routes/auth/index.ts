import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  BadRequestError,
  ConflictError,
  checkSignIn,
  emailReservationDecider,
  emailStreamId,
  type FieldError,
  NotFoundError,
  USER_MESSAGES,
  type UserCommand,
  type UserState,
  userDecider,
  userStreamId,
  ValidationError,
  validateChangePassword,
  validateForgotPassword,
  validateLogin,
  validateProfile,
  validateRegister,
  validateResetPassword,
} from '@kosh/domain';
import {
  findUserIdByResetTokenHash,
  findUserIdByVerificationTokenHash,
  getUser,
} from '@kosh/projections/users/queries';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type CommandContext, handleCommand, loadAggregate } from '../../commands/handle';
import {
  ChangePasswordBody,
  EmailBody,
  errorResponses,
  LoginBody,
  MessageResponse,
  ProfileBody,
  RegisterBody,
  ResetPasswordBody,
  SessionResponse,
  TokenResponse,
  UserResponse,
  VerifyEmailBody,
  type WireUser,
} from '../../schemas/auth';
import { authRateLimit, TOO_MANY_REQUESTS } from './limits';
import { LoginLockout } from './lockout';
import { hashPassword, verifyPassword } from './passwords';
import { deletePicture, pictureTooLargeError, readUploadedPicture, storePicture } from './pictures';
import {
  issueLinkToken,
  normalizeEmail,
  RESET_LINK_TTL_MS,
  sha256Hex,
  VERIFICATION_LINK_TTL_MS,
} from './secrets';

/** Read models the auth answers and the next requests rely on. */
const WAIT_FOR = ['users'] as const;

/** The JSON picture upload carries up to 5 MB as base64 (~6.7 MB); room for a 6 MB try to get a 422. */
const PICTURE_BODY_LIMIT = 12 * 1024 * 1024;

const toWireField = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The domain names fields in camelCase; a 422 names the field the client sent (first_name). */
function failOn(errors: FieldError[]): void {
  if (errors.length > 0) {
    throw new ValidationError(errors.map((e) => ({ field: toWireField(e.field), message: e.message })));
  }
}

async function withWireFields<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ValidationError) failOn(error.errors);
    throw error;
  }
}

type UserView = {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  emailVerified: boolean;
  profilePicture: string | null;
  createdAt: string;
};

export function toWireUser(user: UserView): WireUser {
  return {
    id: user.userId,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    email_verified: user.emailVerified,
    profile_picture: user.profilePicture,
    created_at: user.createdAt,
  };
}

function registeredOrNotFound(state: UserState) {
  if (state.status !== 'registered') throw new NotFoundError(USER_MESSAGES.userNotFound);
  return state;
}

const str = (value: string | undefined) => value ?? '';

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

/** Spec section 7 (Auth). */
export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const platform = () => app.platform;
  const now = () => platform().clock();
  const ctx = (request: FastifyRequest, reply: FastifyReply | undefined, userId: string): CommandContext => ({
    platform: platform(),
    userId,
    reply,
    correlationId: request.id,
  });

  const lockout = new LoginLockout(now);

  const runUserCommand = (context: CommandContext, userId: string, command: UserCommand) =>
    handleCommand(context, {
      streamId: userStreamId(userId),
      decider: userDecider,
      command,
      waitFor: WAIT_FOR,
    });

  /** Whether `holder` is registered with `email` (else a reservation of theirs may be stale). */
  async function usesAddress(holder: string | null, email: string): Promise<boolean> {
    if (!holder) return true;
    const { state } = await loadAggregate(platform(), userStreamId(holder), userDecider);
    return state.status === 'registered' && state.email === email;
  }

  /** Reserves `email` for `userId`; a taken address is a 409 (uniqueness lives in this stream). */
  async function reserveEmail(context: CommandContext, email: string, userId: string) {
    const streamId = emailStreamId(email, sha256Hex);
    const { state } = await loadAggregate(platform(), streamId, emailReservationDecider);
    const holderUsesAddress = state.heldBy === userId || (await usesAddress(state.heldBy, email));
    return handleCommand(context, {
      streamId,
      decider: emailReservationDecider,
      command: { type: 'ReserveEmail', data: { email, userId, now: now().toISOString(), holderUsesAddress } },
    });
  }

  const releaseEmail = (context: CommandContext, email: string, userId: string) =>
    handleCommand(context, {
      streamId: emailStreamId(email, sha256Hex),
      decider: emailReservationDecider,
      command: { type: 'ReleaseEmail', data: { email, userId, now: now().toISOString() } },
    });

  /** E-mail to account through the reservation stream: the source of truth, never behind. */
  async function findUserByEmail(email: string): Promise<{ userId: string | null; state: UserState }> {
    const { state: reservation } = await loadAggregate(
      platform(),
      emailStreamId(email, sha256Hex),
      emailReservationDecider,
    );
    const unknown = { userId: null, state: userDecider.initialState() };
    if (!reservation.heldBy) return unknown;
    const { state } = await loadAggregate(platform(), userStreamId(reservation.heldBy), userDecider);
    // A reservation left over from an unfinished change does not make the address the user's.
    if (state.status !== 'registered' || state.email !== email) return unknown;
    return { userId: reservation.heldBy, state };
  }

  /** Tells `ownerId` by mail that someone tried to claim their address (EmailClaimAttempted). */
  const noteClaim = (request: FastifyRequest, ownerId: string, email: string, via: 'register' | 'profile') =>
    runUserCommand(ctx(request, undefined, ownerId), ownerId, {
      type: 'NoteEmailClaimAttempt',
      data: { email, via, now: now().toISOString() },
    });

  /** Registration proper, after the answer: a new account, or a mail to the address's owner. */
  async function registerOrTellOwner(
    request: FastifyRequest,
    input: { firstName: string; lastName: string; email: string; passwordHash: string },
  ) {
    const { email } = input;
    const holder = await findUserByEmail(email);
    if (holder.userId) {
      await noteClaim(request, holder.userId, email, 'register');
      return;
    }
    const userId = randomUUID();
    const context = ctx(request, undefined, userId);
    try {
      await reserveEmail(context, email, userId);
    } catch (error) {
      // Reserved a moment ago by a registration still completing: the address is theirs.
      if (isTaken(error)) return;
      throw error;
    }
    const { issued } = issueLinkToken(platform().sealToken, now(), VERIFICATION_LINK_TTL_MS);
    try {
      await runUserCommand(context, userId, {
        type: 'RegisterUser',
        data: { userId, ...input, verification: issued, now: now().toISOString() },
      });
    } catch (error) {
      await releaseEmail(context, email, userId);
      throw error;
    }
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
      // Hashed before the answer whatever the address: the cost a client pays per registration.
      const passwordHash = await hashPassword(input.password);
      const { firstName, lastName } = input;
      const email = normalizeEmail(input.email);
      app.afterAnswer(request, reply, () =>
        registerOrTellOwner(request, { firstName, lastName, email, passwordHash }),
      );
      return reply.status(201).send(REGISTERED);
    },
  );

  app.post(
    '/verify-email',
    {
      schema: {
        tags: ['auth'],
        summary: 'Verify the e-mail address with the mailed single-use token; signs in.',
        body: VerifyEmailBody,
        response: { 200: SessionResponse, ...errorResponses(400, 429) },
      },
      preHandler: authRateLimit(app, 'verifyEmail'),
    },
    async (request, reply) => {
      const token = str(request.body.token);
      const tokenHash = sha256Hex(token);
      const userId = token ? await findUserIdByVerificationTokenHash(platform().db, tokenHash) : null;
      if (!userId)
        throw new BadRequestError(USER_MESSAGES.invalidVerificationLink, 'INVALID_VERIFICATION_TOKEN');
      const context = ctx(request, reply, userId);
      const { state: before } = await loadAggregate(platform(), userStreamId(userId), userDecider);
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
      const { state } = result;
      return {
        success: true as const,
        message: 'Email verified successfully',
        data: { user: toWireUser(registeredOrNotFound(state)), token: app.issueToken(userId) },
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
      const raw = str(request.body.email);
      failOn(validateForgotPassword({ email: raw }));
      const email = normalizeEmail(raw);
      app.afterAnswer(request, reply, async () => {
        const { userId, state } = await findUserByEmail(email);
        if (!userId || state.status !== 'registered' || state.emailVerified) return;
        const { issued } = issueLinkToken(platform().sealToken, now(), VERIFICATION_LINK_TTL_MS);
        await runUserCommand(ctx(request, undefined, userId), userId, {
          type: 'RequestEmailVerification',
          data: { verification: issued, now: now().toISOString() },
        });
      });
      return {
        success: true as const,
        message: 'If an unverified account exists for this email, a verification email has been sent.',
        data: null,
      };
    },
  );

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
      const { state } = await findUserByEmail(email);
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

  app.get(
    '/profile',
    {
      schema: {
        tags: ['auth'],
        summary: "The caller's profile.",
        security: [{ bearerAuth: [] }],
        response: { 200: UserResponse, ...errorResponses(401, 404) },
      },
      onRequest: [app.authenticate],
    },
    async (request) => {
      const row = await getUser(platform().db, request.userId);
      if (!row) throw new NotFoundError(USER_MESSAGES.userNotFound);
      return { success: true as const, data: { user: toWireUser(row) } };
    },
  );

  app.put(
    '/profile',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Update names. A new e-mail is not applied: a link that applies it when opened is mailed to it (or, if another account uses it, that account is told); the answer is the same either way.',
        security: [{ bearerAuth: [] }],
        body: ProfileBody,
        response: { 200: UserResponse, ...errorResponses(401, 404, 422) },
      },
      onRequest: [app.authenticate],
    },
    async (request, reply) => {
      const { userId } = request;
      const input = {
        firstName: str(request.body.first_name).trim(),
        lastName: str(request.body.last_name).trim(),
        email: str(request.body.email),
      };
      failOn(validateProfile(input));
      const email = normalizeEmail(input.email);
      const result = await runUserCommand(ctx(request, reply, userId), userId, {
        type: 'UpdateProfile',
        data: { firstName: input.firstName, lastName: input.lastName, now: now().toISOString() },
      });
      const user = registeredOrNotFound(result.state);
      const emailChanges = email !== user.email;
      if (emailChanges) {
        app.afterAnswer(request, reply, async () => {
          const holder = (await findUserByEmail(email)).userId;
          if (holder !== null && holder !== userId) {
            await noteClaim(request, holder, email, 'profile');
            return;
          }
          const { issued } = issueLinkToken(platform().sealToken, now(), VERIFICATION_LINK_TTL_MS);
          await runUserCommand(ctx(request, undefined, userId), userId, {
            type: 'RequestEmailChange',
            data: { email, verification: issued, now: now().toISOString() },
          });
        });
      }
      return {
        success: true as const,
        message: emailChanges
          ? `Profile updated. We sent a message to ${email}: open its link to use that address.`
          : 'Profile updated successfully',
        data: { user: toWireUser(user) },
      };
    },
  );

  app.put(
    '/change-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Change the password; tokens issued before stop working. Answers a fresh token.',
        security: [{ bearerAuth: [] }],
        body: ChangePasswordBody,
        response: { 200: TokenResponse, ...errorResponses(401, 404, 422) },
      },
      onRequest: [app.authenticate],
    },
    async (request, reply) => {
      const { userId } = request;
      const currentPassword = str(request.body.current_password);
      const newPassword = str(request.body.new_password);
      failOn(validateChangePassword({ currentPassword, newPassword }));
      const user = registeredOrNotFound(
        (await loadAggregate(platform(), userStreamId(userId), userDecider)).state,
      );
      const matches = await verifyPassword(user.passwordHash, currentPassword);
      const passwordHash = matches ? await hashPassword(newPassword) : '';
      await withWireFields(() =>
        runUserCommand(ctx(request, reply, userId), userId, {
          type: 'ChangePassword',
          data: { currentPasswordMatches: matches, passwordHash, now: now().toISOString() },
        }),
      );
      return {
        success: true as const,
        message: 'Password changed successfully',
        data: { token: app.issueToken(userId) },
      };
    },
  );

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
      const raw = str(request.body.email);
      failOn(validateForgotPassword({ email: raw }));
      const email = normalizeEmail(raw);
      app.afterAnswer(request, reply, async () => {
        const { userId, state } = await findUserByEmail(email);
        if (!userId || state.status !== 'registered') return;
        const { issued } = issueLinkToken(platform().sealToken, now(), RESET_LINK_TTL_MS);
        await runUserCommand(ctx(request, undefined, userId), userId, {
          type: 'RequestPasswordReset',
          data: { reset: issued, now: now().toISOString() },
        });
      });
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
      const userId = token ? await findUserIdByResetTokenHash(platform().db, tokenHash) : null;
      if (!userId) throw new BadRequestError(USER_MESSAGES.invalidResetLink, 'INVALID_RESET_TOKEN');
      const passwordHash = await hashPassword(password);
      await runUserCommand(ctx(request, reply, userId), userId, {
        type: 'ResetPassword',
        data: { tokenHash, passwordHash, now: now().toISOString() },
      });
      return {
        success: true as const,
        message: 'Password has been reset successfully. Please sign in with your new password.',
        data: null,
      };
    },
  );

  app.post(
    '/profile-picture',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Set the profile picture: JSON { profile_picture: data URL } or multipart field profile_picture. PNG, JPEG, WebP or GIF (checked from the bytes), at most 5,242,880 bytes.',
        security: [{ bearerAuth: [] }],
        consumes: ['application/json', 'multipart/form-data'],
        response: { 200: UserResponse, ...errorResponses(401, 404, 422) },
      },
      bodyLimit: PICTURE_BODY_LIMIT,
      // A body over the limit is a picture far over 5 MB: answer with the spec's message.
      errorHandler: (error, request, reply) =>
        app.errorHandler(error.statusCode === 413 ? pictureTooLargeError() : error, request, reply),
      onRequest: [app.authenticate],
    },
    async (request, reply) => {
      const { userId } = request;
      const { UPLOADS_DIR } = platform().config;
      const bytes = await readUploadedPicture(request);
      const fileName = await storePicture(UPLOADS_DIR, bytes);
      let result: Awaited<ReturnType<typeof runUserCommand>>;
      try {
        result = await runUserCommand(ctx(request, reply, userId), userId, {
          type: 'SetProfilePicture',
          data: { fileName, now: now().toISOString() },
        });
      } catch (error) {
        await deletePicture(UPLOADS_DIR, fileName);
        throw error;
      }
      for (const event of result.events) {
        if (event.type === 'ProfilePictureSet') await deletePicture(UPLOADS_DIR, event.data.previousFileName);
      }
      return {
        success: true as const,
        message: 'Profile picture updated successfully',
        data: { user: toWireUser(registeredOrNotFound(result.state)) },
      };
    },
  );

  app.delete(
    '/profile-picture',
    {
      schema: {
        tags: ['auth'],
        summary: 'Remove the profile picture.',
        security: [{ bearerAuth: [] }],
        response: { 200: UserResponse, ...errorResponses(401, 404) },
      },
      onRequest: [app.authenticate],
    },
    async (request, reply) => {
      const { userId } = request;
      const result = await runUserCommand(ctx(request, reply, userId), userId, {
        type: 'RemoveProfilePicture',
        data: { now: now().toISOString() },
      });
      for (const event of result.events) {
        if (event.type === 'ProfilePictureRemoved')
          await deletePicture(platform().config.UPLOADS_DIR, event.data.fileName);
      }
      return {
        success: true as const,
        message: 'Profile picture removed',
        data: { user: toWireUser(registeredOrNotFound(result.state)) },
      };
    },
  );
}
