export * from './db';
export { createPgDb, type PgDbOptions } from './db-pg';
export { createPgliteDb } from './db-pglite';
export { createInMemoryEventStore, type InMemoryEventStoreOptions } from './in-memory-event-store';
export { type AppliedMigration, eventStoreMigrations, type MigrationSource, migrate } from './migrations';
export * from './port';
export { comparePositions, decodePosition, encodePosition } from './position';
export {
  createPostgresEventStore,
  EVENTS_CHANNEL,
  type PostgresEventStoreOptions,
} from './postgres-event-store';
export { createUpcasterRegistry, noUpcasters, type Upcaster, type UpcasterRegistry } from './upcasters';
