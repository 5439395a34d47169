/**
 * Where one read model's rebuild spends its time (issue 33 item 5), on a kept database (e.g.
 * `SCALE_KEEP=1 npm run bench:scale`): `DATABASE_URL=... npx tsx bench/src/rebuild-batches.ts
 * <projection> [batches]` replays the first `batches` (20) batches of REBUILD_BATCH events (2,000)
 * into fresh copies of the projection's tables in schema `rebuild_probe` made as a rebuild makes
 * them: without the indexes a rebuild defers to the end (plain GIN/GiST/BRIN ones and those the
 * projection names in `deferredIndexes`; REBUILD_ALL_INDEXES=1 keeps every index, to compare),
 * times each batch (read excluded) and, with EXPLAIN=1, has auto_explain
 * write the last batch's plans with their actual times to the server's log. Drops the schema
 * after. Not a test: figures only.
 */
import { performance } from 'node:perf_hooks';
import { createPgDb, createPostgresEventStore } from '@kosh/event-store';
import { allProjections, deferredIndexKeys, indexKey, tableIndexes } from '@kosh/projections';

const url = process.env.DATABASE_URL;
const name = process.argv[2];
const batches = Number(process.argv[3] ?? 20);
const size = Number(process.env.REBUILD_BATCH ?? 2000);
const projection = allProjections.find((p) => p.name === name);
if (!url || !projection) {
  console.error(`Usage: DATABASE_URL=... tsx bench/src/rebuild-batches.ts <projection> [batches]
Projections: ${allProjections.map((p) => p.name).join(', ')}`);
  process.exit(1);
}
const db = createPgDb(url, { max: 2 });
const store = createPostgresEventStore(db);
await db.query('DROP SCHEMA IF EXISTS rebuild_probe CASCADE');
await db.query('CREATE SCHEMA rebuild_probe');
for (const table of projection.tables)
  await db.query(`CREATE TABLE rebuild_probe."${table}" (LIKE public."${table}" INCLUDING ALL)`);
if (process.env.REBUILD_ALL_INDEXES !== '1') {
  // What a rebuild defers (projections/src/runner/rebuild.ts), decided from the live tables.
  const deferred = deferredIndexKeys(
    await tableIndexes(db, 'public', projection.tables),
    new Set(projection.deferredIndexes ?? []),
  );
  for (const copy of await tableIndexes(db, 'rebuild_probe', projection.tables))
    if (copy.plain && deferred.has(indexKey(copy))) {
      await db.query(`DROP INDEX rebuild_probe."${copy.index}"`);
      console.log(`deferred, as a rebuild does: ${indexKey(copy)}`);
    }
}
let after: string | null = null;
let total = 0;
let events = 0;
for (let i = 0; i < batches; i++) {
  const batch = await store.readAll({ after, limit: size });
  const last = batch[batch.length - 1];
  if (!last) break;
  after = last.position;
  const explain = process.env.EXPLAIN === '1' && i === batches - 1;
  const started = performance.now();
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL search_path TO rebuild_probe, public; SET LOCAL synchronous_commit TO off');
    if (explain)
      await tx.query(`LOAD 'auto_explain'; SET LOCAL auto_explain.log_min_duration = 0;
        SET LOCAL auto_explain.log_analyze = on; SET LOCAL auto_explain.log_nested_statements = on`);
    await projection.apply(tx, batch);
  });
  const ms = performance.now() - started;
  total += ms;
  events += batch.length;
  console.log(`batch ${i + 1}: ${batch.length} events in ${ms.toFixed(0)} ms`);
}
console.log(
  `${name}: ${events} events applied in ${(total / 1000).toFixed(1)} s = ${Math.round(events / (total / 1000))} events/s (reads excluded)`,
);
await db.query('DROP SCHEMA rebuild_probe CASCADE');
await db.close();
