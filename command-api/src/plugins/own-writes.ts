import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forgetRequestTags } from '../reads/checkpoint-tags';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Writes answered before their read models hold them (ARCHITECTURE.md "Read your own
     * writes"): the next request of the same user, and any request naming the position in
     * `X-Event-Position`, waits (bounded) until those read models have reached it.
     */
    ownWrites: OwnWrites;
  }
  interface FastifyContextConfig {
    /**
     * The route reads nothing that an answered-early write changes (a transaction's own
     * commands: they decide on the transaction's stream), so it does not wait for them: a
     * second record right after the first goes straight to its append.
     */
    skipsOwnWrites?: boolean;
  }
}

export type OwnWrites = {
  /** `userId`'s events up to `position` are stored; `readModels` will hold them soon. */
  stored(userId: string, position: string, readModels: readonly string[]): void;
  /** Users whose last write this process has not yet seen reach its read models. */
  pendingUsers(): number;
  /** Forgets the writes whose read models hold them (run every 30 s; a user who comes back would not wait anyway). */
  sweep(): Promise<void>;
};

/**
 * The read models an answered-early write updates: a position a client sends back
 * (`X-Event-Position`) is waited for in these.
 */
export const EARLY_ANSWER_READ_MODELS = ['transactions', 'ledger', 'accounts'] as const;

/** A position token as the stores write them (PostgreSQL: `xid:position`, zero-padded digits). */
const POSITION = /^[\w:/-]{1,100}$/;

/**
 * How long the catch-up of early answers gathers writes. A round costs about eleven statements
 * for the three read models whatever it holds (a transaction, a load, a save and a commit each,
 * and the log read they share): at 50 ms, 0.7 statements per command at 300 commands/s. The
 * writer's own next read does not wait for the moment (it starts the catch-up itself); another
 * reader sees the write up to this much later when no worker process (which follows NOTIFY) runs.
 */
const CATCH_UP_AFTER_MS = 100;

/** How often writes of users who have not come back are forgotten once their read models hold them. */
const SWEEP_EVERY_MS = 30_000;

type Pending = { position: string; readModels: Set<string> };

export const ownWritesPlugin = fp(
  async (app: FastifyInstance) => {
    const { platform } = app;
    // Per process: one API process serves a user's requests here; a client of several sends the
    // position back instead (the header).
    const pending = new Map<string, Pending>();

    // The newest position this process stored an early answer at, per read model.
    const storedUpTo = new Map<string, string>();
    const catchUp = (name: string) => {
      platform.runner
        .catchUp(name, { once: true })
        .then((result) => {
          // One batch per round (`once`): writes stored while it ran, or hidden from its read
          // behind an append still open, are the next round's.
          if (!result.stopped && result.position < (storedUpTo.get(name) ?? '')) catchUpSoon([name]);
        })
        .catch((err: unknown) => {
          platform.logger.warn({ projection: name, err }, 'catch-up failed; will retry');
        });
    };
    // The catch-up of early answers starts a moment later, once for every write of that moment:
    // a batch then holds the records of back-to-back and concurrent writers (one transaction per
    // read model for all of them, not one per record), and a round applies one batch: what was
    // stored while it ran waits for the next round, a moment later, instead of being chased in
    // batches of a few rows. The user's next request does not wait for the moment: it starts the
    // catch-up itself (`reached`, which chases).
    const later = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | null = null;
    function catchUpSoon(readModels: readonly string[]) {
      for (const name of readModels) later.add(name);
      timer ??= setTimeout(() => {
        timer = null;
        const names = [...later];
        later.clear();
        for (const name of names) catchUp(name);
      }, CATCH_UP_AFTER_MS);
    }
    // A user who writes and never reads again would otherwise stay in `pending` for the life of
    // the process: every so often the entries whose read models have reached them are dropped
    // (the check asks the runner, no waiting). An entry not yet reached stays.
    async function forgetReached() {
      for (const [userId, entry] of pending) {
        const { position } = entry;
        if (!(await platform.runner.waitFor([...entry.readModels], position, 0))) continue;
        if (pending.get(userId)?.position === position) pending.delete(userId);
      }
    }
    const sweep = setInterval(() => {
      forgetReached().catch((err: unknown) => platform.logger.warn({ err }, 'own-writes sweep failed'));
    }, SWEEP_EVERY_MS);
    sweep.unref();
    app.addHook('onClose', async () => {
      if (timer) clearTimeout(timer);
      clearInterval(sweep);
    });

    async function reached(position: string, readModels: readonly string[]): Promise<boolean> {
      // Known in this process without a query when its own catch-up got there.
      if (await platform.runner.waitFor(readModels, position, 0)) {
        platform.metrics.readYourWritesWait?.observe({ outcome: 'reached' }, 0);
        return true;
      }
      return platform.afterAppend(position, readModels);
    }

    app.decorate('ownWrites', {
      stored(userId, position, readModels) {
        for (const name of readModels) {
          if (position > (storedUpTo.get(name) ?? '')) storedUpTo.set(name, position);
        }
        catchUpSoon(readModels);
        const known = pending.get(userId);
        if (!known) {
          pending.set(userId, { position, readModels: new Set(readModels) });
          return;
        }
        if (position > known.position) known.position = position;
        for (const name of readModels) known.readModels.add(name);
      },
      pendingUsers: () => pending.size,
      sweep: forgetReached,
    } satisfies OwnWrites);

    app.addHook('preHandler', async (request: FastifyRequest) => {
      if (request.routeOptions.config.skipsOwnWrites) return;
      const token = request.headers['x-event-position'];
      if (typeof token === 'string' && POSITION.test(token)) {
        await reached(token, EARLY_ANSWER_READ_MODELS);
        // The tags the token check read came before the wait: what follows reads them again.
        forgetRequestTags(request);
      }
      const userId = request.userId;
      const mine = userId ? pending.get(userId) : undefined;
      if (!mine) return;
      const { position } = mine;
      await reached(position, [...mine.readModels]);
      forgetRequestTags(request);
      // Reached, or the bound passed (the read then shows what the read models hold, as an
      // answer past the bound did before); a later write of the user is kept.
      if (pending.get(userId)?.position === position) pending.delete(userId);
    });
  },
  { name: 'own-writes' },
);
