import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '@kosh/event-store/testing/test-database';
import { createPostgresEventStore, eventStoreMigrations, migrate } from '@kosh/event-store';
import { appendLoad } from './eventstore';
const t = await createTestDatabase({ max: 20 });
await migrate(t.db, [eventStoreMigrations]);
await t.db.query('CREATE TABLE plain (id bigint generated always as identity primary key, d jsonb)');
const meta = JSON.stringify({ userId: 'bench-user', correlationId: randomUUID(), causationId: null, recordedAt: new Date().toISOString(), schemaVersion: 1 });
const data = JSON.stringify({ transactionId: randomUUID(), amount: 125050, type: 'debit', date: '2026-01-15', description: 'Bench transaction', bankId: 1 });
async function raw(name: string, fn: (w: number, i: number) => Promise<unknown>, per = 400) {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 16 }, async (_, w) => { for (let i = 0; i < per; i++) await fn(w, i); }));
  console.log(name.padEnd(24), Math.round((16 * per) / ((performance.now() - t0) / 1000)), '/s  load', (await import('node:os')).loadavg()[0].toFixed(1));
}
for (let round = 0; round < 2; round++) {
  await raw('plain insert', () => t.db.query('INSERT INTO plain (d) VALUES ($1)', [data]));
  await raw('raw events insert', (w, i) => t.db.query('INSERT INTO events (event_id, stream_id, stream_version, type, data, metadata) VALUES ($1, $2, $3, $4, $5, $6)', [randomUUID(), `r${round}-${w}-${Math.floor(i / 10)}`, (i % 10) + 1, 'T', data, meta]));
  await raw('raw kosh_append_one', (w, i) => t.db.query('SELECT next_version, last_position, conflict_version FROM kosh_append_one($1, $2, $3::text[], $4::text[], $5::jsonb[], $6::jsonb[])', [`a${round}-${w}-${Math.floor(i / 10)}`, i % 10 === 0 ? -1 : i % 10, [randomUUID()], ['T'], [data], [meta]]));
  for (const [name, opts] of [['store default', {}], ['store no notify', { notifyIntervalMs: 1e9 }]] as const) {
    const store = createPostgresEventStore(t.db, opts);
    const t0 = performance.now();
    const r = await appendLoad(store, { writers: 16, appendsPerWriter: 400, batchSize: 1 });
    console.log(name.padEnd(24), Math.round(r.events / r.seconds), '/s  load', (await import('node:os')).loadavg()[0].toFixed(1), (performance.now() - t0).toFixed(0));
    await store.close();
  }
}
await t.drop();
