import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The web app's Content-Security-Policy: this origin only. The Vite build has no inline script
 * (one module entry plus preloads and a stylesheet, all under /assets). React and Blueprint set
 * styles through the CSSOM (`element.style`), which style-src does not govern, so no
 * 'unsafe-inline' is needed for styles either. `data:` images: Blueprint's stylesheet draws
 * checkbox and select glyphs as data: SVGs, and a chosen profile picture is previewed as a data:
 * URL before it is uploaded.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Two years, the preload list's minimum; only ever sent when the app is served over https. */
const STRICT_TRANSPORT_SECURITY = 'max-age=63072000; includeSubDomains';

/** The JSON API and the dev mailbox: answers that carry a user's data, tokens or mailed links. */
const isPrivate = (url: string) => /^\/(api|dev)([/?]|$)/.test(url);

/**
 * Sets the security headers on one answer. A page may have set its own CSP first (the dev
 * mailbox allows its stylesheet's hash). Exported for answers Fastify sends without hooks (its
 * `frameworkErrors`, e.g. a malformed URL), which must call it themselves.
 */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply, appUrl: string): void {
  if (!reply.hasHeader('Content-Security-Policy')) {
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  }
  reply.header('X-Frame-Options', 'DENY');
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'no-referrer');
  if (appUrl.startsWith('https://')) reply.header('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
  // No browser or proxy may keep a copy of a user's money, tokens or links.
  if (isPrivate(request.url)) reply.header('Cache-Control', 'no-store');
}

/**
 * Security headers on every answer: API, web app, uploads, errors and 404s alike. A small onSend
 * hook rather than @fastify/helmet: these are the six headers we mean, in one place, with no
 * dependency whose defaults (and their changes) would decide our policy.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, opts: { appUrl: string }) => {
    app.addHook('onSend', async (request, reply, payload) => {
      applySecurityHeaders(request, reply, opts.appUrl);
      return payload;
    });
  },
  { name: 'security-headers' },
);
