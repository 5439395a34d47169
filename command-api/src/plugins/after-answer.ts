import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Runs `work` once the answer has gone out. For work whose cost depends on something the
     * answer must not reveal (whether an account exists for an address): neither the answer nor
     * its timing then tells. Started only after the response is finished, because on embedded
     * PGlite the database shares this thread, so work merely started earlier would still delay
     * the answer. A failure is logged; the caller was already told what every caller is told.
     */
    afterAnswer: (request: FastifyRequest, reply: FastifyReply, work: () => Promise<void>) => void;
    /** Resolves when every piece of work handed to `afterAnswer` so far has finished. */
    afterAnswerSettled: () => Promise<void>;
  }
}

export const afterAnswerPlugin = fp(
  async (app: FastifyInstance) => {
    const pending = new Set<Promise<void>>();
    const waiting = new Set<() => void>();

    app.decorate('afterAnswer', (request: FastifyRequest, reply: FastifyReply, work: () => Promise<void>) => {
      let started = false;
      const start = () => {
        if (started) return;
        started = true;
        waiting.delete(start);
        const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
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
