import type { EventStore } from '@kosh/event-store';
import { createPostgresEventStore, eventStoreMigrations, migrate } from '@kosh/event-store';
import { createTestDatabase, type TestDatabase } from '@kosh/event-store/testing';
import { createProjectionRunner, type ProjectionRunner, runnerMigrations } from '@kosh/projections';
import { seedEvents, TOTALS_TABLE_SQL, tableDigest, totalsProjection } from '@kosh/projections/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectJob, registerProjectionJobs } from './projection-jobs';
import { queueAdapters, type TestQueue } from './queue/testing/queues';

const TOTALS = 'runner_test_totals';
const EXPECTED = `(SELECT stream_id, count(*)::int AS events, sum((data->>'amount')::bigint)::bigint AS amount,
  max(stream_version) AS version FROM events WHERE type = 'AmountAdded' GROUP BY stream_id)`;

describe.each(queueAdapters)('projection jobs on the $name queue', (adapter) => {
  let database: TestDatabase;
  let store: EventStore;
  let runner: ProjectionRunner;
  let current: TestQueue | null = null;

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrate(database.db, [eventStoreMigrations, runnerMigrations]);
    await database.db.query(TOTALS_TABLE_SQL);
    store = createPostgresEventStore(database.db);
  });

  beforeEach(() => {
    runner = createProjectionRunner({
      db: database.db,
      eventStore: store,
      projections: [totalsProjection()],
    });
  });

  afterEach(async () => {
    await current?.cleanup();
    current = null;
    runner.close();
  });

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('project jobs (one id per projection) de-duplicate and bring the read model up to date', async () => {
    current = adapter.create({ concurrency: 4 });
    const { queue } = current;
    // Safety net as in production, so a catch-up that ended behind another test's open
    // transaction is retried.
    await registerProjectionJobs(queue, runner, [totalsProjection()], { everyMs: 1000 });

    let last = '';
    for (let i = 0; i < 5; i++) {
      last = await seedEvents(store, { count: 200 });
      const job = projectJob(TOTALS);
      await Promise.all([queue.enqueue(job, {}, { jobId: job }), queue.enqueue(job, {}, { jobId: job })]);
    }

    expect(await runner.waitFor([TOTALS], last, 15_000)).toBe(true);
    expect(await tableDigest(database.db, 'runner_test_totals', 'stream_id')).toBe(
      await tableDigest(database.db, EXPECTED, 'stream_id'),
    );
  });

  it('the scheduled safety net catches up without any enqueue', async () => {
    current = adapter.create({ concurrency: 2 });
    const { queue } = current;
    const last = await seedEvents(store, { count: 100 });
    await registerProjectionJobs(queue, runner, [totalsProjection()], { everyMs: 200 });
    expect(await runner.waitFor([TOTALS], last, 15_000)).toBe(true);
  });
});
