import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * The web app's Content-Security-Policy: this origin only. The Vite build's one inline script
 * (boot.ts, at the top of index.html) is allowed on that page alone, by its hash (static.ts's
 * indexHtmlPolicy); the rest is module scripts, preloads and stylesheets under /assets. React and Blueprint set
 * styles through the CSSOM (`element.style`), which style-src does not govern, so no
 * 'unsafe-inline' is needed for styles either. `data:` images: Blueprint's stylesheet draws
 * checkbox and select glyphs as data: SVGs, and a chosen profile picture is previewed as a data:
 * URL before it is uploaded.
 */
const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** The same policy as one header value, for pages that send a variant of it (the dev mailbox). */
export const CONTENT_SECURITY_POLICY = Object.entries(CSP_DIRECTIVES)
  .map(([name, sources]) => `${name} ${sources.join(' ')}`)
  .join('; ');

/** Two years, the preload list's minimum; only ever sent when the app is served over https. */
const HSTS_MAX_AGE_S = 63_072_000;

/**
 * helmet's middleware with the headers we mean and none of its other defaults: the policy above,
 * no framing, no referrer, nosniff, and HSTS only over https (it would pin a host that has no
 * certificate). Built once per app: @fastify/helmet builds it again on every request, 37 µs of
 * CPU per answer on our machine against 1.8 µs for this one (README, "Why not").
 */
function securityHeadersFor(appUrl: string) {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: appUrl.startsWith('https://')
      ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: true }
      : false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    xPoweredBy: false,
  });
}

/** The JSON API and the dev mailbox: answers that carry a user's data, tokens or mailed links. */
const isPrivate = (url: string) => /^\/(api|dev)([/?]|$)/.test(url);

const built = new Map<string, ReturnType<typeof securityHeadersFor>>();

/**
 * Sets the security headers on one answer, before anything else: a page may then send its own
 * CSP (the dev mailbox allows its stylesheet's hash; a reply's header wins over these). Exported
 * for answers Fastify sends without hooks (its `frameworkErrors`, e.g. a malformed URL).
 */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply, appUrl: string): void {
  let headers = built.get(appUrl);
  if (!headers) {
    headers = securityHeadersFor(appUrl);
    built.set(appUrl, headers);
  }
  headers(request.raw, reply.raw, () => {});
  // No browser or proxy may keep a copy of a user's money, tokens or links.
  if (isPrivate(request.url)) reply.header('Cache-Control', 'no-store');
}

/** Security headers on every answer: API, web app, uploads, errors and 404s alike. */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, opts: { appUrl: string }) => {
    app.addHook('onRequest', async (request, reply) => {
      applySecurityHeaders(request, reply, opts.appUrl);
    });
  },
  { name: 'security-headers' },
);
