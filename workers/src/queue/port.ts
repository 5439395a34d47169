/** A job queue: BullMQ on Redis in production, an in-process adapter in embedded mode and unit tests. */
export type JobHandler = (data: unknown) => Promise<void>;

export type EnqueueOptions = {
  /** De-duplicates: a job with the id of one still waiting is not added again. */
  jobId?: string;
  attempts?: number;
  backoffMs?: number;
  delayMs?: number;
};

export interface JobQueue {
  readonly kind: 'bullmq' | 'in-process';
  enqueue(name: string, data: unknown, options?: EnqueueOptions): Promise<void>;
  /** Registers the processor for jobs called `name` (or starting with `name` when it ends in ':*'). */
  process(name: string, handler: JobHandler): void;
  /** Repeats job `name` every `everyMs` (safety net for projections). */
  schedule(name: string, everyMs: number, data?: unknown): Promise<void>;
  /** True when the queue's backend answers (readiness). */
  ping(): Promise<boolean>;
  /** Jobs waiting, delayed or running (metrics). */
  depth(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The queue's backend cannot take jobs right now (Redis down). Transient: whoever enqueues may
 * retry later; the projection runner treats it as "try again", never as a dead letter.
 */
export class QueueUnavailableError extends Error {
  readonly transient = true;
}
