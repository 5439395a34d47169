import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  errorResponses,
  NotificationBody,
  NotificationsResponse,
  type WireNotifications,
} from '@kosh/contract';
import {
  ConflictError,
  isReminderKind,
  NOTIFICATION_FIELDS,
  type NotificationPreferences,
  notificationDecider,
  notificationStreamId,
  parseNotificationPreferences,
  REMINDER_KINDS,
  ValidationError,
  wireOf,
} from '@kosh/domain';
import { getNotificationPreferences } from '@kosh/projections';
import type { FastifyInstance } from 'fastify';
import { handleCommand } from '../../commands/handle';
import { commandContext, commandRoutes } from '../../commands/route';

const tags = ['Notifications'];
const security = [{ bearerAuth: [] }];

const toWire = (preferences: NotificationPreferences): WireNotifications =>
  wireOf(NOTIFICATION_FIELDS, preferences) as WireNotifications;

/**
 * Issue 31: the reminder mail choices, kept on the server (the spec's /settings page stays
 * local) and edited on /profile. `GET/PUT /api/profile/notifications`.
 */
export async function notificationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'Which reminders are mailed, and how many days before',
        response: { 200: NotificationsResponse, ...errorResponses(401) },
      },
    },
    async (request) => {
      const row = await getNotificationPreferences(platform.db, request.userId);
      return { success: true as const, data: { notifications: toWire(row) } };
    },
  );

  const command = commandRoutes(app, {
    decider: notificationDecider,
    streamId: (c) => notificationStreamId(c.data.userId),
    waitFor: ['notifications'],
  });

  command({
    method: 'PUT',
    url: '/',
    schema: {
      tags,
      security,
      summary: 'Choose the reminders (each kind off until opted into; days before 0 to 30, default 3)',
      body: NotificationBody,
      response: { 200: NotificationsResponse, ...errorResponses(401, 422) },
    },
    command: ({ userId, body }, now) => {
      const parsed = parseNotificationPreferences(body as Record<string, unknown>);
      if (!parsed.ok) throw new ValidationError(parsed.errors);
      return { type: 'SetNotificationPreferences', data: { ...parsed.value, userId, now } };
    },
    answer: async (result) => ({
      success: true as const,
      message: 'Notification preferences saved',
      data: { notifications: toWire(result.state.preferences) },
    }),
  });
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Kosh</title></head>
<body style="font-family:system-ui,sans-serif;max-width:560px;margin:40px auto;padding:0 16px;color:#1c2127">
<h1 style="font-size:22px">${escapeHtml(title)}</h1>
${body}
</body></html>`;
}

/** The same answer for a link that is not ours and one already used: nothing about any account. */
export const UNSUBSCRIBE_INVALID = 'This unsubscribe link is not valid or was already used.';

/**
 * The one-click unsubscribe of a reminder mail: no sign-in, the signed token says who and which
 * kind; the notification stream spends the token, so a link works once. GET shows a page with a
 * button (mail scanners that follow links change nothing); POST unsubscribes, from that button or
 * from the mail client itself (RFC 8058 `List-Unsubscribe=One-Click`).
 */
export async function unsubscribeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => done(null, body),
  );
  const querystring = {
    type: 'object',
    properties: { token: { type: 'string', maxLength: 2000 } },
  } as const;

  const claimOf = (token: string | undefined) => {
    const claim = token ? platform.openUnsubscribeToken(token) : null;
    return claim && isReminderKind(claim.kind) ? { ...claim, kind: claim.kind } : null;
  };

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'The page of a reminder mail’s unsubscribe link (asks to confirm)',
        querystring,
      },
    },
    async (request, reply) => {
      const { token } = request.query as { token?: string };
      const claim = claimOf(token);
      reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store');
      if (!claim) return page('Unsubscribe', `<p>${UNSUBSCRIBE_INVALID}</p>`);
      const label = REMINDER_KINDS[claim.kind].label;
      return page(
        'Unsubscribe',
        `<p>Stop mailing ${escapeHtml(label)} reminders?</p>
<form method="post" action="?token=${encodeURIComponent(token as string)}">
<button type="submit" style="padding:8px 16px">Unsubscribe</button>
</form>`,
      );
    },
  );

  app.post(
    '/',
    { schema: { tags, summary: 'Unsubscribe (one click, RFC 8058); a link works once', querystring } },
    async (request, reply) => {
      const { token } = request.query as { token?: string };
      const claim = claimOf(token);
      reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store');
      if (!claim) return reply.status(400).send(page('Unsubscribe', `<p>${UNSUBSCRIBE_INVALID}</p>`));
      try {
        await handleCommand(commandContext(request, { reply, userId: claim.userId }), {
          streamId: notificationStreamId(claim.userId),
          decider: notificationDecider,
          command: {
            type: 'UnsubscribeReminder',
            data: {
              userId: claim.userId,
              kind: claim.kind,
              tokenId: claim.tokenId,
              now: platform.clock().toISOString(),
            },
          },
          waitFor: ['notifications'],
        });
      } catch (error) {
        if (error instanceof ConflictError)
          return reply.status(400).send(page('Unsubscribe', `<p>${UNSUBSCRIBE_INVALID}</p>`));
        throw error;
      }
      const label = REMINDER_KINDS[claim.kind].label;
      return page(
        'Unsubscribed',
        `<p>You will no longer get ${escapeHtml(label)} reminders by mail. You can turn them on again on your profile.</p>`,
      );
    },
  );
}
