import { AsyncResource } from 'node:async_hooks';
import { createHandlerRegistry, type QueueLogger, silentQueueLogger } from './handlers';
import type { EnqueueOptions, JobQueue } from './port';

export type InProcessQueueOptions = {
  /** Jobs run at once (default 4). Two jobs with the same jobId never run at once. */
  concurrency?: number;
  logger?: QueueLogger;
};

type Job = {
  name: string;
  data: unknown;
  jobId: string | undefined;
  attempts: number;
  backoffMs: number;
  attempt: number;
};

/**
 * The queue of embedded mode, with BullMQ's semantics as used here: a job whose jobId is
 * already waiting is not added again; one that arrives while its twin runs waits for it and
 * then runs (so no wake-up is lost); failures retry with exponential backoff.
 */
export function createInProcessQueue(options: InProcessQueueOptions = {}): JobQueue {
  const concurrency = options.concurrency ?? 4;
  const logger = options.logger ?? silentQueueLogger;
  const handlers = createHandlerRegistry();
  const waiting: Job[] = [];
  const waitingIds = new Set<string>();
  const activeIds = new Set<string>();
  const running = new Set<Promise<void>>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const schedules = new Map<string, ReturnType<typeof setInterval>>();
  let closed = false;
  // Jobs run in the queue's own async context, never in the enqueuer's: a job enqueued from
  // inside a database transaction (the mail reactor's batch) must not run as part of it.
  const context = new AsyncResource('kosh.in-process-queue');

  function later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    timers.add(timer);
  }

  function push(job: Job): void {
    if (closed) return;
    waiting.push(job);
    pump();
  }

  function pump(): void {
    while (!closed && running.size < concurrency) {
      const index = waiting.findIndex(
        (job) =>
          (job.jobId === undefined || !activeIds.has(job.jobId)) && handlers.find(job.name) !== undefined,
      );
      if (index < 0) return;
      const [job] = waiting.splice(index, 1);
      if (!job) return;
      if (job.jobId !== undefined) {
        waitingIds.delete(job.jobId);
        activeIds.add(job.jobId);
      }
      const run = context
        .runInAsyncScope(() => execute(job))
        .finally(() => {
          running.delete(run);
          if (job.jobId !== undefined) activeIds.delete(job.jobId);
          pump();
        });
      running.add(run);
    }
  }

  async function execute(job: Job): Promise<void> {
    const handler = handlers.find(job.name);
    if (!handler) return;
    job.attempt++;
    try {
      await handler(job.data);
    } catch (error) {
      if (job.attempt < job.attempts && !closed) {
        logger.warn({ job: job.name, attempt: job.attempt, err: error }, 'job failed; retrying');
        if (job.jobId !== undefined) waitingIds.add(job.jobId);
        later(job.backoffMs * 2 ** (job.attempt - 1), () => push(job));
      } else {
        logger.error({ job: job.name, attempts: job.attempt, err: error }, 'job failed');
      }
    }
  }

  async function enqueue(name: string, data: unknown, opts: EnqueueOptions = {}): Promise<void> {
    if (closed) throw new Error('Queue is closed');
    const jobId = opts.jobId;
    if (jobId !== undefined) {
      if (waitingIds.has(jobId)) return;
      waitingIds.add(jobId);
    }
    const job: Job = {
      name,
      data,
      jobId,
      attempts: Math.max(1, opts.attempts ?? 1),
      backoffMs: opts.backoffMs ?? 1000,
      attempt: 0,
    };
    if (opts.delayMs && opts.delayMs > 0) later(opts.delayMs, () => push(job));
    else push(job);
  }

  return {
    kind: 'in-process',
    enqueue,
    process(name, handler) {
      handlers.add(name, handler);
      pump();
    },
    async schedule(name, everyMs, data = {}) {
      const previous = schedules.get(name);
      if (previous) clearInterval(previous);
      const timer = setInterval(() => {
        if (!closed) void enqueue(name, data, { jobId: name });
      }, everyMs);
      timer.unref();
      schedules.set(name, timer);
    },
    async ping() {
      return !closed;
    },
    async depth() {
      return waiting.length + running.size;
    },
    async close() {
      closed = true;
      for (const timer of schedules.values()) clearInterval(timer);
      for (const timer of timers) clearTimeout(timer);
      schedules.clear();
      timers.clear();
      waiting.length = 0;
      waitingIds.clear();
      await Promise.allSettled([...running]);
    },
  };
}
