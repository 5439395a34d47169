import pg from 'pg';
import type { Db } from '../../src/db';
import { createPgliteDb } from '../../src/db-pglite';
import { eventStoreMigrations, migrate } from '../../src/migrations';
import {
  appendOn,
  createPostgresEventStore,
  type PostgresEventStoreOptions,
} from '../../src/postgres-event-store';
import { createTestDatabase } from '../../src/testing/test-database';
import type { ContractHarness } from './event-store-contract';

class Rollback extends Error {}

function transactional(db: Db): Required<ContractHarness>['appendInTransaction'] {
  return async (streamId, events, expectedVersion, { roundTrips, rollback }) => {
    try {
      return await db.transaction(async (tx) => {
        const result = await appendOn(tx, streamId, events, expectedVersion);
        for (let i = 0; i < roundTrips; i++) await tx.query('SELECT 1');
        if (rollback) throw new Rollback();
        return result;
      });
    } catch (err) {
      if (err instanceof Rollback) return null;
      throw err;
    }
  };
}

/** A fresh PostgreSQL database (DATABASE_URL's server), dropped on close. */
export async function postgresHarness(
  storeOptions: PostgresEventStoreOptions = {},
): Promise<ContractHarness> {
  const database = await createTestDatabase({ max: 12 });
  await migrate(database.db, [eventStoreMigrations]);
  return {
    storesShareData: true,
    createStore: () => createPostgresEventStore(database.db, storeOptions),
    appendInTransaction: transactional(database.db),
    async openConnection() {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const connection = {
        query: async <Row>(sql: string, params?: readonly unknown[]) => {
          const res = await client.query(sql, params as unknown[] | undefined);
          return { rows: res.rows as Row[], rowCount: res.rowCount ?? 0 };
        },
      };
      return {
        query: connection.query,
        append: (streamId, events, expectedVersion) =>
          appendOn(connection, streamId, events, expectedVersion),
        close: () => client.end(),
      };
    },
    close: () => database.drop(),
  };
}

/** An in-memory PGlite database with the same migrations. */
export async function pgliteHarness(): Promise<ContractHarness> {
  const db = await createPgliteDb(undefined);
  await migrate(db, [eventStoreMigrations]);
  return {
    storesShareData: true,
    createStore: () => createPostgresEventStore(db),
    appendInTransaction: transactional(db),
    close: () => db.close(),
  };
}
