import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { createHandlerRegistry, type QueueLogger, silentQueueLogger } from './handlers';
import type { EnqueueOptions, JobQueue } from './port';

export type BullMqQueueOptions = {
  /** Default REDIS_URL, else redis://127.0.0.1:6379. */
  url?: string;
  /** Key prefix, so deployments and parallel test runs sharing one Redis don't collide. */
  prefix?: string;
  /** BullMQ queue name (default 'kosh'). */
  queueName?: string;
  /** Jobs this process runs at once (default 4). */
  concurrency?: number;
  logger?: QueueLogger;
};

const PING_TIMEOUT_MS = 1000;
const ENQUEUE_TIMEOUT_MS = 5000;

/**
 * BullMQ on Redis. Our `jobId` becomes BullMQ's de-duplication id with `keepLastIfActive`: while
 * a job with that id waits, a new one is dropped; while it runs, one follow-up is kept and runs
 * after it. (A plain BullMQ jobId would drop a wake-up that arrives during the run.)
 * The worker starts with the first `process` call, so an API process that only enqueues
 * holds no blocking connection.
 */
export function createBullMqQueue(options: BullMqQueueOptions = {}): JobQueue {
  const url = options.url ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = options.prefix ?? 'kosh';
  const queueName = options.queueName ?? 'kosh';
  const logger = options.logger ?? silentQueueLogger;
  const newConnection = () => new Redis(url, { maxRetriesPerRequest: null });
  const connection = newConnection();
  connection.on('error', () => {});
  const queue = new Queue(queueName, {
    connection,
    prefix,
    defaultJobOptions: { removeOnComplete: true, removeOnFail: 1000 },
  });
  queue.on('error', (err) => logger.error({ err }, 'queue error'));
  const handlers = createHandlerRegistry();
  let worker: Worker | null = null;
  let workerConnection: Redis | null = null;

  function startWorker(): void {
    if (worker) return;
    workerConnection = newConnection();
    workerConnection.on('error', () => {});
    worker = new Worker(
      queueName,
      async (job) => {
        const handler = handlers.find(job.name);
        if (!handler) throw new Error(`No processor for job ${job.name}`);
        await handler(job.data);
      },
      { connection: workerConnection, prefix, concurrency: options.concurrency ?? 4 },
    );
    worker.on('error', (err) => logger.error({ err }, 'worker error'));
    worker.on('failed', (job, err) =>
      logger.warn({ job: job?.name, attempt: job?.attemptsMade, err }, 'job failed'),
    );
  }

  return {
    kind: 'bullmq',
    async enqueue(name: string, data: unknown, opts: EnqueueOptions = {}) {
      const added = queue.add(name, data ?? {}, {
        ...(opts.jobId ? { deduplication: { id: opts.jobId, keepLastIfActive: true } } : {}),
        ...(opts.attempts ? { attempts: opts.attempts } : {}),
        ...(opts.backoffMs ? { backoff: { type: 'exponential', delay: opts.backoffMs } } : {}),
        ...(opts.delayMs ? { delay: opts.delayMs } : {}),
      });
      // With maxRetriesPerRequest: null a command waits for Redis forever; a request must not.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Redis did not accept job ${name} in time`)),
          ENQUEUE_TIMEOUT_MS,
        );
      });
      try {
        await Promise.race([added, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    process(name, handler) {
      handlers.add(name, handler);
      startWorker();
    },
    async schedule(name, everyMs, data = {}) {
      await queue.upsertJobScheduler(name, { every: everyMs }, { name, data });
    },
    async ping() {
      const timeout = new Promise<false>((resolve) =>
        setTimeout(() => resolve(false), PING_TIMEOUT_MS).unref(),
      );
      const pong = connection.ping().then(
        (reply) => reply === 'PONG',
        () => false,
      );
      return Promise.race([pong, timeout]);
    },
    async close() {
      if (worker) await worker.close();
      await queue.close();
      workerConnection?.disconnect();
      connection.disconnect();
    },
  };
}
