import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Runs `work` once the answer has gone out. For work whose cost depends on something the
     * answer must not reveal (whether an account exists for an address): neither the answer nor
     * its timing then tells. Started only after the response is finished and the server has been
     * quiet for a moment, because on embedded PGlite the database shares this thread, so work
     * running meanwhile would delay this answer or the next. A failure is logged; the caller was
     * already told what every caller is told.
     */
    afterAnswer: (request: FastifyRequest, reply: FastifyReply, work: () => Promise<void>) => void;
    /** Resolves when every piece of work handed to `afterAnswer` so far has finished. */
    afterAnswerSettled: () => Promise<void>;
  }
}

/** Work after an answer waits for this long without a request in progress… */
const QUIET_MS = 50;
/** …but no longer than this (a server never quiet still sends its mail). */
const MOST_DEFERRED_MS = 2000;

export const afterAnswerPlugin = fp(
  async (app: FastifyInstance) => {
    const pending = new Set<Promise<void>>();
    const waiting = new Set<() => void>();
    const inProgress = new Set<FastifyRequest>();
    let lastEnded = 0;
    const ended = async (request: FastifyRequest) => {
      inProgress.delete(request);
      lastEnded = Date.now();
    };
    app.addHook('onRequest', async (request) => {
      inProgress.add(request);
    });
    app.addHook('onResponse', ended);
    app.addHook('onRequestAbort', ended);

    /**
     * Resolves once no request has been in progress for QUIET_MS (or after MOST_DEFERRED_MS).
     * The next request of a client, sent right after the answer, is then served before the work
     * starts: on embedded PGlite, which shares this thread, it would otherwise wait for that work
     * (30 ms against 3 ms after a forgot-password for a real address), and so tell the address.
     */
    async function quiet(): Promise<void> {
      const deadline = Date.now() + MOST_DEFERRED_MS;
      for (;;) {
        const idleFor = Date.now() - lastEnded;
        if ((inProgress.size === 0 && idleFor >= QUIET_MS) || Date.now() >= deadline) return;
        await new Promise((resolve) =>
          setTimeout(resolve, inProgress.size === 0 ? QUIET_MS - idleFor : QUIET_MS),
        );
      }
    }

    app.decorate('afterAnswer', (request: FastifyRequest, reply: FastifyReply, work: () => Promise<void>) => {
      let started = false;
      const start = () => {
        if (started) return;
        started = true;
        waiting.delete(start);
        const task: Promise<void> = quiet()
          .then(work)
          .catch((error: unknown) => request.log.error({ err: error }, 'work after the answer failed'))
          .finally(() => pending.delete(task));
        pending.add(task);
      };
      waiting.add(start);
      reply.raw.once('finish', start);
      reply.raw.once('close', start);
    });

    app.decorate('afterAnswerSettled', async () => {
      // An answer being written now starts its work on 'finish'; give it that turn first.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (pending.size > 0 || waiting.size > 0) {
        await Promise.allSettled([...pending]);
        if (pending.size === 0 && waiting.size > 0)
          await new Promise<void>((resolve) => setImmediate(resolve));
      }
    });

    app.addHook('onClose', async () => {
      for (const start of [...waiting]) start();
      await app.afterAnswerSettled();
    });
  },
  { name: 'after-answer' },
);
