import type { EventMetadata, RecordedEvent } from '@kosh/domain';

/** Exact version (number of events in the stream), no events yet, or no check. */
export type ExpectedVersion = number | 'no_stream' | 'any';

export type NewEvent = Readonly<{
  /** Unique id; re-appending an id already stored is a no-op that returns the original result. */
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}>;

export type AppendResult = Readonly<{
  /** The stream's version after the append (= number of events in it). */
  nextVersion: number;
  /** Global position token of the last appended event. */
  position: string;
}>;

export type ReadStreamResult = Readonly<{
  /** Current version of the stream; 0 when it has no events. */
  version: number;
  events: RecordedEvent[];
}>;

export interface EventStore {
  appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options: { expectedVersion: ExpectedVersion },
  ): Promise<AppendResult>;
  /** Events of one stream in version order, from version `from` (inclusive, default 1). */
  readStream(streamId: string, options?: { from?: number }): Promise<ReadStreamResult>;
  /**
   * Events of every stream in global order, strictly after the position token `after`
   * (default: from the beginning), at most `limit`. Returns only events no concurrent
   * transaction can still precede, so a reader that checkpoints by position never skips one.
   */
  readAll(options: { after?: string | null; limit: number }): Promise<RecordedEvent[]>;
  /**
   * Calls `listener` (with the new position when known) whenever events commit, and once
   * without a position as soon as the subscription is live (read from your checkpoint then:
   * nothing committed before is announced). Returns unsubscribe.
   */
  subscribe(listener: (position?: string) => void): () => void;
  close(): Promise<void>;
}

/** The position token before every event. */
export const START_POSITION = '';

/**
 * The connection to the database broke while an append may have reached it, and appending the
 * same events again (a no-op if they are stored) found no database to answer in time: the
 * events may or may not be stored. The caller must say so, not "failed".
 */
export class AppendOutcomeUnknownError extends Error {
  readonly errorCode = 'OUTCOME_UNKNOWN';
  constructor(
    readonly streamId: string,
    cause: unknown,
  ) {
    super(`The append to ${streamId} may or may not be stored: the database did not answer`, { cause });
    this.name = 'AppendOutcomeUnknownError';
  }
}

export class ConcurrencyError extends Error {
  readonly errorCode = 'CONCURRENCY_CONFLICT';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number,
  ) {
    super(`Stream ${streamId} is at version ${actual}, expected ${String(expected)}`);
    this.name = 'ConcurrencyError';
  }
}
