import path from 'node:path';
import type { Db } from '@kosh/event-store/db';
import { createPgDb } from '@kosh/event-store/db-pg';
import { createPgliteDb } from '@kosh/event-store/db-pglite';
import { eventStoreMigrations, migrate } from '@kosh/event-store/migrations';
import type { EventStore } from '@kosh/event-store/port';
import { createPostgresEventStore } from '@kosh/event-store/postgres';
import { seedCatalog } from '@kosh/projections/catalog/seed';
import { allProjections, migrationSources } from '@kosh/projections/registry';
import { createProjectionRunner, type ProjectionRunner } from '@kosh/projections/runner/runner';
import type { Config } from './config';
import { createOutboxMailer, createSmtpMailer, type Mailer, mailMigrations } from './mail/mailer';
import { createMailReactor, registerMailJobs } from './mail/reactor';
import { enqueueProjections, registerProjectionJobs } from './projection-jobs';
import { createBullMqQueue } from './queue/bullmq';
import { createInProcessQueue } from './queue/in-process';
import type { JobQueue } from './queue/port';

/**
 * Everything a request handler or a job may use, chosen once at start from configuration
 * (DESIGN.md: no `if (embedded)` inside handlers or projectors).
 */
export interface Platform {
  readonly config: Config;
  /** Read models (and, with the PostgreSQL event store, the event log). */
  readonly db: Db;
  readonly eventStore: EventStore;
  readonly queue: JobQueue;
  readonly mailer: Mailer;
  readonly runner: ProjectionRunner;
  /** The only clock handlers read; tests replace it. */
  clock: () => Date;
  /**
   * After an append: wakes every projection, then waits (bounded by READ_YOUR_WRITES_TIMEOUT_MS)
   * until those named have reached `position`. Resolves false on timeout.
   */
  afterAppend(position: string, waitFor: readonly string[]): Promise<boolean>;
  close(): Promise<void>;
}

export type PlatformOptions = {
  /** Run job processors in this process (embedded mode, the worker process, tests). */
  runWorkers?: boolean;
  clock?: () => Date;
  /** An already open database (tests hand in their fresh one). */
  db?: Db;
};

export async function createPlatform(config: Config, options: PlatformOptions = {}): Promise<Platform> {
  const db =
    options.db ??
    (config.DATABASE_URL
      ? createPgDb(config.DATABASE_URL, { applicationName: 'kosh' })
      : await createPgliteDb(path.join(config.DATA_DIR, 'pglite')));
  await migrate(db, [eventStoreMigrations, ...migrationSources, mailMigrations]);

  const eventStore = createPostgresEventStore(db);
  const queue: JobQueue = config.REDIS_URL
    ? createBullMqQueue({ url: config.REDIS_URL, prefix: config.QUEUE_PREFIX })
    : createInProcessQueue();
  const mailer = config.SMTP_URL
    ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : createOutboxMailer(db);
  // Late-bound: tests may replace `platform.clock`.
  const clock = () => platform.clock();
  // The mail reactor consumes the log like a read model but is not one (never rebuilt by the CLI).
  const consumers = [...allProjections, createMailReactor({ queue, clock })];
  const runner = createProjectionRunner({ db, eventStore, projections: consumers });
  const projectionNames = consumers.map((p) => p.name);

  const platform: Platform = {
    config,
    db,
    eventStore,
    queue,
    mailer,
    runner,
    clock: options.clock ?? (() => new Date()),
    async afterAppend(position, waitFor) {
      // The events are stored: a queue outage must not turn the command into an error. The
      // scheduled safety net catches the projections up once the queue is back.
      await enqueueProjections(queue, projectionNames).catch(() => undefined);
      if (waitFor.length === 0) return true;
      return runner.waitFor(waitFor, position, config.READ_YOUR_WRITES_TIMEOUT_MS);
    },
    async close() {
      await queue.close();
      await runner.close?.();
      await mailer.close();
      await eventStore.close();
      if (!options.db) await db.close();
    },
  };

  // The lender and loan-type catalog: fixed event ids, so every start after the first appends nothing.
  const seeded = await seedCatalog(eventStore, platform.clock());

  if (options.runWorkers ?? true) {
    await registerProjectionJobs(queue, runner, consumers);
    registerMailJobs(queue, { db, mailer, appUrl: config.APP_URL, secret: config.JWT_SECRET, clock });
  }
  if (seeded) await platform.afterAppend(seeded, options.runWorkers === false ? [] : ['catalog', 'ledger']);
  return platform;
}
