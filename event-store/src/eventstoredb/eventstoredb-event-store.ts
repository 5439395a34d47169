import type { RecordedEvent } from '@kosh/domain';
import {
  type AllStreamSubscription,
  BACKWARDS,
  END,
  FORWARDS,
  KurrentDBClient,
  StreamNotFoundError,
} from '@kurrent/kurrentdb-client';
import { type AppendResult, ConcurrencyError, type EventStore, type NewEvent } from '../port';
import { expectedVersionParam, validateBatch } from '../postgres-event-store';
import {
  fromServerEvent,
  nextVersionOf,
  positionToToken,
  readAllFilter,
  readAllStart,
  type ServerRecordedEvent,
  serverEventId,
  subscriptionFilter,
  toConcurrencyError,
  toEventData,
  toStreamState,
} from './mapping';

export type EventStoreDbEventStoreOptions = {
  /** `kurrentdb://host:2113?tls=false` (also `esdb://`, `kdb://`), or a client to share. */
  connection: string | KurrentDBClient;
  /** Event types whose appends wake subscribers (Kosh's); default: every non-system event. */
  eventTypes?: readonly string[];
  /** Delay before resubscribing after the subscription drops (default 1000 ms). */
  resubscribeDelayMs?: number;
};

/**
 * The EventStore port on EventStoreDB / KurrentDB (ARCHITECTURE.md "Event store rules"): one server
 * stream per Kosh stream, positions of `$all` as tokens (mapping.ts). The server orders `$all`
 * by commit, so a reader that checkpoints by position never skips a later-committed event.
 * Read models stay in PostgreSQL; this store only holds the log.
 */
export function createEventStoreDbEventStore(options: EventStoreDbEventStoreOptions): EventStore {
  const ownsClient = typeof options.connection === 'string';
  const client =
    typeof options.connection === 'string'
      ? KurrentDBClient.connectionString(options.connection)
      : options.connection;
  const resubscribeDelayMs = options.resubscribeDelayMs ?? 1000;
  const listeners = new Set<(position?: string) => void>();
  let subscription: AllStreamSubscription | null = null;
  let live = false;
  let resubscribeTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const call = (listener: (position?: string) => void, position?: string) => {
    try {
      listener(position);
    } catch {
      // a listener's failure is its own
    }
  };

  async function readServerStream(
    streamId: string,
    options: {
      fromRevision: bigint | typeof END;
      direction: typeof FORWARDS | typeof BACKWARDS;
      maxCount?: number;
    },
  ): Promise<ServerRecordedEvent[]> {
    const events: ServerRecordedEvent[] = [];
    try {
      for await (const resolved of client.readStream(streamId, options)) {
        if (resolved.event) events.push(resolved.event as ServerRecordedEvent);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  /**
   * The original result of an append whose every event id is stored in the stream already (a
   * retried command), or null. Kosh streams are one aggregate each, so reading one is short.
   */
  async function storedResult(streamId: string, events: readonly NewEvent[]): Promise<AppendResult | null> {
    const wanted = new Set(events.map((e) => serverEventId(e.id)));
    const found = (await readServerStream(streamId, { fromRevision: 0n, direction: FORWARDS })).filter((e) =>
      wanted.has(e.id),
    );
    if (found.length !== wanted.size) return null;
    const last = found.at(-1)!;
    if (!last.position) throw new Error(`Event ${last.id} of ${streamId} came without a position`);
    return { nextVersion: nextVersionOf(last.revision), position: positionToToken(last.position) };
  }

  function subscribeToServer(): void {
    if (closed || subscription || listeners.size === 0) return;
    const sub = client.subscribeToAll({ fromPosition: END, filter: subscriptionFilter(options.eventTypes) });
    subscription = sub;
    // Live: subscribers read from their checkpoints now (nothing before is announced).
    sub.on('confirmation', () => {
      if (subscription !== sub) return;
      live = true;
      for (const l of listeners) call(l);
    });
    sub.on('data', (resolved) => {
      const position = resolved.event?.position;
      if (!position) return;
      const token = positionToToken(position);
      for (const l of listeners) call(l, token);
    });
    const dropped = () => {
      if (subscription !== sub) return;
      subscription = null;
      live = false;
      if (closed || listeners.size === 0 || resubscribeTimer) return;
      resubscribeTimer = setTimeout(() => {
        resubscribeTimer = null;
        subscribeToServer();
      }, resubscribeDelayMs);
      resubscribeTimer.unref?.();
    };
    sub.on('error', dropped);
    sub.on('end', dropped);
  }

  function unsubscribeFromServer(): void {
    if (resubscribeTimer) clearTimeout(resubscribeTimer);
    resubscribeTimer = null;
    const sub = subscription;
    subscription = null;
    live = false;
    if (sub) void sub.unsubscribe().catch(() => {});
  }

  return {
    async appendToStream(streamId, events, { expectedVersion }) {
      expectedVersionParam(expectedVersion);
      const streamState = toStreamState(expectedVersion);
      validateBatch(events);
      if (events.length === 0) {
        const [last] = await readServerStream(streamId, {
          fromRevision: END,
          direction: BACKWARDS,
          maxCount: 1,
        });
        const version = last ? nextVersionOf(last.revision) : 0;
        const ok =
          expectedVersion === 'any' ||
          (expectedVersion === 'no_stream' ? version === 0 : version === expectedVersion);
        if (!ok) throw new ConcurrencyError(streamId, expectedVersion, version);
        return {
          nextVersion: version,
          position: last?.position ? positionToToken(last.position) : '',
        };
      }
      // With "any" the server's id check is best effort only (its recent-writes cache): look first.
      if (expectedVersion === 'any') {
        const stored = await storedResult(streamId, events);
        if (stored) return stored;
      }
      let result: AppendResult | null;
      try {
        const appended = await client.appendToStream(streamId, events.map(toEventData), { streamState });
        // The server answers an idempotent re-append without a position: find the original.
        result = appended.position
          ? {
              nextVersion: nextVersionOf(appended.nextExpectedRevision),
              position: positionToToken(appended.position),
            }
          : await storedResult(streamId, events);
        if (!result) throw new Error(`Append to ${streamId} returned no position`);
      } catch (error) {
        const conflict = toConcurrencyError(error, streamId, expectedVersion);
        if (!conflict) throw error;
        // A retry whose expected version has gone stale since: the events are stored already.
        const stored = await storedResult(streamId, events);
        if (stored) return stored;
        throw conflict;
      }
      for (const l of listeners) call(l, result.position);
      return result;
    },

    async readStream(streamId, opts) {
      const from = Math.max(1, opts?.from ?? 1);
      const stored = await readServerStream(streamId, {
        fromRevision: BigInt(from - 1),
        direction: FORWARDS,
      });
      const events = stored.map(fromServerEvent).filter((e): e is RecordedEvent => e !== null);
      let version: number;
      if (stored.length > 0) version = nextVersionOf(stored.at(-1)!.revision);
      else {
        const [last] = await readServerStream(streamId, {
          fromRevision: END,
          direction: BACKWARDS,
          maxCount: 1,
        });
        version = last ? nextVersionOf(last.revision) : 0;
      }
      return { version, events };
    },

    async readAll({ after, limit }) {
      if (!Number.isSafeInteger(limit) || limit <= 0)
        throw new RangeError('limit must be a positive integer');
      const out: RecordedEvent[] = [];
      let from = readAllStart(after);
      let last = after ?? '';
      for (;;) {
        // The read starts at `from` inclusive: one more than needed, and `after` itself dropped.
        const page = limit - out.length + 1;
        let got = 0;
        for await (const resolved of client.readAll({
          fromPosition: from,
          maxCount: page,
          direction: FORWARDS,
          filter: readAllFilter(),
        })) {
          got += 1;
          const event = resolved.event;
          if (!event) continue;
          if (!event.position) throw new Error(`Event ${event.id} read from $all without a position`);
          const token = positionToToken(event.position);
          if (token <= last) continue;
          last = token;
          from = event.position;
          const recorded = fromServerEvent(event);
          if (recorded) out.push(recorded);
          if (out.length === limit) return out;
        }
        if (got < page) return out;
      }
    },

    subscribe(listener) {
      listeners.add(listener);
      if (live) queueMicrotask(() => listeners.has(listener) && call(listener));
      else subscribeToServer();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) unsubscribeFromServer();
      };
    },

    async close() {
      closed = true;
      listeners.clear();
      unsubscribeFromServer();
      if (ownsClient) await client.dispose();
    },
  };
}
