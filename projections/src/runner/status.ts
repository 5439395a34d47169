import type { RecordedEvent } from '@kosh/domain';
import type { RunnerContext } from './context';
import { type DeadLetter, latestDeadLetters } from './dead-letters';

export type ProjectionStatus = {
  name: string;
  position: string;
  status: 'running' | 'stopped';
  error: string | null;
  /** Events after the checkpoint (counted up to LAG_COUNT_LIMIT). */
  lagEvents: number;
  /** Age of the oldest event not yet applied; 0 when caught up. */
  lagSeconds: number;
  /** The newest dead letter of a stopped projection. */
  deadLetter: DeadLetter | null;
};

/** Lag is counted by reading events after the checkpoint, up to this many. */
export const LAG_COUNT_LIMIT = 10_000;

/** Every projection with its checkpoint, lag and state (reads the log after each checkpoint). */
export async function projectionStatus(ctx: RunnerContext): Promise<ProjectionStatus[]> {
  const names = ctx.names();
  for (const name of names) await ctx.ensureCheckpoint(name);
  const { rows } = await ctx.db.query<Pick<ProjectionStatus, 'name' | 'position' | 'status' | 'error'>>(
    'SELECT name, position, status, error FROM projection_checkpoints WHERE name = ANY($1) ORDER BY name',
    [names],
  );
  const letters = await latestDeadLetters(
    ctx.db,
    rows.filter((r) => r.status === 'stopped').map((r) => r.name),
  );
  const now = Date.now();
  // Checkpoints at the same position share one read of the log.
  const behind = new Map<string, Promise<RecordedEvent[]>>();
  const eventsAfter = (position: string) => {
    let read = behind.get(position);
    if (!read) {
      read = ctx.readAfter(position, LAG_COUNT_LIMIT);
      behind.set(position, read);
    }
    return read;
  };
  return Promise.all(
    rows.map(async (row) => {
      const events = await eventsAfter(row.position);
      const oldest = events[0]?.metadata.recordedAt;
      return {
        ...row,
        lagEvents: events.length,
        lagSeconds: oldest ? Math.max(0, (now - Date.parse(oldest)) / 1000) : 0,
        deadLetter: letters.get(row.name) ?? null,
      };
    }),
  );
}

/** Names of the stopped projections (one indexed query: readiness probes). */
export async function stoppedProjections(ctx: RunnerContext): Promise<string[]> {
  const { rows } = await ctx.db.query<{ name: string }>(
    `SELECT name FROM projection_checkpoints WHERE status = 'stopped' AND name = ANY($1) ORDER BY name`,
    [ctx.names()],
  );
  return rows.map((r) => r.name);
}
