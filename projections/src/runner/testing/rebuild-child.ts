/**
 * A separate process that rebuilds the totals projection slowly and prints its progress, so a
 * test can SIGKILL it mid-rebuild. Usage: tsx rebuild-child.ts <database url>
 */
import { createPgDb, createPostgresEventStore } from '@kosh/event-store';
import { createProjectionRunner } from '../runner';
import { totalsProjection } from './test-projections';

const url = process.argv[2];
if (!url) throw new Error('usage: rebuild-child.ts <database url>');
const db = createPgDb(url, { max: 2 });
const runner = createProjectionRunner({
  db,
  eventStore: createPostgresEventStore(db),
  projections: [totalsProjection({ onApply: (tx) => tx.query('SELECT pg_sleep(0.02)').then(() => {}) })],
  rebuildBatchSize: 200,
});
await runner.rebuild('runner_test_totals', {
  onProgress: ({ processed }) => process.stdout.write(`progress ${processed}\n`),
});
process.stdout.write('done\n');
runner.close();
await db.close();
