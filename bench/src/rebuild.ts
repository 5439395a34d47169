/**
 * Projection sections of `npm run bench:eventstore` (issue 2 item 10): replaying the log
 * through a simple projection (per-stream count and sum, one statement per batch), as a
 * rebuild into fresh tables with the swap, and as a live catch-up from zero.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { EventStore, NewEvent } from '@kosh/event-store';
import { migrate } from '@kosh/event-store';
import { createProjectionRunner, runnerMigrations } from '@kosh/projections';
import { amountAdded, TOTALS_TABLE_SQL, totalsProjection } from '@kosh/projections/testing';
import type { BenchSection, BenchTarget } from './support/bench-section';

const EVENTS = 100_000;
const SCALE = Number(process.env.BENCH_SCALE ?? '1');

/** Appends `count` AmountAdded events in appends of 100 over 4 concurrent writers. */
async function seed(store: EventStore, count: number): Promise<void> {
  const run = randomUUID().slice(0, 8);
  const appends = Math.ceil(count / 100);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = next++; i < appends; i = next++) {
        const size = Math.min(100, count - i * 100);
        const batch: NewEvent[] = Array.from({ length: size }, (_, k) => amountAdded(k + 1));
        await store.appendToStream(`bench-rebuild-${run}-${i % 500}`, batch, { expectedVersion: 'any' });
      }
    }),
  );
}

const prepared = new WeakMap<BenchTarget, Promise<number>>();

/** Once per target: the runner's tables, the projection's table and the 100k events. */
function prepare(target: BenchTarget): Promise<number> {
  let ready = prepared.get(target);
  if (!ready) {
    ready = (async () => {
      await migrate(target.db, [runnerMigrations]);
      await target.db.query(TOTALS_TABLE_SQL);
      const count = Math.max(1, Math.round(EVENTS * SCALE * target.scale));
      await seed(target.store, count);
      return count;
    })();
    prepared.set(target, ready);
  }
  return ready;
}

function runnerFor(target: BenchTarget) {
  return createProjectionRunner({
    db: target.db,
    eventStore: target.store,
    projections: [totalsProjection()],
  });
}

export const rebuildSection: BenchSection = {
  id: 'rebuild',
  async run(target) {
    const seeded = await prepare(target);
    const runner = runnerFor(target);
    try {
      const started = performance.now();
      const { processed } = await runner.rebuild('runner_test_totals');
      const seconds = (performance.now() - started) / 1000;
      return {
        label: 'rebuild of a simple projection',
        events: processed,
        seconds,
        note: `${seeded} of them projected; batches of 2000, fresh tables + swap`,
      };
    } finally {
      runner.close();
    }
  },
};

export const catchUpSection: BenchSection = {
  id: 'catch-up',
  async run(target) {
    const seeded = await prepare(target);
    await target.db.query(
      `UPDATE projection_checkpoints SET position = '' WHERE name = 'runner_test_totals'`,
    );
    await target.db.query('TRUNCATE runner_test_totals');
    const runner = runnerFor(target);
    try {
      const started = performance.now();
      const { events } = await runner.catchUp('runner_test_totals');
      const seconds = (performance.now() - started) / 1000;
      return {
        label: 'live catch-up from zero',
        events,
        seconds,
        note: `${seeded} of them projected; batches of 500`,
      };
    } finally {
      runner.close();
    }
  },
};

export const projectionSections: BenchSection[] = [rebuildSection, catchUpSection];
