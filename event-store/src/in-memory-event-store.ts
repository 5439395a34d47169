import type { RecordedEvent } from '@kosh/domain';
import { ConcurrencyError, type EventStore, START_POSITION } from './port';
import { encodePosition } from './position';
import { expectedVersionParam, validateBatch } from './postgres-event-store';

/**
 * The event store in process memory, for unit tests of deciders and handlers. Same contract
 * as the PostgreSQL adapter: each append is one "transaction" (its own transaction id), so
 * positions use the same token format; everything committed is immediately readable.
 * Data and metadata are stored as JSON (what the database would keep).
 */
export function createInMemoryEventStore(): EventStore {
  const all: RecordedEvent[] = [];
  const streams = new Map<string, RecordedEvent[]>();
  const byId = new Map<string, RecordedEvent>();
  const listeners = new Set<(position?: string) => void>();
  let transactionId = 1000;
  let globalPosition = 0;

  const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? null)) as T;
  const out = (e: RecordedEvent) => copy(e);

  return {
    async appendToStream(streamId, events, { expectedVersion }) {
      const expected = expectedVersionParam(expectedVersion);
      validateBatch(events);
      const known = events.filter((e) => byId.has(e.id));
      if (known.length > 0 && known.length === events.length) {
        const last = known
          .map((e) => byId.get(e.id)!)
          .sort((a, b) => (a.position < b.position ? -1 : 1))
          .at(-1)!;
        return { nextVersion: last.streamVersion, position: last.position };
      }
      const stream = streams.get(streamId) ?? [];
      const current = stream.length;
      if ((expected === -1 && current !== 0) || (expected >= 0 && current !== expected)) {
        throw new ConcurrencyError(streamId, expectedVersion, current);
      }
      const fresh = events.filter((e) => !byId.has(e.id));
      if (fresh.length === 0) {
        return { nextVersion: current, position: stream.at(-1)?.position ?? START_POSITION };
      }
      transactionId += 1;
      let version = current;
      for (const e of fresh) {
        globalPosition += 1;
        version += 1;
        const recorded: RecordedEvent = {
          id: e.id,
          streamId,
          streamVersion: version,
          position: encodePosition(transactionId, globalPosition),
          type: e.type,
          data: copy(e.data),
          metadata: copy(e.metadata),
        };
        stream.push(recorded);
        all.push(recorded);
        byId.set(e.id, recorded);
      }
      streams.set(streamId, stream);
      const position = all.at(-1)!.position;
      queueMicrotask(() => {
        for (const l of listeners) {
          try {
            l(position);
          } catch {
            // a listener's failure is its own
          }
        }
      });
      return { nextVersion: version, position };
    },
    async readStream(streamId, opts) {
      const stream = streams.get(streamId) ?? [];
      const from = Math.max(1, opts?.from ?? 1);
      return { version: stream.length, events: stream.slice(from - 1).map(out) };
    },
    async readAll({ after, limit }) {
      if (!Number.isSafeInteger(limit) || limit <= 0)
        throw new RangeError('limit must be a positive integer');
      const start = after ?? START_POSITION;
      // `all` is in position order: binary search the first event after `start`.
      let lo = 0;
      let hi = all.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (all[mid]!.position <= start) lo = mid + 1;
        else hi = mid;
      }
      return all.slice(lo, lo + limit).map(out);
    },
    subscribe(listener) {
      listeners.add(listener);
      // Like the PostgreSQL adapter: one call without a position once the subscription is live.
      queueMicrotask(() => {
        if (listeners.has(listener)) listener();
      });
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      listeners.clear();
    },
  };
}
