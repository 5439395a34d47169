import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createBullMqQueue } from '../bullmq';
import { createInProcessQueue } from '../in-process';
import type { JobQueue } from '../port';

export type TestQueue = { queue: JobQueue; cleanup(): Promise<void> };

/** Both adapters, for suites that must behave the same on each. */
export const queueAdapters: { name: string; create(options?: { concurrency?: number }): TestQueue }[] = [
  {
    name: 'in-process',
    create: (options = {}) => {
      const queue = createInProcessQueue(options);
      return { queue, cleanup: () => queue.close() };
    },
  },
  {
    name: 'BullMQ',
    create: (options = {}) => {
      const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
      // A prefix of its own, so parallel test runs on one Redis never see each other's jobs.
      const prefix = `kosh-test-${randomBytes(6).toString('hex')}`;
      const queue = createBullMqQueue({ url, prefix, ...options });
      return {
        queue,
        async cleanup() {
          await queue.close();
          const redis = new Redis(url, { maxRetriesPerRequest: null });
          try {
            let cursor = '0';
            do {
              const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
              if (keys.length > 0) await redis.del(...keys);
              cursor = next;
            } while (cursor !== '0');
          } finally {
            redis.disconnect();
          }
        },
      };
    },
  },
];
