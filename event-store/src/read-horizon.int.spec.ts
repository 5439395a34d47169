import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStoreMigrations, migrate } from './migrations';
import { createPostgresEventStore } from './postgres-event-store';
import { newTestEvent } from './testing/events';
import { createTestDatabase, type TestDatabase } from './testing/test-database';

/**
 * Readers see the log below the oldest transaction that could still add an event to it: one
 * running in this database. A transaction open in another database of the same server (a report,
 * another app, another test) holds nothing back.
 */
describe('read horizon', () => {
  let mine: TestDatabase;
  let other: TestDatabase;
  const clients: pg.Client[] = [];

  async function connect(url: string): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    mine = await createTestDatabase();
    other = await createTestDatabase();
    await migrate(mine.db, [eventStoreMigrations]);
    await other.db.query('CREATE TABLE busy (n int)');
  });

  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => {});
    await mine?.drop();
    await other?.drop();
  });

  it('an open transaction in another database does not hide a newly committed event', async () => {
    const store = createPostgresEventStore(mine.db);
    const before = await store.appendToStream(`s-${randomUUID()}`, [newTestEvent('Before', {})], {
      expectedVersion: 'no_stream',
    });

    // Another database's transaction takes a transaction id (a write) and stays open.
    const elsewhere = await connect(other.url);
    await elsewhere.query('BEGIN');
    await elsewhere.query('INSERT INTO busy VALUES (1)');
    const { rows } = await elsewhere.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
    const otherXid = BigInt(rows[0]?.xid ?? '0');

    const event = newTestEvent('After', {});
    const after = await store.appendToStream(`s-${randomUUID()}`, [event], { expectedVersion: 'no_stream' });
    // The hazard: the other transaction is older than the event's, so the cluster-wide
    // pg_snapshot_xmin is at or below it and would hide the event while the other stays open.
    const probe = await mine.db.query<{ xmin: string }>(
      'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
    );
    expect(BigInt(probe.rows[0]?.xmin ?? '0')).toBeLessThanOrEqual(otherXid);
    expect(BigInt(after.position.split(':')[0] ?? '0')).toBeGreaterThan(otherXid);

    try {
      const read = await store.readAll({ after: before.position, limit: 10 });
      expect(read.map((e) => e.id)).toEqual([event.id]);
      // Again, on every connection of the pool: each learns once that the other runs elsewhere.
      const next = newTestEvent('Next', {});
      await store.appendToStream(`s-${randomUUID()}`, [next], { expectedVersion: 'no_stream' });
      const reads = await Promise.all(
        Array.from({ length: 4 }, () => store.readAll({ after: before.position, limit: 10 })),
      );
      for (const again of reads) expect(again.map((e) => e.id)).toEqual([event.id, next.id]);
    } finally {
      await elsewhere.query('ROLLBACK');
    }
  });

  it('an open transaction in this database still holds back the events after it', async () => {
    const store = createPostgresEventStore(mine.db);
    const first = await store.appendToStream(`s-${randomUUID()}`, [newTestEvent('First', {})], {
      expectedVersion: 'no_stream',
    });

    // A transaction here takes the lower id; it may still append an event below the next one.
    const here = await connect(mine.url);
    await here.query('BEGIN');
    await here.query('SELECT pg_current_xact_id()');
    const later = newTestEvent('Later', {});
    await store.appendToStream(`s-${randomUUID()}`, [later], { expectedVersion: 'no_stream' });

    try {
      expect((await store.readAll({ after: first.position, limit: 10 })).map((e) => e.id)).toEqual([]);
    } finally {
      await here.query('COMMIT');
    }
    expect((await store.readAll({ after: first.position, limit: 10 })).map((e) => e.id)).toEqual([later.id]);
  });
});
