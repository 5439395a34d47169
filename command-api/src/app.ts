import path from 'node:path';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { type Platform, repoRoot } from './platform';
import { afterAnswerPlugin } from './plugins/after-answer';
import { auditAccessPlugin } from './plugins/audit-access';
import { authPlugin } from './plugins/auth';
import { docsPlugin } from './plugins/docs';
import { errorsPlugin } from './plugins/errors';
import { healthRoutes } from './plugins/health';
import { idempotencyPlugin } from './plugins/idempotency';
import { clientErrorHandler, frameworkErrors, inputGuardPlugin } from './plugins/input-guard';
import { metricsPlugin } from './plugins/metrics';
import { ownWritesPlugin } from './plugins/own-writes';
import { requestIdOf } from './plugins/request-id';
import { securityHeadersPlugin } from './plugins/security-headers';
import { staticPlugin } from './plugins/static';
import { apiRoutes } from './routes/index';

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
  }
}

/** Largest upload the API accepts: 5 MB of picture as base64 inside JSON, with room to spare. */
const BODY_LIMIT = 8 * 1024 * 1024;
export const MAX_PICTURE_BYTES = 5_242_880;

export type AppOptions = {
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built web app; defaults to web/dist. */
  webDist?: string;
};

/**
 * Builds the whole HTTP app on a platform. Tests call this and use `app.inject`; @kosh/platform
 * adds what only its process has (the dev mailbox) and listens.
 */
export async function buildApp(platform: Platform, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger
      ? { logger: options.logger }
      : { loggerInstance: platform.logger as FastifyBaseLogger }),
    // One line per request, written below; the correlation id comes from a proxy's X-Request-Id.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'correlationId' }),
    requestIdHeader: false,
    genReqId: requestIdOf,
    bodyLimit: BODY_LIMIT,
    // Only listed proxies may name the client (per-address limits count request.ip).
    trustProxy: platform.config.TRUST_PROXY.length > 0 ? platform.config.TRUST_PROXY : false,
    // No coercion: `notes: 123` or `email: ["a@b.in"]` is a 422, not a silently changed value.
    // Query and path schemas are strings (the routes parse them), so nothing there needs it.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true } },
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('platform', platform);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    // The API at its configured level (debug in embedded mode); web files and probes at debug.
    const level = request.url.startsWith('/api/') ? platform.config.REQUEST_LOG_LEVEL : 'debug';
    const ms = Math.round(reply.elapsedTime);
    request.log[level](
      { method: request.method, url: request.url, statusCode: reply.statusCode, ms },
      `${request.method} ${request.url} ${reply.statusCode} ${ms} ms`,
    );
  });
  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin, { appUrl: platform.config.APP_URL });
  await app.register(inputGuardPlugin);
  if (platform.config.DOCS_ENABLED) await app.register(docsPlugin);
  await app.register(authPlugin, { secret: platform.config.JWT_SECRET });
  await app.register(auditAccessPlugin);
  await app.register(idempotencyPlugin);
  await app.register(afterAnswerPlugin);
  await app.register(ownWritesPlugin);
  await app.register(rateLimit, {
    global: false,
    // Counted per address unless a route keys it otherwise (e.g. by e-mail).
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      message: 'Too many requests. Please try again later.',
    }),
    enableDraftSpec: true,
  });
  await app.register(multipart, { limits: { fileSize: MAX_PICTURE_BYTES + 1, files: 1, fields: 5 } });

  await app.register(healthRoutes);
  await app.register(metricsPlugin);
  await app.register(apiRoutes, { prefix: '/api' });
  await app.register(staticPlugin, {
    webDist: options.webDist ?? path.join(repoRoot, 'web', 'dist'),
    uploadsDir: platform.config.UPLOADS_DIR,
  });
  return app;
}
