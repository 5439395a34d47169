import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Db } from '../db';
import { createPgDb, type PgDbOptions } from '../db-pg';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export type TestDatabase = {
  /** Connection string of the new database. */
  url: string;
  /** A pool on it (closed by `drop`). */
  db: Db;
  /** Closes `db`, terminates every other connection to the database and drops it. */
  drop(): Promise<void>;
};

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const STALE_AFTER_MS = 3 * 60 * 60 * 1000;

/**
 * Drops test databases left behind by killed runs: named `<prefix>_<base36 ms>_<hex>`, older
 * than three hours, and with nobody connected (a plain DROP fails otherwise; that is ignored).
 */
async function dropStaleTestDatabases(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE datname ~ '^kosh_(test|bench)_[0-9a-z]+_[0-9a-f]{8}$'",
  );
  for (const { datname } of rows) {
    const created = Number.parseInt(datname.split('_')[2] ?? '', 36);
    if (!Number.isFinite(created) || Date.now() - created < STALE_AFTER_MS) continue;
    await client.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => {});
  }
}

/**
 * Creates a uniquely named, empty database on the server of DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres). Call `drop()` in afterAll.
 */
export async function createTestDatabase(
  options: PgDbOptions & { prefix?: string } = {},
): Promise<TestDatabase> {
  const baseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const adminUrl = withDatabase(baseUrl, 'postgres');
  const name = `${options.prefix ?? 'kosh_test'}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await admin(adminUrl, async (c) => {
    await dropStaleTestDatabases(c);
    await c.query(`CREATE DATABASE "${name}"`);
  });
  const url = withDatabase(baseUrl, name);
  const db = createPgDb(url, options);
  let dropped = false;
  return {
    url,
    db,
    async drop() {
      if (dropped) return;
      dropped = true;
      await db.close().catch(() => {});
      await admin(adminUrl, async (c) => {
        await c.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
    },
  };
}
