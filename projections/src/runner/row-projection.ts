import type { RecordedEvent } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { defineProjection, type EventOfType, type ProjectionDefinition, type ReadModel } from './define';

/** A row whose fold changed in a batch: `before` as stored, `after` null = remove. */
export type RowChange<Row> = Readonly<{ key: string; before: Row | null; after: Row | null }>;

/**
 * Folds a batch over the stored rows it touches (pure). Returns only the rows whose fold
 * changed: an event delivered twice leaves its row as it was, so it changes nothing.
 */
export function foldRows<E, Row>(
  before: ReadonlyMap<string, Row>,
  events: readonly E[],
  keyOf: (event: E) => string,
  evolve: (row: Row | null, event: E) => Row | null,
): RowChange<Row>[] {
  const current = new Map<string, Row | null>();
  for (const event of events) {
    const key = keyOf(event);
    const row = current.has(key) ? (current.get(key) ?? null) : (before.get(key) ?? null);
    current.set(key, evolve(row, event));
  }
  const changed: RowChange<Row>[] = [];
  for (const [key, after] of current) {
    const stored = before.get(key) ?? null;
    if (after !== stored) changed.push({ key, before: stored, after });
  }
  return changed;
}

/** The keys of the rows a batch removed and the rows it saved. */
export function splitChanges<Row>(changes: readonly RowChange<Row>[]): { removed: string[]; saved: Row[] } {
  const removed: string[] = [];
  const saved: Row[] = [];
  for (const { key, after } of changes) {
    if (after === null) removed.push(key);
    else saved.push(after);
  }
  return { removed, saved };
}

export type RowProjectionDefinition<T extends string, E extends RecordedEvent, Row> = Omit<
  ProjectionDefinition<T, E>,
  'apply'
> & {
  /** The row an event belongs to: one per stream. */
  keyOf(event: NoInfer<E>): string;
  /** The read model's pure fold (also used for as-of answers and by the command routes). */
  evolve(row: Row | null, event: NoInfer<E>): Row | null;
  /** The stored rows of these keys. */
  load(tx: Queryable, keys: readonly string[]): Promise<ReadonlyMap<string, Row>>;
  /** Persists the rows whose fold changed. */
  write(tx: Queryable, changes: readonly RowChange<Row>[]): Promise<void>;
};

/**
 * A read model of one row per stream over its pure `evolve`: per batch one read of the rows it
 * touches, the fold in memory, one write of what changed.
 */
export function rowProjection<const T extends string, Row, E extends RecordedEvent = EventOfType<T>>(
  definition: RowProjectionDefinition<T, E, Row>,
): ReadModel {
  const { keyOf, evolve, load, write, ...projection } = definition;
  return defineProjection<T, E>({
    ...projection,
    async apply(tx, events) {
      const before = await load(tx, [...new Set(events.map(keyOf))]);
      const changes = foldRows(before, events, keyOf, evolve);
      if (changes.length > 0) await write(tx, changes);
    },
  });
}
