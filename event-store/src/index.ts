/**
 * @kosh/event-store — the EventStore port and its adapters (ARCHITECTURE.md "Event store rules").
 *
 * - Drivers: `createPgDb(url)` (pg Pool; idle_in_transaction_session_timeout on every
 *   connection; LISTEN on one dedicated connection) and `createPgliteDb(dir | undefined)`
 *   (embedded, one connection behind a mutex). Both return int8 as number (throw beyond 2^53),
 *   numeric as string, date as 'YYYY-MM-DD', timestamptz as Date, jsonb parsed.
 * - `migrate(db, [eventStoreMigrations, ...])` applies plain .sql files once each.
 * - `createPostgresEventStore(db, options)` works on either driver. Positions are
 *   'xid:position' tokens (zero-padded, compare as strings); readAll returns only events below
 *   the horizon of transactions open in its database (kosh_read_horizon), so a checkpointing
 *   reader never skips one. Concurrent appends may be committed together in one statement (each
 *   with its own version check).
 *   Subscribers are woken locally at once and across processes by a coalesced NOTIFY on
 *   EVENTS_CHANNEL sent after commit.
 * - `createInMemoryEventStore()` for unit tests; `createTestDatabase()` (./testing/test-database)
 *   for integration tests.
 * - Every adapter returns events exactly as stored. An old event is brought to today's shape by
 *   the domain where it is folded (`upcastLoanEvent` in domain/src/loan/payments.ts), not here.
 */
export { isConnectionError, wasNeverSent } from './connection-errors';
export * from './db';
export { createPgDb, type PgDbOptions } from './db-pg';
export { createPgliteDb } from './db-pglite';
export { createInMemoryEventStore } from './in-memory-event-store';
export { type AppliedMigration, eventStoreMigrations, type MigrationSource, migrate } from './migrations';
export * from './port';
export { comparePositions, decodePosition, encodePosition } from './position';
export {
  appendOn,
  createPostgresEventStore,
  EVENTS_CHANNEL,
  type EventRow,
  type PostgresEventStoreOptions,
  rowToEvent,
} from './postgres-event-store';
