/**
 * `npm run migrate-events -- --to eventstoredb`: copies the PostgreSQL event log (DATABASE_URL,
 * else embedded PGlite in DATA_DIR) into EventStoreDB (EVENTSTORE_URL), checks every stream's
 * length, then moves the read models' checkpoints to the positions of the same events in
 * EventStoreDB (once, recorded in `event_log_migrations`), so nothing is rebuilt and no mail is
 * sent twice. Stop the API and workers first (nothing may append meanwhile); afterwards start
 * them with EVENTSTORE_URL. Safe to run again after an interruption: copied events are skipped
 * by id, and checkpoints move only after the whole log is copied.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Db, EventStore, Queryable } from '@kosh/event-store';
import {
  createPgDb,
  createPgliteDb,
  createPostgresEventStore,
  eventStoreMigrations,
  migrate,
} from '@kosh/event-store';
import { createEventStoreDbEventStore } from '@kosh/event-store/eventstoredb';
import { MigrationConflictError, migrateEvents } from './migrate-events';

const USAGE = 'Usage: npm run migrate-events -- --to eventstoredb [--batch-size 1000]';

type Env = Record<string, string | undefined>;

/** Tables holding positions of the log: live checkpoints and unfinished rebuilds. */
const CHECKPOINT_TABLES = ['projection_checkpoints', 'projection_rebuilds'] as const;
type Checkpoint = { table: (typeof CHECKPOINT_TABLES)[number]; name: string; position: string };

async function readCheckpoints(db: Queryable): Promise<Checkpoint[]> {
  const checkpoints: Checkpoint[] = [];
  for (const table of CHECKPOINT_TABLES) {
    const { rows } = await db.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
      table,
    ]);
    if (!rows[0]?.present) continue;
    const found = await db.query<{ name: string; position: string }>(
      `SELECT name, position FROM ${table} WHERE position <> ''`,
    );
    checkpoints.push(...found.rows.map((r) => ({ table, ...r })));
  }
  return checkpoints;
}

/**
 * Points every checkpoint at the same event in the new log, once: a second run finds the
 * migration recorded and leaves them (they already are positions of EventStoreDB).
 */
async function moveCheckpoints(db: Db, positions: Map<string, string>): Promise<number | null> {
  return db.transaction(async (tx) => {
    await tx.query(`CREATE TABLE IF NOT EXISTS event_log_migrations (
      target text PRIMARY KEY,
      checkpoints integer NOT NULL,
      migrated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await tx.query('LOCK TABLE event_log_migrations');
    const done = await tx.query("SELECT 1 FROM event_log_migrations WHERE target = 'eventstoredb'");
    if (done.rows.length > 0) return null;
    const checkpoints = await readCheckpoints(tx);
    for (const { table, name, position } of checkpoints) {
      const moved = positions.get(position);
      if (!moved) {
        throw new MigrationConflictError(
          `${table} of ${name} is at ${position}, which is no event of the log`,
        );
      }
      await tx.query(`UPDATE ${table} SET position = $2 WHERE name = $1`, [name, moved]);
    }
    await tx.query("INSERT INTO event_log_migrations (target, checkpoints) VALUES ('eventstoredb', $1)", [
      checkpoints.length,
    ]);
    return checkpoints.length;
  });
}

export type MigrateCliDeps = {
  /** Opens the target store (EventStoreDB from its URL; tests hand in another adapter). */
  openTarget?: (url: string) => EventStore;
  log?: (line: string) => void;
};

/** Runs the command; returns the exit code. */
export async function main(argv: readonly string[], env: Env, deps: MigrateCliDeps = {}): Promise<number> {
  const log = deps.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let values: { to?: string; 'batch-size'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { to: { type: 'string' }, 'batch-size': { type: 'string' }, help: { type: 'boolean' } },
    }));
  } catch (error) {
    log(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    log(USAGE);
    return 0;
  }
  if (values.to !== 'eventstoredb') {
    log(`${values.to === undefined ? 'Missing --to' : `Unknown target ${values.to}`}\n${USAGE}`);
    return 2;
  }
  const batchSize = Number(values['batch-size'] ?? 1000);
  if (!Number.isSafeInteger(batchSize) || batchSize <= 0) {
    log(`--batch-size must be a positive integer\n${USAGE}`);
    return 2;
  }
  const url = env.EVENTSTORE_URL;
  if (!url) {
    log('Set EVENTSTORE_URL to the EventStoreDB to copy into (e.g. kurrentdb://127.0.0.1:2113?tls=false).');
    return 1;
  }

  const db: Db = env.DATABASE_URL
    ? createPgDb(env.DATABASE_URL, { applicationName: 'kosh-migrate-events', max: 2 })
    : await createPgliteDb(path.join(path.resolve(env.DATA_DIR || './data'), 'pglite'));
  const source = createPostgresEventStore(db);
  const target = (deps.openTarget ?? ((u) => createEventStoreDbEventStore({ connection: u })))(url);
  try {
    await migrate(db, [eventStoreMigrations]);
    const started = Date.now();
    let lastLogged = 0;
    const keep = new Set((await readCheckpoints(db)).map((c) => c.position));
    const result = await migrateEvents(source, target, {
      batchSize,
      keep,
      onProgress: ({ events }) => {
        if (Date.now() - lastLogged < 1000) return;
        lastLogged = Date.now();
        log(`copied ${events} events`);
      },
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    log(
      `Copied ${result.events} events in ${result.streams} streams to EventStoreDB in ${seconds} s; every stream checked.`,
    );
    const moved = await moveCheckpoints(db, result.positions);
    log(
      moved === null
        ? 'Checkpoints were moved to EventStoreDB positions by an earlier run; left as they are.'
        : `Moved ${moved} read-model checkpoints to the same events in EventStoreDB.`,
    );
    log(
      'Next: start the API and workers with EVENTSTORE_URL set. Keep the PostgreSQL events table as a backup; do not start without EVENTSTORE_URL again.',
    );
    return 0;
  } catch (error) {
    if (error instanceof MigrationConflictError) {
      log(`Migration stopped: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await target.close();
    await source.close();
    await db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(
        `\nMigration failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
