import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses, ProfileBody, UserResponse } from '@kosh/contract';
import { NotFoundError, USER_MESSAGES, validateProfile } from '@kosh/domain';
import { getUser } from '@kosh/projections';
import type { FastifyInstance } from 'fastify';
import { commandContext, commandRoutes } from '../../commands/route';
import { findUserByEmail, noteClaim, ownUserStream, runUserCommand } from './accounts';
import { deletePicture, pictureTooLargeError, readUploadedPicture, storePicture } from './pictures';
import { issueLinkToken, normalizeEmail, VERIFICATION_LINK_TTL_MS } from './secrets';
import { failOn, registeredOrNotFound, str, toWireUser } from './wire';

/** The JSON picture upload carries up to 5 MB as base64 (~6.7 MB); room for a 6 MB try to get a 422. */
const PICTURE_BODY_LIMIT = 12 * 1024 * 1024;

const tags = ['auth'];
const security = [{ bearerAuth: [] }];

/** Spec section 7 (Auth): the signed-in user's profile and picture. */
export async function profileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.addHook('onRequest', app.authenticate);
  const userCommand = commandRoutes(app, ownUserStream);

  app.get(
    '/profile',
    {
      schema: {
        tags,
        summary: "The caller's profile.",
        security,
        response: { 200: UserResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const row = await getUser(platform.db, request.userId);
      if (!row) throw new NotFoundError(USER_MESSAGES.userNotFound);
      return { success: true as const, data: { user: toWireUser(row) } };
    },
  );

  userCommand({
    method: 'PUT',
    url: '/profile',
    schema: {
      tags,
      summary:
        'Update names. A new e-mail is not applied: a link that applies it when opened is mailed to it (or, if another account uses it, that account is told); the answer is the same either way.',
      security,
      body: ProfileBody,
      response: { 200: UserResponse, ...errorResponses(401, 404, 422) },
    },
    command: ({ body }, now) => {
      const firstName = str(body.first_name).trim();
      const lastName = str(body.last_name).trim();
      failOn(validateProfile({ firstName, lastName, email: str(body.email) }));
      return { type: 'UpdateProfile', data: { firstName, lastName, now } };
    },
    answer: (result, request, reply) => {
      const { userId } = request;
      const user = registeredOrNotFound(result.state);
      const email = normalizeEmail(str(request.body.email));
      const emailChanges = email !== user.email;
      if (emailChanges) {
        app.afterAnswer(request, reply, async () => {
          const holder = (await findUserByEmail(platform, email)).userId;
          if (holder !== null && holder !== userId) {
            await noteClaim(request, holder, email, 'profile');
            return;
          }
          const now = platform.clock();
          const { issued } = issueLinkToken(platform.sealToken, now, VERIFICATION_LINK_TTL_MS);
          await runUserCommand(commandContext(request, { userId }), userId, {
            type: 'RequestEmailChange',
            data: { email, verification: issued, now: now.toISOString() },
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
  });

  app.post(
    '/profile-picture',
    {
      schema: {
        tags,
        summary:
          'Set the profile picture: JSON { profile_picture: data URL } or multipart field profile_picture. PNG, JPEG, WebP or GIF (checked from the bytes), at most 5,242,880 bytes.',
        security,
        consumes: ['application/json', 'multipart/form-data'],
        response: { 200: UserResponse, ...errorResponses(401, 404, 422) },
      },
      bodyLimit: PICTURE_BODY_LIMIT,
      // A body over the limit is a picture far over 5 MB: answer with the spec's message.
      errorHandler: (error, request, reply) =>
        app.errorHandler(error.statusCode === 413 ? pictureTooLargeError() : error, request, reply),
    },
    async (request, reply) => {
      const { userId } = request;
      const { UPLOADS_DIR } = platform.config;
      const bytes = await readUploadedPicture(request);
      const fileName = await storePicture(UPLOADS_DIR, bytes);
      let result: Awaited<ReturnType<typeof runUserCommand>>;
      try {
        result = await runUserCommand(commandContext(request, { reply }), userId, {
          type: 'SetProfilePicture',
          data: { fileName, now: platform.clock().toISOString() },
        });
      } catch (error) {
        // The picture is stored before its event: without the event nothing names the file.
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

  userCommand({
    method: 'DELETE',
    url: '/profile-picture',
    schema: {
      tags,
      summary: 'Remove the profile picture.',
      security,
      response: { 200: UserResponse, ...errorResponses(401, 404) },
    },
    command: (_request, now) => ({ type: 'RemoveProfilePicture', data: { now } }),
    answer: async (result) => {
      for (const event of result.events) {
        if (event.type === 'ProfilePictureRemoved')
          await deletePicture(platform.config.UPLOADS_DIR, event.data.fileName);
      }
      return {
        success: true as const,
        message: 'Profile picture removed',
        data: { user: toWireUser(registeredOrNotFound(result.state)) },
      };
    },
  });
}
