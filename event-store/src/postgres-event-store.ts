import { randomUUID } from 'node:crypto';
import type { EventMetadata, RecordedEvent } from '@kosh/domain';
import type { Db, Queryable } from './db';
import {
  type AppendResult,
  ConcurrencyError,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  START_POSITION,
} from './port';
import { decodePosition } from './position';
import { noUpcasters, type UpcasterRegistry } from './upcasters';

/**
 * NOTIFY channel on which stores announce appends, after they commit. Payload:
 * '<position token of the last event>|<id of the announcing store instance>'. Coalesced: one
 * NOTIFY may stand for several appends, and a crash between commit and NOTIFY loses it, so
 * listeners read from their checkpoint and keep a periodic safety net.
 */
export const EVENTS_CHANNEL = 'kosh_events';

export type PostgresEventStoreOptions = {
  upcasters?: UpcasterRegistry;
};

type EventRow = {
  position: string;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  data: unknown;
  metadata: EventMetadata;
};

type AppendRow = { next_version: number; last_position: string; appended: number };

const APPEND_SQL =
  'SELECT next_version, last_position, appended FROM kosh_append_events($1, $2, $3::text[], $4::text[], $5::jsonb[], $6::jsonb[])';

const EVENT_COLUMNS =
  'kosh_position(transaction_id, global_position) AS position, event_id, stream_id, stream_version, type, data, metadata';

const READ_ALL_SQL = `SELECT ${EVENT_COLUMNS}
FROM events
WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
  AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
ORDER BY transaction_id, global_position
LIMIT $3`;

const READ_STREAM_SQL = `WITH v AS (
  SELECT coalesce(max(stream_version), 0) AS version FROM events WHERE stream_id = $1
)
SELECT v.version AS current_version,
  kosh_position(e.transaction_id, e.global_position) AS position,
  e.event_id, e.stream_id, e.stream_version, e.type, e.data, e.metadata
FROM v LEFT JOIN events e ON e.stream_id = $1 AND e.stream_version >= $2
ORDER BY e.stream_version`;

export function expectedVersionParam(expected: ExpectedVersion): number {
  if (expected === 'no_stream') return -1;
  if (expected === 'any') return -2;
  if (!Number.isSafeInteger(expected) || expected < 0) {
    throw new RangeError(
      `expectedVersion must be a non-negative integer, 'no_stream' or 'any'; got ${expected}`,
    );
  }
  return expected;
}

export function validateBatch(events: readonly NewEvent[]): void {
  const ids = new Set<string>();
  for (const e of events) {
    if (typeof e.id !== 'string' || e.id === '') throw new Error('Every event needs a non-empty id');
    if (ids.has(e.id)) throw new Error(`Event id ${e.id} appears twice in one append`);
    ids.add(e.id);
  }
}

type PgError = { code?: string; detail?: string; constraint?: string; message?: string };

function rowToEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    position: row.position,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
  };
}

const NOTIFY_SQL = 'SELECT pg_notify($1, $2)';

const LAST_OF_STREAM_SQL = `SELECT stream_version, kosh_position(transaction_id, global_position) AS position
FROM events WHERE stream_id = $1 ORDER BY stream_version DESC LIMIT 1`;

const isDuplicateEventId = (e: PgError) => e.code === '23505' && e.constraint === 'events_event_id_key';

/**
 * Appends on `q` in one statement: a pool / PGlite database (autocommit) or a transaction of
 * the caller's (then the events commit with it, and the stream stays locked until then).
 * Throws `ConcurrencyError` when the stream is not at `expectedVersion`.
 */
export async function appendOn(
  q: Queryable,
  streamId: string,
  events: readonly NewEvent[],
  expectedVersion: ExpectedVersion,
): Promise<AppendResult> {
  const expected = expectedVersionParam(expectedVersion);
  validateBatch(events);
  if (events.length === 0) {
    const { rows } = await q.query<{ stream_version: number; position: string }>(LAST_OF_STREAM_SQL, [
      streamId,
    ]);
    const version = rows[0]?.stream_version ?? 0;
    if ((expected === -1 && version !== 0) || (expected >= 0 && version !== expected)) {
      throw new ConcurrencyError(streamId, expectedVersion, version);
    }
    return { nextVersion: version, position: rows[0]?.position ?? START_POSITION };
  }
  const params = [
    streamId,
    expected,
    events.map((e) => e.id),
    events.map((e) => e.type),
    events.map((e) => JSON.stringify(e.data ?? null)),
    events.map((e) => JSON.stringify(e.metadata)),
  ];
  try {
    const { rows } = await q.query<AppendRow>(APPEND_SQL, params);
    const row = rows[0];
    if (!row) throw new Error('kosh_append_events returned no row');
    return { nextVersion: row.next_version, position: row.last_position };
  } catch (err) {
    const e = err as PgError;
    if (e.code === 'KC001') {
      const actual = Number(e.detail ?? /at version (\d+)/.exec(e.message ?? '')?.[1] ?? Number.NaN);
      throw new ConcurrencyError(streamId, expectedVersion, actual);
    }
    if (e.code === '23505' && e.constraint === 'events_stream_version_key') {
      throw new ConcurrencyError(streamId, expectedVersion, Number.NaN);
    }
    throw err;
  }
}

/**
 * The PostgreSQL event store (DESIGN.md "Event store rules") on either driver of `Db`
 * (`pg` or PGlite). Needs the `event-store` migrations applied. The `Db` stays the caller's:
 * `close()` only stops this store's subscription.
 */
export function createPostgresEventStore(db: Db, options: PostgresEventStoreOptions = {}): EventStore {
  const upcasters = options.upcasters ?? noUpcasters;
  const listeners = new Set<(position?: string) => void>();
  const instance = randomUUID();
  let live: Promise<() => Promise<void>> | null = null;
  let pending: string | null = null;
  let flushing: Promise<void> | null = null;
  let closed = false;

  const call = (listener: (position?: string) => void, position?: string) => {
    try {
      listener(position);
    } catch {
      // a listener's failure is its own
    }
  };

  /**
   * After an append commits: wake this store's subscribers at once, and other processes with
   * NOTIFY from outside the append transaction (coalesced: at most one NOTIFY in flight).
   */
  function announce(position: string) {
    for (const l of listeners) call(l, position);
    if (pending === null || position > pending) pending = position;
    if (!flushing && !closed) {
      flushing = (async () => {
        while (pending !== null && !closed) {
          const p = pending;
          pending = null;
          await db.query(NOTIFY_SQL, [EVENTS_CHANNEL, `${p}|${instance}`]).catch(() => {});
        }
        flushing = null;
      })();
    }
  }

  return {
    async appendToStream(streamId, events, { expectedVersion }) {
      let result: AppendResult;
      try {
        result = await appendOn(db, streamId, events, expectedVersion);
      } catch (err) {
        // The same event id committed meanwhile by an append to another stream: retry once,
        // which returns the original result (or a ConcurrencyError).
        if (!isDuplicateEventId(err as PgError)) throw err;
        result = await appendOn(db, streamId, events, expectedVersion);
      }
      if (events.length > 0) announce(result.position);
      return result;
    },
    async readStream(streamId, opts) {
      const from = Math.max(1, opts?.from ?? 1);
      const { rows } = await db.query<EventRow & { current_version: number }>(READ_STREAM_SQL, [
        streamId,
        from,
      ]);
      const version = rows[0]?.current_version ?? 0;
      const events = rows.filter((r) => r.event_id !== null).map((r) => upcasters.upcast(rowToEvent(r)));
      return { version, events };
    },
    async readAll({ after, limit }) {
      if (!Number.isSafeInteger(limit) || limit <= 0)
        throw new RangeError('limit must be a positive integer');
      const from = decodePosition(after);
      const { rows } = await db.query<EventRow>(READ_ALL_SQL, [
        from.transactionId.toString(),
        from.globalPosition.toString(),
        limit,
      ]);
      return rows.map((r) => upcasters.upcast(rowToEvent(r)));
    },
    subscribe(listener) {
      listeners.add(listener);
      if (!live) {
        live = db.listen(EVENTS_CHANNEL, (payload) => {
          const [position, from] = payload.split('|');
          if (from === instance) return; // already announced locally
          for (const l of listeners) call(l, position || undefined);
        });
        live.catch(() => {
          live = null;
        });
      }
      // Once LISTEN is active, call the listener once without a position: whatever committed
      // before that is then found by reading from the checkpoint.
      live.then(
        () => listeners.has(listener) && call(listener),
        () => {},
      );
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      closed = true;
      listeners.clear();
      await flushing;
      const l = live;
      live = null;
      if (l) await (await l.catch(() => async () => {}))();
    },
  };
}
