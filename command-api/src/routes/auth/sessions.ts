import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { EndSessionsQuery, errorResponses, MessageResponse, SessionsResponse } from '@kosh/contract';
import { ValidationError } from '@kosh/domain';
import { liveSessionsOf } from '@kosh/projections';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { commandRoutes } from '../../commands/route';
import { ownSessions } from './session';

/**
 * Issue 32, item 2: the signed-in sessions of the user (browser and system from the user agent,
 * address, started, last seen), ending one, and ending every other. A session id of another user
 * answers 404 like a missing one: it is not in the caller's stream.
 */
export async function sessionListRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  const userCommand = commandRoutes(app, ownSessions);

  app.get(
    '/sessions',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in sessions of the user; `current` marks the one asking.',
        security: [{ bearerAuth: [] }],
        response: { 200: SessionsResponse, ...errorResponses(401) },
      },
      onRequest: app.authenticate,
    },
    async (request) => {
      const rows = await liveSessionsOf(platform.db, request.userId, platform.clock());
      return {
        success: true as const,
        data: {
          sessions: rows.map((s) => ({
            id: s.sessionId,
            browser: s.browser,
            os: s.os,
            address: s.address,
            started_at: s.startedAt,
            last_seen_at: s.lastSeenAt,
            current: s.sessionId === request.sessionId,
          })),
        },
      };
    },
  );

  userCommand({
    method: 'DELETE',
    url: '/sessions/:id',
    schema: {
      tags: ['auth'],
      summary: "End one session (this one too): its token stops working. Another user's session is 404.",
      security: [{ bearerAuth: [] }],
      params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
      response: { 200: MessageResponse, ...errorResponses(401, 404) },
    },
    options: { onRequest: [app.authenticate] },
    command: (request, now) => ({
      type: 'EndSession',
      data: {
        sessionId: request.params.id,
        reason: request.params.id === request.sessionId ? 'signed-out' : 'ended',
        now,
      },
    }),
    answer: () => ({ success: true as const, message: 'Session ended', data: null }),
  });

  userCommand({
    method: 'DELETE',
    url: '/sessions',
    schema: {
      tags: ['auth'],
      summary: 'With others=true: end every session but this one.',
      security: [{ bearerAuth: [] }],
      querystring: EndSessionsQuery,
      response: { 200: MessageResponse, ...errorResponses(401, 422) },
    },
    options: { onRequest: [app.authenticate] },
    command: (request, now) => {
      if (request.query.others !== 'true') {
        throw new ValidationError([{ field: 'others', message: 'Only others=true is supported' }]);
      }
      return { type: 'EndOtherSessions', data: { keepSessionId: request.sessionId, now } };
    },
    answer: (result) => {
      const ended = result.events.length;
      return {
        success: true as const,
        message: ended === 1 ? '1 other session ended' : `${ended} other sessions ended`,
        data: null,
      };
    },
  });
}
