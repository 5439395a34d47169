import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db';
import { createPgDb } from './db-pg';
import { createPgliteDb } from './db-pglite';
import { eventStoreMigrations, migrate } from './migrations';
import { createPostgresEventStore } from './postgres-event-store';
import { createTestDatabase, type TestDatabase } from './testing/test-database';

const eventStoreFiles = [
  'event-store/001_events.sql',
  'event-store/002_append_one_plan.sql',
  'event-store/003_user_hash_chain.sql',
  'event-store/004_audit_streams_owned.sql',
  'event-store/005_chain_in_one_pass.sql',
  'event-store/006_chain_lock_then_write.sql',
  'event-store/007_erasure.sql',
  'event-store/008_chain_erasure_stream.sql',
  'event-store/009_chain_owner_every_stream.sql',
  'event-store/010_chain_link_in_event_row.sql',
  'event-store/011_read_horizon_own_database.sql',
  'event-store/012_append_ids_checked_by_insert.sql',
];

async function waitUntil(check: () => boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function driverContract(name: string, open: () => Promise<{ db: Db; close(): Promise<void> }>) {
  describe(`Db driver: ${name}`, () => {
    let db: Db;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ db, close } = await open());
    });
    afterAll(() => close?.());

    it('returns the same value types on both drivers', async () => {
      const { rows } = await db.query<Record<string, unknown>>(
        `SELECT 9007199254740991::int8 AS big, count(*) AS n, 12.50::numeric(14,2) AS money,
                '2026-03-31'::date AS day, '{"a":[1,"x"]}'::jsonb AS doc, 3::int4 AS small,
                'text' AS s, true AS flag, NULL::int8 AS nothing, '2026-01-15T10:00:00Z'::timestamptz AS at
           FROM (VALUES (1), (2)) v(x)`,
        [],
      );
      expect(rows[0]).toEqual({
        big: 9007199254740991,
        n: 2,
        money: '12.50',
        day: '2026-03-31',
        doc: { a: [1, 'x'] },
        small: 3,
        s: 'text',
        flag: true,
        nothing: null,
        at: new Date('2026-01-15T10:00:00Z'),
      });
      await expect(db.query('SELECT 9007199254740993::int8 AS too_big')).rejects.toThrow(/MAX_SAFE_INTEGER/);
    });

    it('runs several statements in a query without parameters and returns the last result', async () => {
      const r = await db.query<{ v: number }>(
        'CREATE TEMP TABLE IF NOT EXISTS multi (v int); INSERT INTO multi VALUES (7); SELECT v FROM multi',
      );
      expect(r.rows).toEqual([{ v: 7 }]);
      await db.query('DROP TABLE multi');
    });

    it('commits a transaction, rolls it back when the callback throws, and reports row counts', async () => {
      await db.query('CREATE TABLE IF NOT EXISTS tx_probe (id int PRIMARY KEY)');
      await db.transaction(async (tx) => {
        const r = await tx.query('INSERT INTO tx_probe VALUES ($1), ($2)', [1, 2]);
        expect(r.rowCount).toBe(2);
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO tx_probe VALUES ($1)', [3]);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      const { rows } = await db.query<{ id: number }>('SELECT id FROM tx_probe ORDER BY id', []);
      expect(rows.map((r) => r.id)).toEqual([1, 2]);
      const updated = await db.query('UPDATE tx_probe SET id = id + 10 WHERE id > $1', [0]);
      expect(updated.rowCount).toBe(2);
    });

    it('keeps a transaction whole when its first statement has no parameters (pg sends it with BEGIN)', async () => {
      await db.query('CREATE TABLE IF NOT EXISTS tx_first (id int PRIMARY KEY)');
      const xids = await db.transaction(async (tx) => {
        const first = await tx.query<{ x: string }>(
          'INSERT INTO tx_first VALUES (1); SELECT pg_current_xact_id()::text AS x',
        );
        const second = await tx.query<{ x: string }>('SELECT pg_current_xact_id()::text AS x WHERE $1', [
          true,
        ]);
        return [first.rows[0]?.x, second.rows[0]?.x];
      });
      expect(xids[0]).toBeDefined();
      expect(xids[1]).toBe(xids[0]);
      await expect(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO tx_first VALUES (2)');
          await tx.query('INSERT INTO tx_first VALUES ($1)', [3]);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      // A failing first statement leaves nothing behind, and the pool's connection is usable.
      await expect(
        db.transaction((tx) => tx.query('INSERT INTO tx_first VALUES (4); INSERT INTO tx_first VALUES (1)')),
      ).rejects.toThrow();
      const { rows } = await db.query<{ id: number }>('SELECT id FROM tx_first ORDER BY id', []);
      expect(rows.map((r) => r.id)).toEqual([1]);
      expect(await db.transaction(async () => 'no statement')).toBe('no statement');
    });

    it('delivers NOTIFY to listeners on commit, and stops after unlisten', async () => {
      const got: string[] = [];
      const unlisten = await db.listen('kosh_probe', (p) => got.push(p));
      await db.transaction(async (tx) => {
        await tx.query("SELECT pg_notify('kosh_probe', 'in-tx')", []);
        await tx.query("SELECT pg_notify('kosh_probe', 'in-tx-2')", []);
      });
      await waitUntil(() => got.length === 2, 'two notifications');
      expect(got).toEqual(['in-tx', 'in-tx-2']);
      await unlisten();
      await db.query("SELECT pg_notify('kosh_probe', 'after')", []);
      await db.query("SELECT pg_notify('kosh_probe_other', 'flush')", []);
      expect(got).toEqual(['in-tx', 'in-tx-2']);
    });

    it('applies migrations once, in scope then file order, even when started twice at once', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'kosh-mig-'));
      try {
        const { writeFile } = await import('node:fs/promises');
        await writeFile(join(dir, '002_b.sql'), "INSERT INTO mig_probe VALUES ('b');");
        await writeFile(
          join(dir, '001_a.sql'),
          "CREATE TABLE mig_probe (v text);\nINSERT INTO mig_probe VALUES ('a');",
        );
        await writeFile(join(dir, 'README.md'), 'not a migration');
        const sources = [eventStoreMigrations, { scope: 'probe', dir }];
        const [first, second] = await Promise.all([migrate(db, sources), migrate(db, sources)]);
        const applied = [...first, ...second].filter((m) => m.scope === 'probe').map((m) => m.name);
        expect(applied.sort()).toEqual(['001_a.sql', '002_b.sql']);
        expect(await migrate(db, sources)).toEqual([]);
        const { rows } = await db.query<{ v: string }>('SELECT v FROM mig_probe', []);
        expect(rows.map((r) => r.v)).toEqual(['a', 'b']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}

let pgDatabase: TestDatabase;
driverContract('pg', async () => {
  pgDatabase = await createTestDatabase();
  return { db: pgDatabase.db, close: () => pgDatabase.drop() };
});

driverContract('PGlite (memory)', async () => {
  const db = await createPgliteDb(undefined);
  return { db, close: () => db.close() };
});

describe('pg driver specifics', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  it('ends a transaction left idle (idle_in_transaction_session_timeout on every connection)', async () => {
    const db = createPgDb(database.url, { idleInTransactionTimeoutMs: 200, max: 1 });
    try {
      const { rows } = await db.query<{ t: string }>(
        "SELECT current_setting('idle_in_transaction_session_timeout') AS t",
      );
      expect(rows[0]!.t).toBe('200ms');
      await expect(
        db.transaction(async (tx) => {
          await tx.query('SELECT 1', []);
          await new Promise((resolve) => setTimeout(resolve, 600)); // an idle writer
          await tx.query('SELECT 1', []);
        }),
      ).rejects.toThrow();
      // The pool recovers with a fresh connection.
      expect((await db.query<{ one: number }>('SELECT 1 AS one', [])).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });

  it('re-establishes LISTEN after its connection is killed, telling listeners to re-check', async () => {
    const db = createPgDb(database.url, { applicationName: 'kosh-listen-probe' });
    try {
      const got: string[] = [];
      await db.listen('kosh_probe', (p) => got.push(p));
      await db.query("SELECT pg_notify('kosh_probe', 'before')", []);
      await waitUntil(() => got.includes('before'), 'the first notification');
      const killed = await db.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'kosh-listen-probe' AND query LIKE 'LISTEN%'`,
        [],
      );
      expect(killed.rows[0]!.n).toBe(1);
      // On reconnect every listener is called with '' (something may have been missed).
      await waitUntil(() => got.includes(''), 'the reconnect call');
      await db.query("SELECT pg_notify('kosh_probe', 'after')", []);
      await waitUntil(() => got.includes('after'), 'a notification after the reconnect');
    } finally {
      await db.close();
    }
  });

  it('migrates concurrently from two pools (two processes starting at once)', async () => {
    const a = createPgDb(database.url);
    const b = createPgDb(database.url);
    try {
      const [ra, rb] = await Promise.all([
        migrate(a, [eventStoreMigrations]),
        migrate(b, [eventStoreMigrations]),
      ]);
      expect([...ra, ...rb].map((m) => `${m.scope}/${m.name}`).sort()).toEqual(eventStoreFiles);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('PGlite driver specifics', () => {
  it('keeps its data in dataDir across a restart, and migrations do not run twice', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kosh-pglite-'));
    try {
      const first = await createPgliteDb(dir);
      expect((await migrate(first, [eventStoreMigrations])).map((m) => `${m.scope}/${m.name}`)).toEqual(
        eventStoreFiles,
      );
      const store = createPostgresEventStore(first);
      await store.appendToStream(
        'user-1',
        [
          {
            id: 'e-1',
            type: 'UserRegistered',
            data: { name: 'Asha' },
            metadata: {
              userId: '1',
              correlationId: 'c',
              causationId: null,
              recordedAt: '2026-01-01T00:00:00.000Z',
              schemaVersion: 1,
            },
          },
        ],
        { expectedVersion: 'no_stream' },
      );
      await store.close();
      await first.close();

      const second = await createPgliteDb(dir);
      expect(await migrate(second, [eventStoreMigrations])).toEqual([]);
      const read = await createPostgresEventStore(second).readStream('user-1');
      expect(read.version).toBe(1);
      expect(read.events[0]!.data).toEqual({ name: 'Asha' });
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses db.query inside its own transaction instead of deadlocking', async () => {
    const db = await createPgliteDb(undefined);
    try {
      await expect(db.transaction(() => db.query('SELECT 1', []))).rejects.toThrow(
        /inside a PGlite transaction/,
      );
      expect((await db.query<{ one: number }>('SELECT 1 AS one', [])).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });
});
