import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

function bearerMatches(request: FastifyRequest, token: string): boolean {
  const given = Buffer.from(request.headers.authorization ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Request durations by route and status into the platform's metrics, and `GET /metrics`
 * (Prometheus text). With METRICS_TOKEN set the scraper must send it as a bearer token; in
 * production without one the route does not exist (never public).
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const { metrics, config } = app.platform;
    app.addHook('onResponse', async (request, reply) => {
      metrics.httpDuration.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status_code: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    });
    const token = config.METRICS_TOKEN;
    if (!token && config.NODE_ENV === 'production') return;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (token && !bearerMatches(request, token)) {
        return reply.status(401).header('WWW-Authenticate', 'Bearer').send('');
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  },
  { name: 'metrics' },
);
