import type { FastifyInstance } from 'fastify';

/** Every `/api` resource, each an encapsulated plugin under its prefix. */
export async function apiRoutes(app: FastifyInstance) {
  void app;
}
