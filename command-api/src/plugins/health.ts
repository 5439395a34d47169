import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

const Health = Type.Object({
  status: Type.String(),
  checks: Type.Optional(Type.Record(Type.String(), Type.String())),
});

/** Resolves 'ok' or 'down' within `ms` (an unreachable server's client may retry for long). */
function within(ms: number, check: Promise<unknown>): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'down'>((resolve) => {
    timer = setTimeout(() => resolve('down'), ms);
  });
  return Promise.race([
    check.then(
      () => 'ok' as const,
      () => 'down' as const,
    ),
    timeout,
  ]).finally(() => clearTimeout(timer));
}

/**
 * Liveness (the process answers) and readiness: the database and the queue answer, the event log
 * answers when it is a server of its own (EventStoreDB), and no projection is stopped on a dead
 * letter (its screens would silently stop changing).
 */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/livez', { schema: { tags: ['health'], response: { 200: Health } } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/readyz',
    { schema: { tags: ['health'], response: { 200: Health, 503: Health } } },
    async (_request, reply) => {
      const { db, queue, runner, eventStore, config } = app.platform;
      const [database, jobs, projections, eventLog] = await Promise.all([
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
        // With PostgreSQL (or PGlite) the log is the database checked above.
        config.EVENTSTORE_URL ? within(2000, eventStore.readAll({ after: null, limit: 1 })) : null,
      ]);
      const ready = database === 'ok' && jobs === 'ok' && projections === 'ok' && eventLog !== 'down';
      const checks = { database, queue: jobs, projections, ...(eventLog ? { event_log: eventLog } : {}) };
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks });
    },
  );
}
