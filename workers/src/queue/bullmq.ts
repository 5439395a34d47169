import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { createHandlerRegistry, type QueueLogger, silentQueueLogger } from './handlers';
import { type EnqueueOptions, type JobQueue, QueueUnavailableError } from './port';

export type BullMqQueueOptions = {
  /** Default REDIS_URL, else redis://127.0.0.1:6379. */
  url?: string;
  /** Key prefix, so deployments and parallel test runs sharing one Redis don't collide. */
  prefix?: string;
  /** BullMQ queue name (default 'kosh'). */
  queueName?: string;
  /** Jobs this process runs at once (default 4). */
  concurrency?: number;
  /** How often the schedulers are checked and re-created if Redis lost them (default 10 s). */
  scheduleCheckMs?: number;
  logger?: QueueLogger;
};

const PING_TIMEOUT_MS = 1000;
const ENQUEUE_TIMEOUT_MS = 5000;
/**
 * A job whose worker died (kill -9) keeps its de-duplication key while it counts as active, and
 * every wake-up with that id waits behind it. BullMQ's defaults (30 s lock, 30 s stalled check)
 * made that half a minute; with these a dead worker's job is back in the queue within ~3 s.
 * A live worker renews its lock every lockDuration / 2. Our jobs are idempotent (advisory lock
 * and checkpoint compare-and-set), so a job run twice after a slow renewal costs nothing.
 */
const LOCK_DURATION_MS = 2000;
const STALLED_INTERVAL_MS = 1000;
const MAX_STALLED_COUNT = 1000;
const SCHEDULE_CHECK_MS = 10_000;

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
  let connectedOnce = false;
  connection.once('ready', () => {
    connectedOnce = true;
  });
  const schedules = new Map<string, { everyMs: number; data: unknown }>();
  const upsertSchedule = (name: string, everyMs: number, data: unknown) =>
    queue.upsertJobScheduler(name, { every: everyMs }, { name, data });
  async function restoreSchedules(): Promise<void> {
    for (const [name, { everyMs, data }] of schedules) {
      if (await queue.getJobScheduler(name)) continue;
      await upsertSchedule(name, everyMs, data);
      logger.warn({ job: name }, 'job scheduler was missing in Redis; registered again');
    }
  }
  const checkSchedules = () => {
    if (schedules.size === 0 || connection.status !== 'ready') return;
    restoreSchedules().catch((err) => logger.warn({ err }, 'could not check the job schedulers'));
  };
  // Redis back after an outage may be empty (restarted without persistence, failover).
  connection.on('ready', checkSchedules);
  const scheduleTimer = setInterval(checkSchedules, options.scheduleCheckMs ?? SCHEDULE_CHECK_MS);
  scheduleTimer.unref();
  const queue = new Queue(queueName, {
    connection,
    prefix,
    defaultJobOptions: { removeOnComplete: true, removeOnFail: 1000 },
  });
  // ioredis retries every few hundred ms while Redis is down: say so once, and once when back.
  let redisDown = false;
  const reportError = (source: string) => (err: Error) => {
    if (redisDown) return;
    redisDown = true;
    logger.error({ err, source }, 'Redis unreachable: jobs wait, projections follow NOTIFY meanwhile');
  };
  queue.on('error', reportError('queue'));
  connection.on('ready', () => {
    if (!redisDown) return;
    redisDown = false;
    logger.warn({}, 'Redis reachable again');
  });
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
      {
        connection: workerConnection,
        prefix,
        concurrency: options.concurrency ?? 4,
        lockDuration: LOCK_DURATION_MS,
        stalledInterval: STALLED_INTERVAL_MS,
        maxStalledCount: MAX_STALLED_COUNT,
      },
    );
    worker.on('error', reportError('worker'));
    worker.on('failed', (job, err) =>
      logger.warn({ job: job?.name, attempt: job?.attemptsMade, err }, 'job failed'),
    );
  }

  return {
    kind: 'bullmq',
    async enqueue(name: string, data: unknown, opts: EnqueueOptions = {}) {
      // Offline, ioredis would hold the command until Redis is back: fail now instead, and let
      // the caller fall back (direct catch-up, LISTEN/NOTIFY, a retry of the projection batch).
      if (connectedOnce && connection.status !== 'ready')
        throw new QueueUnavailableError(`Redis is not connected (job ${name})`);
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
          () => reject(new QueueUnavailableError(`Redis did not accept job ${name} in time`)),
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
      schedules.set(name, { everyMs, data });
      await upsertSchedule(name, everyMs, data);
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
    async depth() {
      const counts = await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized');
      return Object.values(counts).reduce((sum, n) => sum + n, 0);
    },
    async close() {
      clearInterval(scheduleTimer);
      connection.off('ready', checkSchedules);
      if (worker) await worker.close();
      await queue.close();
      workerConnection?.disconnect();
      connection.disconnect();
    },
  };
}
