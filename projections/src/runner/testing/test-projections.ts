import type { EventStore, NewEvent, Queryable } from '@kosh/event-store';
import { newTestEvent } from '@kosh/event-store/testing';
import type { Projection } from '../types';

/**
 * Tiny projections for the runner's own tests and the rebuild benchmark (not product read
 * models): per stream, how many `AmountAdded` events and their sum.
 */
export const TOTALS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS runner_test_totals (
  stream_id text PRIMARY KEY,
  events integer NOT NULL,
  amount bigint NOT NULL,
  version integer NOT NULL
)`;

/**
 * Indexes of the totals no write reads through: the first one the projection defers in a
 * rebuild (`deferredIndexes`), the second it keeps. Optional: without them, a rebuild warns.
 */
export const TOTALS_INDEXES_SQL = [
  'CREATE INDEX IF NOT EXISTS runner_test_totals_by_amount ON runner_test_totals (amount, stream_id)',
  'CREATE INDEX IF NOT EXISTS runner_test_totals_by_events ON runner_test_totals (events) WHERE events > 1',
];

export const APPLIED_LOG_TABLE_SQL = `CREATE TABLE IF NOT EXISTS runner_test_applied (
  event_id text NOT NULL,
  runner text NOT NULL
)`;

export type AmountAdded = { amount: number; poison?: boolean };

/**
 * One statement per batch. Idempotent per event: an event at or below the stored stream
 * version was already counted (at-least-once delivery).
 */
const APPLY_TOTALS_SQL = `INSERT INTO runner_test_totals AS t (stream_id, events, amount, version)
SELECT e.stream_id, count(*), sum(e.amount), max(e.version)
FROM jsonb_to_recordset($1::jsonb) AS e(stream_id text, amount bigint, version integer)
LEFT JOIN runner_test_totals cur ON cur.stream_id = e.stream_id
WHERE e.version > coalesce(cur.version, 0)
GROUP BY e.stream_id
ON CONFLICT (stream_id) DO UPDATE
SET events = t.events + excluded.events, amount = t.amount + excluded.amount, version = excluded.version`;

export type TotalsProjectionOptions = {
  name?: string;
  /** Extra work inside the transaction (tests: slow it down, log who applied what). */
  onApply?: (tx: Queryable, eventIds: string[]) => Promise<void>;
};

export function totalsProjection(options: TotalsProjectionOptions = {}): Projection {
  return {
    name: options.name ?? 'runner_test_totals',
    handles: ['AmountAdded'],
    tables: ['runner_test_totals'],
    deferredIndexes: ['runner_test_totals_by_amount'],
    async apply(tx, events) {
      const rows = events.map((e) => ({
        stream_id: e.streamId,
        amount: (e.data as AmountAdded).amount,
        version: e.streamVersion,
      }));
      await tx.query(APPLY_TOTALS_SQL, [JSON.stringify(rows)]);
      await options.onApply?.(
        tx,
        events.map((e) => e.id),
      );
    },
  };
}

/** Throws on every event whose data has `poison: true`; otherwise logs the event ids it saw. */
export function poisonSensitiveProjection(name = 'runner_test_poisoned'): Projection {
  return {
    name,
    handles: ['AmountAdded'],
    tables: ['runner_test_applied'],
    async apply(tx, events) {
      for (const event of events) {
        if ((event.data as AmountAdded).poison) throw new Error(`cannot project ${event.id}`);
      }
      await tx.query('INSERT INTO runner_test_applied (event_id, runner) SELECT unnest($1::text[]), $2', [
        events.map((e) => e.id),
        name,
      ]);
    },
  };
}

export function amountAdded(amount: number, extra: Partial<AmountAdded> = {}): NewEvent {
  return newTestEvent('AmountAdded', { amount, ...extra });
}

/**
 * Appends `count` AmountAdded events (amount = 1..count) spread over `streams` streams, plus
 * an unhandled event every 10th, in appends of up to `perAppend`. Returns the last position.
 */
export async function seedEvents(
  store: EventStore,
  { count, streams = 50, perAppend = 100 }: { count: number; streams?: number; perAppend?: number },
): Promise<string> {
  let position = '';
  let next = 1;
  while (next <= count) {
    const streamId = `test-${next % streams}`;
    const batch: NewEvent[] = [];
    for (; batch.length < perAppend && next <= count; next++) {
      batch.push(amountAdded(next));
      if (next % 10 === 0) batch.push({ ...amountAdded(0), type: 'SomethingElse' });
    }
    ({ position } = await store.appendToStream(streamId, batch, { expectedVersion: 'any' }));
  }
  return position;
}

/** Order-independent digest of a table, to compare read models row by row. */
export async function tableDigest(q: Queryable, table: string, orderBy: string): Promise<string> {
  const { rows } = await q.query<{ digest: string | null; n: number }>(
    `SELECT md5(string_agg(t::text, '|' ORDER BY ${orderBy})) AS digest, count(*)::int AS n FROM ${table} t`,
  );
  return `${rows[0]?.n ?? 0}:${rows[0]?.digest ?? ''}`;
}
