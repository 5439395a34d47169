import { createHash } from 'node:crypto';
import { CONTENT_SECURITY_POLICY } from '@kosh/command-api';
import { listOutbox } from '@kosh/workers';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

/** What the mailbox shows; API tests read the mail they caused here too. */
export { listOutbox };

const OutboxMessage = Type.Object({
  id: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  html: Type.String(),
  createdAt: Type.String(),
});

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const MAILBOX_CSS =
  'body{font-family:system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#1c2127}' +
  'article{border:1px solid #d3d8de;border-radius:6px;padding:1rem;margin:1rem 0}h2{margin:0 0 .25rem;font-size:1.1rem}' +
  '.meta{color:#5f6b7c;margin:0 0 .5rem}pre{white-space:pre-wrap;font-family:inherit}' +
  // A link is one long word: let it break anywhere so it stays inside its card on a phone.
  'pre,a{overflow-wrap:anywhere}';

/** The app's policy, plus this page's one inline stylesheet allowed by its hash. */
const MAILBOX_CSP = CONTENT_SECURITY_POLICY.replace(
  "style-src 'self'",
  `style-src 'self' 'sha256-${createHash('sha256').update(MAILBOX_CSS).digest('base64')}'`,
);

/** Escapes the text part and turns its http(s) links into anchors. */
const linkify = (text: string) =>
  escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

/** Embedded mode only: the local outbox, so a newcomer can verify an account without a mail server. */
export async function devMailboxRoutes(app: FastifyInstance) {
  app.get(
    '/dev/mailbox.json',
    { schema: { tags: ['dev'], response: { 200: Type.Array(OutboxMessage) } } },
    async () => listOutbox(app.platform.db),
  );

  app.get('/dev/mailbox', { schema: { hide: true } }, async (_request, reply) => {
    const messages = await listOutbox(app.platform.db);
    const items = messages
      .map(
        (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To ${escapeHtml(m.to)} · ${escapeHtml(new Date(m.createdAt).toLocaleString('en-IN', { timeZone: 'UTC' }))} UTC</p>
  <pre>${linkify(m.text)}</pre>
</article>`,
      )
      .join('\n');
    const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kosh · Dev mailbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${MAILBOX_CSS}</style></head>
<body><h1>Dev mailbox</h1><p>Mail sent by this embedded Kosh, newest first (${messages.length}).</p>
${items || '<p>No mail yet.</p>'}
</body></html>`;
    return reply.type('text/html; charset=utf-8').header('Content-Security-Policy', MAILBOX_CSP).send(body);
  });
}
