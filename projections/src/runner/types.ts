import type { RecordedEvent } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';

/**
 * A read model. Its tables are created by its `schema.sql` (a migration); it writes them with
 * unqualified names so the runner can point a rebuild at fresh copies through `search_path`.
 */
export interface Projection {
  /** Unique name, used for the checkpoint, the BullMQ job `project:{name}` and rebuilds. */
  readonly name: string;
  /** Event types it reads; other events only advance its checkpoint. */
  readonly handles: readonly string[];
  /** Tables it owns (rebuilt and swapped together). */
  readonly tables: readonly string[];
  /** Applies a batch of events inside the runner's transaction. Must be idempotent per event. */
  apply(tx: Queryable, events: readonly RecordedEvent[]): Promise<void>;
  /**
   * Its batches may commit without waiting for the WAL flush (`synchronous_commit = off`): what
   * it writes derives from the log alone, so a crash that loses its last batches (rows and
   * checkpoint together) only means applying them again. Not for a consumer with effects outside
   * its tables (the mail reactor's jobs).
   */
  readonly asyncCommit?: boolean;
  /**
   * Non-unique indexes of its tables (by their live names) that no read of `apply` goes through:
   * a rebuild's copy is made without them and they are built once over its rows before the swap
   * (an index kept row by row costs more than one built at the end). An index `apply` looks rows
   * up by (a `DELETE ... WHERE loan_id = ANY`) must not be listed: the copy would be scanned.
   */
  readonly deferredIndexes?: readonly string[];
  /**
   * The bulk path of a rebuild (issue 33 item 5): a copy holds no live row, so a rebuild may
   * apply its batches with `apply` (which may leave derived rows out) and then `finish` the copy
   * (inside `search_path` pointing at it) before its deferred indexes and each swap. `finish`
   * must derive what `apply` left out from the copy's own rows, replacing whatever it wrote
   * before: it runs again when events arrive before the swap, and after a resumed rebuild.
   */
  readonly bulk?: {
    apply(tx: Queryable, events: readonly RecordedEvent[]): Promise<void>;
    finish(tx: Queryable): Promise<void>;
  };
}
