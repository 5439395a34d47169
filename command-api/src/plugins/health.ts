import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

const Health = Type.Object({
  status: Type.String(),
  checks: Type.Optional(Type.Record(Type.String(), Type.String())),
});

/**
 * Liveness (the process answers) and readiness: the database and the queue answer, and no
 * projection is stopped on a dead letter (its screens would silently stop changing).
 */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/livez', { schema: { tags: ['health'], response: { 200: Health } } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/readyz',
    { schema: { tags: ['health'], response: { 200: Health, 503: Health } } },
    async (_request, reply) => {
      const { db, queue, runner } = app.platform;
      const [database, jobs, projections] = await Promise.all([
        db.query('SELECT 1').then(
          () => 'ok',
          () => 'down',
        ),
        queue.ping().then(
          (up) => (up ? 'ok' : 'down'),
          () => 'down',
        ),
        runner.stoppedProjections().then(
          (stopped) => (stopped.length === 0 ? 'ok' : `stopped: ${stopped.join(', ')}`),
          () => 'unknown',
        ),
      ]);
      const ready = database === 'ok' && jobs === 'ok' && projections === 'ok';
      return reply
        .status(ready ? 200 : 503)
        .send({ status: ready ? 'ok' : 'unavailable', checks: { database, queue: jobs, projections } });
    },
  );
}
