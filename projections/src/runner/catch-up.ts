/**
 * Live catch-up: each batch (up to `batchSize` events after the checkpoint) is applied in one
 * transaction together with a compare-and-set of the checkpoint, under
 * `pg_try_advisory_xact_lock`, so at most one runner applies a projection's batch at a time
 * and a batch lands once even when jobs or processes overlap. A batch that keeps failing is
 * retried with backoff, then applied event by event up to the one to dead-letter.
 */
import type { RecordedEvent } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { type Checkpoint, LIVE_LOCK, type RunnerContext, sleep } from './context';
import { isTransientError, recordDeadLetter } from './dead-letters';
import { changedBy } from './owners';

/** How long a catch-up keeps retrying for a committed event that readAll still hides. */
const HIDDEN_EVENT_WAIT_MS = 5000;

export type RunOnceStatus =
  /** A batch was applied and the checkpoint moved. */
  | 'applied'
  /** Nothing after the checkpoint. */
  | 'idle'
  /** Another runner holds this projection's lock. */
  | 'busy'
  /** The projection is stopped (dead letter). */
  | 'stopped'
  /** The checkpoint moved under us (another runner or a rebuild swap); read again. */
  | 'moved';

export type RunOnceResult = { status: RunOnceStatus; events: number; position: string };
export type CatchUpResult = { events: number; position: string; stopped: boolean };

export type CatchUpOptions = { batchSize: number; maxAttempts: number; retryBackoffMs: number };
/** `once`: see `ProjectionRunner.catchUp` (runner.ts). */
export type CatchUpCall = { once?: boolean };

/** A string as an SQL literal, for a statement sent without parameters. */
function literal(value: string): string {
  const quoted = value.replace(/'/g, "''");
  return value.includes('\\') ? `E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

/**
 * The opening of a batch (runner migrations 003, 004): the live lock taken without waiting, then the
 * checkpoint moved from `expected` to `to` (compare-and-set), and the change counts of whose rows
 * the batch changes (`changed`, owners.ts) moved. `locked` false: another applier
 * holds the lock; `advanced` false: the checkpoint was not at `expected`, or is stopped. Sent
 * without parameters (its values are the runner's own: a lock key, a projection name, positions)
 * so the pg driver sends it with BEGIN in one message: a batch costs four round trips, not six.
 * `asyncCommit` (types.ts): the batch's commit does not wait for the WAL flush.
 */
/**
 * A batch's transaction waits for its fold in JS between its statements: one statement import's
 * event folds 50,000 rows, which on a loaded machine takes longer than the pool's
 * `idle_in_transaction_session_timeout` (10 s), and the batch was cut off and retried until it
 * was dead-lettered. The batch allows itself this long.
 */
const BATCH_IDLE_LIMIT = '120s';

/** What `kosh_lock_and_advance` answers. */
type AdvanceRow = { locked: boolean; advanced: boolean; position: string | null; status: string | null };

/** A batch's status from its opening's answer; 'applied' means the batch may apply its events. */
function statusOf(name: string, row: AdvanceRow): Exclude<RunOnceStatus, 'idle'> {
  if (!row.locked) return 'busy';
  if (row.position === null) throw new Error(`Checkpoint of ${name} vanished`);
  if (row.status === 'stopped') return 'stopped';
  if (!row.advanced) return 'moved';
  return 'applied';
}

async function lockAndAdvance(
  tx: Queryable,
  name: string,
  expected: string,
  to: string,
  changed: { shared: boolean; users: readonly string[] },
  asyncCommit: boolean,
): Promise<AdvanceRow> {
  const { rows } = await tx.query<AdvanceRow>(
    `${asyncCommit ? 'SET LOCAL synchronous_commit TO off;' : ''}
     SET LOCAL idle_in_transaction_session_timeout TO '${BATCH_IDLE_LIMIT}';
     SELECT locked, advanced, at_position AS position, at_status AS status
       FROM kosh_lock_and_advance(${LIVE_LOCK}, ${literal(name)}, ${literal(expected)}, ${literal(to)},
            ${changed.shared}, ARRAY[${changed.users.map(literal).join(',')}]::text[])`,
  );
  const row = rows[0];
  if (!row) throw new Error('lockAndAdvance returned no row');
  return row;
}

export function createCatchUp(
  ctx: RunnerContext,
  { batchSize, maxAttempts, retryBackoffMs }: CatchUpOptions,
) {
  const { db, eventStore, logger, watcher } = ctx;

  /**
   * Batches that hold nothing a read model handles only move its checkpoint. Those asked for in
   * one turn of the event loop (the read models one NOTIFY woke, which share one read of the log:
   * context.ts `readAfter`) move together: one transaction calling `kosh_lock_and_advance` for
   * each, where each took a transaction of its own (a BEGIN, a call and a COMMIT round trip; 13
   * of the 20 consumers have nothing for a recorded transaction). Each keeps its own lock and
   * compare-and-set, so the answers are the same as alone. Its commit does not wait for the WAL
   * flush: a move lost in a crash is read again and again passes nothing.
   */
  let idleAdvances: {
    name: string;
    from: string;
    to: string;
    settle: (row: AdvanceRow | Error) => void;
  }[] = [];
  function advanceIdle(name: string, from: string, to: string): Promise<AdvanceRow> {
    return new Promise((resolve, reject) => {
      idleAdvances.push({
        name,
        from,
        to,
        settle: (row) => (row instanceof Error ? reject(row) : resolve(row)),
      });
      if (idleAdvances.length === 1) setImmediate(flushIdleAdvances);
    });
  }
  async function flushIdleAdvances(): Promise<void> {
    const advances = idleAdvances;
    idleAdvances = [];
    try {
      const values = advances
        .map((a, i) => `(${i}, ${literal(a.name)}, ${literal(a.from)}, ${literal(a.to)})`)
        .join(',');
      const rows = await db.transaction(async (tx) => {
        const result = await tx.query<AdvanceRow & { ord: number }>(
          `SET LOCAL synchronous_commit TO off;
           SELECT n.ord, r.locked, r.advanced, r.at_position AS position, r.at_status AS status
             FROM (VALUES ${values}) AS n(ord, name, from_position, to_position)
             CROSS JOIN LATERAL kosh_lock_and_advance(${LIVE_LOCK}, n.name, n.from_position,
                  n.to_position, false, ARRAY[]::text[]) AS r
            ORDER BY n.ord`,
        );
        return result.rows;
      });
      advances.forEach((a, i) => {
        const row = rows[i];
        a.settle(row && Number(row.ord) === i ? row : new Error('kosh_lock_and_advance returned no row'));
      });
    } catch (error) {
      for (const a of advances) a.settle(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * One batch in one transaction: the projection's writes plus a compare-and-set of its
   * checkpoint from `expected` to the last event's position. Events are read before the
   * transaction opens: on PGlite the store's read would otherwise wait for this transaction.
   */
  async function applyBatch(
    name: string,
    expected: string,
    events: readonly RecordedEvent[],
  ): Promise<Exclude<RunOnceStatus, 'idle'>> {
    const { projection, handles } = ctx.get(name);
    const last = events[events.length - 1];
    if (!last) throw new Error('applyBatch needs events');
    const handled = events.filter((event) => handles.has(event.type));
    const status =
      handled.length === 0
        ? statusOf(name, await advanceIdle(name, expected, last.position))
        : await db.transaction(async (tx) => {
            const opened = statusOf(
              name,
              await lockAndAdvance(
                tx,
                name,
                expected,
                last.position,
                changedBy(handled),
                projection.asyncCommit === true,
              ),
            );
            if (opened === 'applied') await projection.apply(tx, handled);
            return opened;
          });
    if (status === 'applied') watcher.advanced(name, last.position);
    return status;
  }

  // Where this process's last batch left each projection. The next batch starts there without
  // reading the checkpoint first (one statement less per projection of every command): the
  // batch's compare-and-set under the lock still checks it, and any other answer than
  // 'applied' forgets it, so a checkpoint moved elsewhere (another process, a rebuild, a stop)
  // costs one 'moved' round, never a wrong batch.
  const appliedTo = new Map<string, string>();

  async function runOnce(name: string): Promise<RunOnceResult> {
    ctx.get(name);
    const known = appliedTo.get(name);
    appliedTo.delete(name);
    const checkpoint: Checkpoint =
      known !== undefined ? { position: known, status: 'running' } : await ctx.readCheckpoint(name);
    if (checkpoint.status === 'stopped')
      return { status: 'stopped', events: 0, position: checkpoint.position };
    const events = await ctx.readAfter(checkpoint.position, batchSize);
    const last = events[events.length - 1];
    // Nothing after where this process left it: the checkpoint itself says whether that holds
    // (it may have been moved back, to replay).
    if (!last && known !== undefined) return runOnce(name);
    if (!last) return { status: 'idle', events: 0, position: checkpoint.position };
    const status = await applyBatch(name, checkpoint.position, events);
    if (status !== 'applied') return { status, events: 0, position: checkpoint.position };
    appliedTo.set(name, last.position);
    return { status, events: events.length, position: last.position };
  }

  /**
   * After a batch failed `maxAttempts` times: apply it one event at a time so the events
   * before the failing one land, and the dead letter names the event that fails.
   */
  async function isolateFailure(name: string): Promise<RunOnceResult> {
    const checkpoint = await ctx.readCheckpoint(name);
    if (checkpoint.status === 'stopped')
      return { status: 'stopped', events: 0, position: checkpoint.position };
    const events = await ctx.readAfter(checkpoint.position, batchSize);
    let position = checkpoint.position;
    let applied = 0;
    for (const event of events) {
      try {
        const status = await applyBatch(name, position, [event]);
        if (status !== 'applied') return { status, events: applied, position };
      } catch (error) {
        if (isTransientError(error)) throw error;
        await recordDeadLetter(ctx, name, position, event, error);
        return { status: 'stopped', events: applied, position };
      }
      applied++;
      position = event.position;
    }
    return { status: applied > 0 ? 'applied' : 'idle', events: applied, position };
  }

  async function runWithRetries(name: string): Promise<RunOnceResult> {
    for (let attempt = 1; attempt < maxAttempts; attempt++) {
      try {
        return await runOnce(name);
      } catch (error) {
        if (isTransientError(error)) throw error;
        logger.warn({ projection: name, attempt, err: error }, 'projection batch failed; retrying');
        await sleep(retryBackoffMs * 2 ** (attempt - 1));
      }
    }
    return isolateFailure(name);
  }

  const inflight = new Map<string, { again: boolean; chase: boolean; promise: Promise<CatchUpResult> }>();

  // The newest position this process heard committed (its own appends and NOTIFY from others).
  // readAll hides a committed event while an older transaction is still open, even one of
  // another projection's batches; a catch-up that stops short of it would leave it to the
  // safety-net tick, seconds later, and a read-your-writes wait would time out.
  let latestCommitted = '';
  let unsubscribe: (() => void) | null = null;
  function followCommits(): void {
    if (unsubscribe) return;
    unsubscribe = eventStore.subscribe((position) => {
      if (position && position > latestCommitted) latestCommitted = position;
    });
  }

  async function catchUpLoop(
    name: string,
    state: { again: boolean; chase: boolean },
  ): Promise<CatchUpResult> {
    let events = 0;
    let busyWaits = 0;
    let hiddenSince = 0;
    let hiddenLooks = 0;
    for (;;) {
      state.again = false;
      const result = await runWithRetries(name);
      events += result.events;
      if (result.status === 'stopped') return { events, position: result.position, stopped: true };
      // A batch shorter than the limit took the whole log as readAll showed it. Unless this process
      // heard of a later commit meanwhile (its own append sets `again`; its appends and NOTIFY move
      // latestCommitted), another round would only read the log, find nothing, and then read the
      // checkpoint and the log again (runOnce): statements per projection of every command for
      // nothing (POST /api/transactions: 27 → 23 statements one at a time when this came in;
      // `npm run bench:http`). A later append's own catch-up takes its events. A loop run only
      // for callers that come back (`once`: the own-writes plugin's gathered rounds) stops here
      // too: chasing every commit heard during the batch split a moment's writes into several
      // batches of a few rows each (a transaction, its statements and a commit per read model
      // per batch; `npm run bench:writes`).
      if (
        result.status === 'applied' &&
        result.events < batchSize &&
        !state.again &&
        (!state.chase || latestCommitted <= result.position)
      ) {
        return { events, position: result.position, stopped: false };
      }
      if (result.status === 'applied' || result.status === 'moved') continue;
      if (result.status === 'busy') {
        // Another process is applying; keep checking until it has caught up, so an event
        // that arrived meanwhile is never left waiting for the safety-net tick.
        busyWaits++;
        if (busyWaits > 200) return { events, position: result.position, stopped: false };
        await sleep(Math.min(25 * busyWaits, 250));
        continue;
      }
      if (state.again) continue;
      if (latestCommitted > result.position) {
        hiddenSince ||= Date.now();
        if (Date.now() - hiddenSince < HIDDEN_EVENT_WAIT_MS) {
          // Hidden behind a transaction still open in the log's database (kosh_read_horizon), for
          // as long as that lasts: each look reads the checkpoint and the log, so look less often
          // the longer it takes (10 ms, 20, 40, then every 80).
          await sleep(Math.min(10 * 2 ** hiddenLooks++, 80));
          continue;
        }
      }
      return { events, position: result.position, stopped: false };
    }
  }

  function catchUp(name: string, call: CatchUpCall = {}): Promise<CatchUpResult> {
    ctx.get(name);
    followCommits();
    const chase = call.once !== true;
    const running = inflight.get(name);
    if (running) {
      running.again = true;
      if (chase) running.chase = true;
      return running.promise;
    }
    const state = { again: false, chase } as {
      again: boolean;
      chase: boolean;
      promise: Promise<CatchUpResult>;
    };
    state.promise = catchUpLoop(name, state).finally(() => inflight.delete(name));
    inflight.set(name, state);
    return state.promise;
  }

  return {
    runOnce,
    catchUp,
    followCommits,
    newestCommitted: () => latestCommitted,
    /** Stops following the store's commit notifications. */
    close() {
      unsubscribe?.();
    },
  };
}
