import path from 'node:path';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { type Platform, repoRoot } from './platform';
import { authPlugin } from './plugins/auth';
import { docsPlugin } from './plugins/docs';
import { errorsPlugin } from './plugins/errors';
import { healthRoutes } from './plugins/health';
import { staticPlugin } from './plugins/static';
import { devMailboxRoutes } from './routes/dev-mailbox';
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

/** Builds the whole HTTP app on a platform. Tests call this and use `app.inject`; server.ts listens. */
export async function buildApp(platform: Platform, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? {
      level: platform.config.LOG_LEVEL,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    },
    bodyLimit: BODY_LIMIT,
    trustProxy: platform.config.NODE_ENV === 'production',
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('platform', platform);
  await app.register(errorsPlugin);
  await app.register(docsPlugin);
  await app.register(authPlugin, { secret: platform.config.JWT_SECRET });
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
  await app.register(apiRoutes, { prefix: '/api' });
  if (platform.config.embedded) await app.register(devMailboxRoutes);
  await app.register(staticPlugin, {
    webDist: options.webDist ?? path.join(repoRoot, 'web', 'dist'),
    uploadsDir: platform.config.UPLOADS_DIR,
  });
  return app;
}
