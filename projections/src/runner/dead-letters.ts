/**
 * Dead letters (ARCHITECTURE.md "Read models"): an event a projector keeps failing on is recorded in
 * `projection_dead_letters` and its projection is stopped until `resume`, so money never
 * silently skips an event. Failures of the database or the queue are not the event's fault
 * and never dead-letter it.
 */
import type { RecordedEvent } from '@kosh/domain';
import { isConnectionError, type Queryable } from '@kosh/event-store';
import { LIVE_LOCK, type RunnerContext } from './context';

/**
 * Failures that say nothing about the event: the database or the queue is briefly unreachable
 * (a restart, a killed connection, Redis down). They must never dead-letter an event; the batch
 * is simply tried again by the next wake-up.
 */
export function isTransientError(error: unknown): boolean {
  if (isConnectionError(error)) return true;
  return !!error && typeof error === 'object' && (error as { transient?: unknown }).transient === true;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * Records `event` as the dead letter of projection `name` and stops it, unless its checkpoint
 * moved from `expected` meanwhile (another runner got further). True when recorded.
 */
export async function recordDeadLetter(
  ctx: RunnerContext,
  name: string,
  expected: string,
  event: RecordedEvent,
  error: unknown,
): Promise<boolean> {
  const message = errorMessage(error);
  const recorded = await ctx.db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [LIVE_LOCK, name]);
    const { rows } = await tx.query<{ position: string }>(
      'SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
      [name],
    );
    if (rows[0]?.position !== expected) return false;
    await tx.query(
      `INSERT INTO projection_dead_letters (projection, position, event_id, event_type, error)
       VALUES ($1, $2, $3, $4, $5)`,
      [name, event.position, event.id, event.type, message],
    );
    await tx.query(
      `UPDATE projection_checkpoints SET status = 'stopped', error = $2, updated_at = now() WHERE name = $1`,
      [name, message],
    );
    return true;
  });
  if (recorded) {
    ctx.watcher.stopped(name);
    ctx.logger.error(
      {
        projection: name,
        position: event.position,
        eventId: event.id,
        eventType: event.type,
        correlationId: event.metadata.correlationId,
        message: error instanceof Error ? error.message : String(error),
        err: error,
      },
      `projection ${name} stopped: its projector keeps failing on event ${event.id} (dead letter recorded)`,
    );
  }
  return recorded;
}

export type DeadLetter = { position: string; eventId: string; eventType: string; error: string; at: string };

/** The newest dead letter of each of these projections that has one. */
export async function latestDeadLetters(
  db: Queryable,
  projections: readonly string[],
): Promise<Map<string, DeadLetter>> {
  const { rows } = await db.query<{
    projection: string;
    position: string;
    event_id: string;
    event_type: string;
    error: string;
    at: string;
  }>(
    `SELECT DISTINCT ON (projection) projection, position, event_id, event_type, error,
            to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
       FROM projection_dead_letters WHERE projection = ANY($1) ORDER BY projection, at DESC, id DESC`,
    [projections],
  );
  return new Map(
    rows.map((letter) => [
      letter.projection,
      {
        position: letter.position,
        eventId: letter.event_id,
        eventType: letter.event_type,
        error: letter.error,
        at: letter.at,
      },
    ]),
  );
}

/** Clears the stopped state (after the projector is fixed); the next catch-up retries the event. */
export async function resume(ctx: RunnerContext, name: string): Promise<void> {
  ctx.get(name);
  await ctx.db.query(
    `UPDATE projection_checkpoints SET status = 'running', error = NULL, updated_at = now() WHERE name = $1`,
    [name],
  );
  ctx.watcher.resumed(name);
}
