import { createTestDatabase } from '@kosh/event-store/testing/test-database';
import { createPostgresEventStore, eventStoreMigrations, migrate } from '@kosh/event-store';
import { appendLoad, percentile } from './eventstore';
const t = await createTestDatabase({ max: 20 });
await migrate(t.db, [eventStoreMigrations]);
for (const c of (process.env.CS ?? '8,16,4,8,16').split(',').map(Number)) {
  const store = createPostgresEventStore(t.db, { appendConcurrency: c });
  const r = await appendLoad(store, { writers: 16, appendsPerWriter: 500, batchSize: 1 });
  const s = [...r.latenciesMs].sort((a, b) => a - b);
  console.log('concurrency', c, Math.round(r.events / r.seconds), 'events/s p50', percentile(s, 50).toFixed(1), 'p99', percentile(s, 99).toFixed(1), 'load', (await import('node:os')).loadavg()[0]);
  await store.close();
}
await t.drop();
