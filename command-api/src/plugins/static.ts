import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from './errors';
import { CONTENT_SECURITY_POLICY } from './security-headers';

/**
 * The app's policy for index.html: the build inlines one script at its top (web/src/app/boot.ts,
 * issue 33: a cold start's first requests go out as the page arrives), allowed by its hash, as
 * the page is when the server starts; any other inline script is still refused. A data block
 * (`type="application/json"`) is not run and needs no hash.
 */
export function indexHtmlPolicy(html: string): string {
  const hashes: string[] = [];
  for (const [, attrs, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(attrs ?? '') || /type\s*=\s*"application\/json"/i.test(attrs ?? '')) continue;
    hashes.push(
      `'sha256-${createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`,
    );
  }
  if (hashes.length === 0) return CONTENT_SECURITY_POLICY;
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`);
}

/**
 * Serves uploaded pictures (`/uploads/...`, never sniffed) and the built web app, with the SPA
 * fallback: an unknown GET outside /api answers index.html so client routes survive a reload.
 */
export const staticPlugin = fp(
  async (app: FastifyInstance, opts: { webDist: string; uploadsDir: string }) => {
    await mkdir(opts.uploadsDir, { recursive: true });
    await app.register(fastifyStatic, {
      root: opts.uploadsDir,
      prefix: '/uploads/',
      index: false,
      list: false,
      dotfiles: 'deny',
      // Off so that setHeaders' Cache-Control stands: `send` would put its own over it.
      cacheControl: false,
      setHeaders: (res) => {
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Cache-Control', 'public, max-age=86400');
      },
    });
    const indexHtml = path.join(opts.webDist, 'index.html');
    const hasWeb = existsSync(indexHtml);
    const indexPolicy = hasWeb ? indexHtmlPolicy(readFileSync(indexHtml, 'utf8')) : CONTENT_SECURITY_POLICY;
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: opts.webDist,
        prefix: '/',
        decorateReply: false,
        wildcard: false,
        index: false,
        // The build writes x.br and x.gz beside each text file (web/vite.config.ts).
        preCompressed: true,
        cacheControl: false,
        setHeaders: (res, filePath) => {
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
          // The same path is sent brotli, gzip or plain: a shared cache must key on what was accepted.
          res.setHeader('Vary', 'Accept-Encoding');
          if (filePath.replace(/\.(br|gz)$/, '') === indexHtml)
            res.setHeader('Content-Security-Policy', indexPolicy);
        },
      });
    }
    app.setNotFoundHandler((request, reply) => {
      const url = request.url.split('?')[0] ?? '';
      // /dev/ too: where the mailbox is off, its address must not look like a page.
      const isApi =
        url.startsWith('/api/') || url === '/api' || url.startsWith('/uploads/') || url.startsWith('/dev/');
      // A build's file that is not there (a tab opened before a deploy asking for a chunk the new
      // build does not have) is a 404, not index.html: as HTML with 200 the browser could only
      // report a MIME error, and the screen's error boundary could not tell it from a bad script.
      const isBuildFile = url.startsWith('/assets/');
      if (!isApi && !isBuildFile && hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
        return reply
          .type('text/html; charset=utf-8')
          .header('Cache-Control', 'no-cache')
          .header('Content-Security-Policy', indexPolicy)
          .sendFile('index.html', opts.webDist);
      }
      return sendError(reply, 404, 'Resource not found', 'NOT_FOUND');
    });
  },
  { name: 'static', dependencies: ['errors'] },
);
