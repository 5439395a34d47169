import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@kosh/event-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { createRuntime } from './runtime';

const SECRET = randomBytes(48).toString('base64');

describe('EVENTSTORE_URL selects EventStoreDB as the event store', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('is accepted beside DATABASE_URL (read models stay in PostgreSQL), refused without it or with another scheme', () => {
    const base = { DATABASE_URL: 'postgres://db/kosh', JWT_SECRET: SECRET };
    const url = 'kurrentdb://eventstore:2113?tls=false';
    expect(loadConfig({ ...base, EVENTSTORE_URL: url }).EVENTSTORE_URL).toBe(url);
    expect(loadConfig({ ...base, EVENTSTORE_URL: 'esdb://eventstore:2113?tls=false' }).EVENTSTORE_URL).toBe(
      'esdb://eventstore:2113?tls=false',
    );
    expect(loadConfig(base).EVENTSTORE_URL).toBeUndefined();
    expect(() => loadConfig({ JWT_SECRET: SECRET, EVENTSTORE_URL: url })).toThrow(
      'EVENTSTORE_URL: read models stay in PostgreSQL; set DATABASE_URL too',
    );
    expect(() => loadConfig({ ...base, EVENTSTORE_URL: 'http://eventstore:2113' })).toThrow(ConfigError);
  });

  it('appends to the server it names and writes no event into PostgreSQL (start fails when it is down)', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      // Nothing listens on port 1: the catalog seed's first append must fail there.
      EVENTSTORE_URL: 'kurrentdb://127.0.0.1:1?tls=false',
      JWT_SECRET: SECRET,
      DATA_DIR: await mkdtemp(path.join(tmpdir(), 'kosh-esdb-')),
      LOG_LEVEL: 'silent',
    });
    await expect(createRuntime(config, { db: database.db, role: 'api' })).rejects.toThrow(/UNAVAILABLE/i);
    const { rows } = await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    expect(rows[0]!.n).toBe(0);
    // Read models are still set up in PostgreSQL.
    const tables = await database.db.query(
      "SELECT 1 FROM pg_tables WHERE tablename = 'projection_checkpoints'",
    );
    expect(tables.rows).toHaveLength(1);
  });
});
