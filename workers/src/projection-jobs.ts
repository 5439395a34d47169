import type { Projection, ProjectionRunner } from '@kosh/projections';
import type { JobQueue } from './queue/port';

export const projectJob = (name: string) => `project:${name}`;
export const rebuildJob = (name: string) => `rebuild:${name}`;

/** How often every projection is woken even without appends (safety net). */
export const PROJECTION_SAFETY_NET_MS = 5000;

/**
 * Registers `project:{name}` (catch up) and `rebuild:{name}` processors for every projection
 * and schedules each `project:{name}` every few seconds: the safety net behind the event
 * store's NOTIFY, which wakes the projections at once (platform/runtime.ts). The same
 * processors run under BullMQ and the in-process queue.
 */
export async function registerProjectionJobs(
  queue: JobQueue,
  runner: ProjectionRunner,
  projections: readonly Projection[],
  options: { everyMs?: number } = {},
): Promise<void> {
  for (const { name } of projections) {
    queue.process(projectJob(name), async () => {
      await runner.catchUp(name);
    });
    queue.process(rebuildJob(name), async () => {
      await runner.rebuild(name);
    });
  }
  for (const { name } of projections) {
    await queue.schedule(projectJob(name), options.everyMs ?? PROJECTION_SAFETY_NET_MS);
  }
}

/** Asks a worker to rebuild a projection (production: `rebuild:{name}` on BullMQ). */
export async function enqueueRebuild(queue: JobQueue, name: string): Promise<void> {
  await queue.enqueue(rebuildJob(name), {}, { jobId: rebuildJob(name) });
}
