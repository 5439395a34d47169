import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventMetadata, RecordedEvent } from '@kosh/domain';
import { isConnectionError, wasNeverSent } from './connection-errors';
import type { Db, Queryable } from './db';
import {
  AppendOutcomeUnknownError,
  type AppendResult,
  ConcurrencyError,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  START_POSITION,
} from './port';
import { decodePosition } from './position';

/**
 * NOTIFY channel on which stores announce appends, after they commit. Payload:
 * '<position token of the last event>|<id of the announcing store instance>'. Coalesced: one
 * NOTIFY may stand for several appends, and a crash between commit and NOTIFY loses it, so
 * listeners read from their checkpoint and keep a periodic safety net.
 */
export const EVENTS_CHANNEL = 'kosh_events';

export type PostgresEventStoreOptions = {
  /**
   * Append statements in flight at once (default 1). Appends that arrive while that many are
   * running wait, and the next free slot takes every waiting append (one per stream, at most
   * maxAppendsPerGroup / maxEventsPerGroup) in one statement and one commit (group commit), each
   * with its own expected-version check, idempotency and result. Measured on this 2-core machine
   * with 16 writers: one statement per append was CPU- and commit-bound at ~1,500 appends/s;
   * groups of 16 share the statement, the commit and its WAL flush (~2.5-3x that). With 2 in
   * flight the groups split unevenly (e.g. 14 + 2) and throughput dropped by a quarter.
   */
  appendConcurrency?: number;
  /**
   * Least time between two NOTIFYs to other processes, ms (default 5). This store's own
   * subscribers are called at once after every append.
   */
  notifyIntervalMs?: number;
  /** Most events in one grouped append statement (default 1000). */
  maxEventsPerGroup?: number;
  /** Most appends in one grouped append statement (default 256). */
  maxAppendsPerGroup?: number;
  /**
   * How long an append whose connection broke after it may have reached the database keeps
   * appending the same events again (stored ones are not stored twice) to learn its outcome,
   * ms (default 10,000). Past it the append throws AppendOutcomeUnknownError.
   */
  confirmWithinMs?: number;
};

/** An `events` row as the queries select it (also the shape of the history read model's copy). */
export type EventRow = {
  position: string;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  data: unknown;
  metadata: EventMetadata;
};

type AppendRow = {
  next_version: number | null;
  last_position: string | null;
  conflict_version: number | null;
};

/**
 * The elements of a JSON array parameter, in order, as jsonb[]. Bodies travel as one JSON array
 * instead of a jsonb[] array literal, in which every document is quoted and escaped by the driver
 * and unescaped again by the server. With the one-event form below, `npm run bench:eventstore`
 * (three alternated runs each): lone appends 0.53-0.60× → 0.59-0.65× a raw INSERT, 10-event
 * appends 0.46-0.53× → 0.48-0.58× a raw 10-row INSERT.
 */
const jsonbArray = (param: string) =>
  `ARRAY(SELECT d FROM jsonb_array_elements(${param}::jsonb) WITH ORDINALITY AS t(d, n) ORDER BY n)`;

const APPEND_SQL = `SELECT next_version, last_position, conflict_version FROM kosh_append_one($1, $2, $3::text[], $4::text[], ${jsonbArray('$5')}, ${jsonbArray('$6')})`;

// One event (most appends): scalar parameters, no array to build or take apart.
/** The store's statements are fixed texts: planned once per connection (db.ts `prepared`). */
const PREPARED = { prepared: true } as const;

const APPEND_ONE_EVENT_SQL =
  'SELECT next_version, last_position, conflict_version FROM kosh_append_one($1, $2, ARRAY[$3::text], ARRAY[$4::text], ARRAY[$5::jsonb], ARRAY[$6::jsonb])';

const APPEND_BATCH_SQL = `SELECT idx, next_version, last_position, conflict_version FROM kosh_append_batch($1::text[], $2::integer[], $3::integer[], $4::text[], $5::text[], ${jsonbArray('$6')}, ${jsonbArray('$7')})`;

const EVENT_COLUMNS =
  'kosh_position(transaction_id, global_position) AS position, event_id, stream_id, stream_version, type, data, metadata';

const READ_ALL_SQL = `SELECT ${EVENT_COLUMNS}
FROM events
WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
  AND transaction_id < kosh_read_horizon()
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

// A wake-up needs no durability: commit it asynchronously (no WAL flush wait of its own).
const NOTIFY_SQL = "SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)";

const LAST_OF_STREAM_SQL = `SELECT stream_version, kosh_position(transaction_id, global_position) AS position
FROM events WHERE stream_id = $1 ORDER BY stream_version DESC LIMIT 1`;

export function expectedVersionParam(expected: ExpectedVersion): number {
  if (expected === 'no_stream') return -1;
  if (expected === 'any') return -2;
  if (!Number.isSafeInteger(expected) || expected < 0 || expected > 2_147_483_647) {
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

type PgError = { code?: string; constraint?: string };

const isDuplicateEventId = (e: PgError) => e.code === '23505' && e.constraint === 'events_event_id_key';

export function rowToEvent(row: EventRow): RecordedEvent {
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

function settle(
  streamId: string,
  expectedVersion: ExpectedVersion,
  row: AppendRow | undefined,
): AppendResult {
  if (!row) throw new Error('kosh_append_one returned no row');
  if (row.conflict_version !== null)
    throw new ConcurrencyError(streamId, expectedVersion, row.conflict_version);
  if (row.next_version === null || row.last_position === null)
    throw new Error('kosh_append_one returned no result');
  return { nextVersion: row.next_version, position: row.last_position };
}

/**
 * Appends on `q` in one statement: a pool / PGlite database (autocommit) or a transaction of
 * the caller's (then the events commit with it, and the stream stays locked until then).
 * Throws `ConcurrencyError` when the stream is not at `expectedVersion`. Announces nothing:
 * subscribers hear of it from the next append through a store, or the safety-net tick.
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
  const [only] = events;
  if (events.length === 1 && only) {
    const { rows } = await q.query<AppendRow>(
      APPEND_ONE_EVENT_SQL,
      [
        streamId,
        expected,
        only.id,
        only.type,
        JSON.stringify(only.data ?? null),
        JSON.stringify(only.metadata),
      ],
      PREPARED,
    );
    return settle(streamId, expectedVersion, rows[0]);
  }
  const { rows } = await q.query<AppendRow>(
    APPEND_SQL,
    [
      streamId,
      expected,
      events.map((e) => e.id),
      events.map((e) => e.type),
      JSON.stringify(events.map((e) => e.data ?? null)),
      JSON.stringify(events.map((e) => e.metadata)),
    ],
    PREPARED,
  );
  return settle(streamId, expectedVersion, rows[0]);
}

type PendingAppend = {
  streamId: string;
  events: readonly NewEvent[];
  expectedVersion: ExpectedVersion;
  resolve(result: AppendResult): void;
  reject(err: unknown): void;
};

/**
 * The PostgreSQL event store (ARCHITECTURE.md "Event store rules") on either driver of `Db`
 * (`pg` or PGlite). Needs the `event-store` migrations applied. The `Db` stays the caller's:
 * `close()` only stops this store's subscription and waits for its appends.
 */
export function createPostgresEventStore(db: Db, options: PostgresEventStoreOptions = {}): EventStore {
  const appendConcurrency = Math.max(1, options.appendConcurrency ?? 1);
  const maxEventsPerGroup = Math.max(1, options.maxEventsPerGroup ?? 1000);
  const maxAppendsPerGroup = Math.max(1, options.maxAppendsPerGroup ?? 256);
  const notifyIntervalMs = Math.max(0, options.notifyIntervalMs ?? 5);
  const confirmWithinMs = Math.max(0, options.confirmWithinMs ?? 10_000);
  const listeners = new Set<(position?: string) => void>();
  const instance = randomUUID();
  let live: Promise<() => Promise<void>> | null = null;
  let pending: string | null = null;
  let flushing: Promise<void> | null = null;
  let closed = false;
  let wakeFlusher: (() => void) | null = null;

  const queue: PendingAppend[] = [];
  let inFlight = 0;
  let drained: (() => void) | null = null;

  const call = (listener: (position?: string) => void, position?: string) => {
    try {
      listener(position);
    } catch {
      // a listener's failure is its own
    }
  };

  /**
   * After an append commits: wake this store's subscribers at once, and other processes with
   * NOTIFY from outside the append transaction (coalesced: at most one NOTIFY in flight, and one
   * per `notifyIntervalMs`; the first after a quiet interval goes at once).
   * NOTIFY inside the append would take a cluster-wide lock held through commit and serialise
   * every append's WAL flush.
   */
  function announce(position: string) {
    for (const l of listeners) call(l, position);
    if (pending === null || position > pending) pending = position;
    if (!flushing && !closed) {
      flushing = (async () => {
        while (pending !== null && !closed) {
          const p = pending;
          pending = null;
          await db.query(NOTIFY_SQL, [EVENTS_CHANNEL, `${p}|${instance}`], PREPARED).catch(() => {});
          // At most one NOTIFY per interval, also when the appends come one after the other
          // slower than a NOTIFY (one writer): the interval is waited out after every NOTIFY,
          // and what committed meanwhile goes in the next. Waited only while more was pending,
          // a lone writer sent one NOTIFY per append, a transaction (node ~170 µs + PostgreSQL
          // ~70 µs of CPU) beside every append's.
          if (closed) break;
          await new Promise<void>((resolve) => {
            wakeFlusher = resolve;
            setTimeout(resolve, notifyIntervalMs).unref?.();
          });
          wakeFlusher = null;
        }
        flushing = null;
      })();
    }
  }

  /** Appends still learning their outcome (confirmOutcome), outside the append slots. */
  const confirming = new Set<Promise<void>>();

  /**
   * Appends `a` on its own. `unsure`: an earlier statement carrying it broke off after it may
   * have reached the database (its grouped statement), so its outcome is open from the start.
   */
  async function appendOne(a: PendingAppend, unsure: unknown = null): Promise<void> {
    let duplicateRetried = false;
    for (;;) {
      try {
        a.resolve(await appendOn(db, a.streamId, a.events, a.expectedVersion));
        return;
      } catch (err) {
        // The same event id committed meanwhile by an append to another stream: once more,
        // which answers the original result (or a ConcurrencyError).
        if (isDuplicateEventId(err as PgError) && !duplicateRetried) {
          duplicateRetried = true;
          continue;
        }
        // The database answered (a conflict is an answer too), or nothing was ever sent.
        if (!isConnectionError(err) || (unsure === null && wasNeverSent(err))) {
          a.reject(err);
          return;
        }
        // Learnt outside this append slot: the appends queued behind it go on meanwhile.
        const learning = confirmOutcome(a, unsure ?? err).finally(() => confirming.delete(learning));
        confirming.add(learning);
        return;
      }
    }
  }

  /**
   * An append whose connection broke after it may have reached the database may be stored
   * although no answer came: a "failed" then would be a lie. Appending the same events again
   * tells (kosh_append_one stores no id twice and answers the first append's result), so that is
   * repeated until the database answers or `confirmWithinMs` has passed; then the outcome is
   * reported unknown (AppendOutcomeUnknownError), never as a failure.
   */
  async function confirmOutcome(a: PendingAppend, broke: unknown): Promise<void> {
    const deadline = Date.now() + confirmWithinMs;
    for (let attempt = 1; ; attempt++) {
      if (Date.now() >= deadline) {
        a.reject(new AppendOutcomeUnknownError(a.streamId, broke));
        return;
      }
      await sleep(Math.min(25 * 2 ** attempt, 500));
      try {
        a.resolve(await appendOn(db, a.streamId, a.events, a.expectedVersion));
        return;
      } catch (err) {
        if (!isConnectionError(err) && !isDuplicateEventId(err as PgError)) {
          a.reject(err);
          return;
        }
      }
    }
  }

  async function appendGroup(group: PendingAppend[]): Promise<void> {
    let rows: (AppendRow & { idx: number })[];
    try {
      const req: number[] = [];
      const ids: string[] = [];
      const types: string[] = [];
      const data: unknown[] = [];
      const metadata: unknown[] = [];
      group.forEach((a, i) => {
        for (const e of a.events) {
          req.push(i + 1);
          ids.push(e.id);
          types.push(e.type);
          data.push(e.data ?? null);
          metadata.push(e.metadata);
        }
      });
      ({ rows } = await db.query<AppendRow & { idx: number }>(
        APPEND_BATCH_SQL,
        [
          group.map((a) => a.streamId),
          group.map((a) => expectedVersionParam(a.expectedVersion)),
          req,
          ids,
          types,
          JSON.stringify(data),
          JSON.stringify(metadata),
        ],
        PREPARED,
      ));
    } catch (err) {
      // The whole group rolled back (a duplicate id raced in, a deadlock with a caller's own
      // transaction, ...), or its connection broke and it may be stored: append each on its
      // own, so each gets its own outcome.
      const unsure = isConnectionError(err) && !wasNeverSent(err) ? err : null;
      for (const a of group) await appendOne(a, unsure);
      return;
    }
    group.forEach((a, i) => {
      try {
        a.resolve(settle(a.streamId, a.expectedVersion, rows[i]));
      } catch (err) {
        a.reject(err);
      }
    });
  }

  /**
   * Takes from the queue, in order, the appends of one group: at most one per stream (a later
   * append to a stream waits for a later group, so appends to one stream keep their order) and
   * no event id twice; the others stay queued in order.
   */
  function takeGroup(): PendingAppend[] {
    const first = queue.shift()!;
    if (queue.length === 0) return [first];
    const group = [first];
    const streams = new Set([first.streamId]);
    const ids = new Set(first.events.map((e) => e.id));
    let events = first.events.length;
    const rest: PendingAppend[] = [];
    for (const next of queue) {
      const fits =
        group.length < maxAppendsPerGroup &&
        events + next.events.length <= maxEventsPerGroup &&
        !streams.has(next.streamId) &&
        next.events.every((e) => !ids.has(e.id));
      if (fits) {
        group.push(next);
        events += next.events.length;
        for (const e of next.events) ids.add(e.id);
      } else {
        rest.push(next);
      }
      streams.add(next.streamId);
    }
    queue.length = 0;
    queue.push(...rest);
    return group;
  }

  function pump() {
    // A second statement starts only for two or more waiting appends: a lone caller that
    // started its own statement beside a running group would keep doing so (it returns
    // first), one commit per event, instead of joining the group.
    while (inFlight < appendConcurrency && queue.length > (inFlight > 0 ? 1 : 0)) {
      const group = takeGroup();
      inFlight += 1;
      const run = group.length === 1 ? appendOne(group[0]!) : appendGroup(group);
      // Keep the slot until the callers this statement answered have had their turn: those
      // that append again at once then queue, and go together in the next group instead of
      // the first of them taking the slot alone.
      void run.finally(() =>
        setImmediate(() => {
          inFlight -= 1;
          if (inFlight === 0 && queue.length === 0) drained?.();
          pump();
        }),
      );
    }
  }

  return {
    async appendToStream(streamId, events, { expectedVersion }) {
      expectedVersionParam(expectedVersion);
      validateBatch(events);
      if (events.length === 0) return appendOn(db, streamId, events, expectedVersion);
      const result = await new Promise<AppendResult>((resolve, reject) => {
        queue.push({ streamId, events, expectedVersion, resolve, reject });
        pump();
      });
      announce(result.position);
      return result;
    },
    async readStream(streamId, opts) {
      const from = Math.max(1, opts?.from ?? 1);
      const { rows } = await db.query<EventRow & { current_version: number }>(
        READ_STREAM_SQL,
        [streamId, from],
        PREPARED,
      );
      const version = rows[0]?.current_version ?? 0;
      const events = rows.filter((r) => r.event_id !== null).map(rowToEvent);
      return { version, events };
    },
    async readAll({ after, limit }) {
      if (!Number.isSafeInteger(limit) || limit <= 0)
        throw new RangeError('limit must be a positive integer');
      const from = decodePosition(after);
      const { rows } = await db.query<EventRow>(
        READ_ALL_SQL,
        [from.transactionId.toString(), from.globalPosition.toString(), limit],
        PREPARED,
      );
      return rows.map(rowToEvent);
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
      listeners.clear();
      if (inFlight > 0 || queue.length > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
        });
      }
      await Promise.all(confirming);
      closed = true;
      wakeFlusher?.();
      await flushing;
      const l = live;
      live = null;
      if (l) await (await l.catch(() => async () => {}))();
    },
  };
}
