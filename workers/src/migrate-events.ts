import type { RecordedEvent } from '@kosh/domain';
import { ConcurrencyError, type EventStore, START_POSITION } from '@kosh/event-store';

export type MigrateProgress = { events: number; position: string };
export type MigrateResult = {
  events: number;
  streams: number;
  /** For each `keep` position of the source: the position of the same event in the target. */
  positions: Map<string, string>;
};

export class MigrationConflictError extends Error {}

/**
 * Copies the whole log of `source` into `target` in log order, each stream's events at the
 * versions they have in the source (checked, so the copy cannot interleave with other
 * writers), with their ids, types, data and metadata as stored (no upcasting). Re-running
 * after an interruption is safe: events already copied are recognised by id and skipped.
 * Positions are the target's own: for the source positions in `keep` (read-model
 * checkpoints), the result says where the same event is in the target.
 */
export async function migrateEvents(
  source: EventStore,
  target: EventStore,
  options: {
    batchSize?: number;
    keep?: ReadonlySet<string>;
    onProgress?: (progress: MigrateProgress) => void;
  } = {},
): Promise<MigrateResult> {
  const batchSize = options.batchSize ?? 1000;
  const keep = options.keep ?? new Set<string>();
  const versions = new Map<string, number>();
  const positions = new Map<string, string>();
  let after = START_POSITION;
  let events = 0;
  for (;;) {
    const page = await source.readAll({ after, limit: batchSize });
    if (page.length === 0) break;
    // Consecutive events of one stream (one source append, usually) go in one target append,
    // cut after each kept position so that the append's result is that event's position.
    for (let i = 0; i < page.length; ) {
      let j = i + 1;
      while (j < page.length && page[j]!.streamId === page[i]!.streamId && !keep.has(page[j - 1]!.position))
        j++;
      const position = await copyRun(target, page.slice(i, j));
      const last = page[j - 1]!;
      if (keep.has(last.position)) positions.set(last.position, position);
      versions.set(last.streamId, last.streamVersion);
      i = j;
    }
    events += page.length;
    after = page.at(-1)!.position;
    options.onProgress?.({ events, position: after });
  }
  // Every stream must now be exactly as long in the target as in the source.
  for (const [streamId, version] of versions) {
    const copied = await target.readStream(streamId, { from: version + 1 });
    if (copied.version !== version) {
      throw new MigrationConflictError(
        `Stream ${streamId} has ${copied.version} events in the target, ${version} in the source`,
      );
    }
  }
  return { events, streams: versions.size, positions };
}

/** Appends one run; returns the target position of its last event. */
async function copyRun(target: EventStore, run: readonly RecordedEvent[]): Promise<string> {
  const first = run[0]!;
  const last = run.at(-1)!;
  const expectedVersion = first.streamVersion - 1;
  try {
    const result = await target.appendToStream(
      first.streamId,
      run.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })),
      { expectedVersion: expectedVersion === 0 ? 'no_stream' : expectedVersion },
    );
    if (result.nextVersion !== last.streamVersion) {
      throw new MigrationConflictError(
        `Stream ${first.streamId}: events ${first.streamVersion}..${last.streamVersion} landed at version ${result.nextVersion} in the target`,
      );
    }
    return result.position;
  } catch (error) {
    if (!(error instanceof ConcurrencyError)) throw error;
    throw new MigrationConflictError(
      `Stream ${first.streamId} already has other events in the target (version ${error.actual}, expected ${expectedVersion}): ` +
        'migrate into an empty EventStoreDB',
    );
  }
}
