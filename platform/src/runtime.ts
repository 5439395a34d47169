import { createHmac } from 'node:crypto';
import path from 'node:path';
import type { Platform as AppPlatform } from '@kosh/command-api';
import { seedCatalog } from '@kosh/command-api';
import type { Db, EventStore } from '@kosh/event-store';
import { createPgDb, createPgliteDb, eventStoreMigrations, migrate } from '@kosh/event-store';
import {
  allProjections,
  createProjectionRunner,
  migrationSources,
  type ProjectionRunner,
} from '@kosh/projections';
import type { JobQueue } from '@kosh/workers';
import {
  createBullMqQueue,
  createInProcessQueue,
  createMailReactor,
  createOutboxMailer,
  createRecurringReactor,
  createSmtpMailer,
  type ErasureDeps,
  type Mailer,
  mailMigrations,
  RECURRING_POST_JOB,
  REMINDER_SCAN_JOB,
  registerErasureJobs,
  registerMailJobs,
  registerProjectionJobs,
  registerRecurringJobs,
  registerReminderJobs,
} from '@kosh/workers';
import { type Config, exportSigningKeyOf, type Role } from './config';
import { createEventStore } from './event-store';
import { gatherWakes } from './gather-wakes';
import { createLogger, type Logger } from './logger';
import { createMetrics, type Metrics } from './metrics';
import { openToken, sealToken } from './token-seal';
import { openUnsubscribeToken, signUnsubscribeToken } from './unsubscribe-token';

/**
 * Everything a request handler or a job may use, chosen once at start from configuration
 * (ARCHITECTURE.md "Deployment shapes": no handler or projector asks which shape it runs in).
 * It is the app's port (`Platform` in command-api/src/platform.ts) with the adapters behind it.
 */
export interface Runtime extends AppPlatform {
  readonly config: Config;
  readonly role: Role;
  readonly logger: Logger;
  readonly db: Db;
  readonly eventStore: EventStore;
  readonly queue: JobQueue;
  readonly mailer: Mailer;
  readonly runner: ProjectionRunner;
  readonly metrics: Metrics;
  /** What account erasure needs (issue 32): the job uses it, tests call `eraseAccount` with it. */
  readonly erasure: ErasureDeps;
  close(): Promise<void>;
}

export type RuntimeOptions = {
  /**
   * 'all' (default: embedded mode, tests) and 'worker' run the job processors and follow the
   * event store's NOTIFY; 'api' only enqueues and catches up what its answers read.
   */
  role?: Role;
  logger?: Logger;
  clock?: () => Date;
  /** An already open database (tests hand in their fresh one). */
  db?: Db;
};

export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const role = options.role ?? 'all';
  const runsJobs = role !== 'api';
  const logger = options.logger ?? createLogger(config);
  const db =
    options.db ??
    (config.DATABASE_URL
      ? createPgDb(config.DATABASE_URL, { applicationName: 'kosh' })
      : await createPgliteDb(path.join(config.DATA_DIR, 'pglite')));
  await migrate(db, [eventStoreMigrations, ...migrationSources, mailMigrations]);

  const queue: JobQueue = config.REDIS_URL
    ? createBullMqQueue({ url: config.REDIS_URL, prefix: config.QUEUE_PREFIX, logger })
    : createInProcessQueue({ logger });
  const mailer = config.SMTP_URL
    ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : createOutboxMailer(db);
  // Late-bound: tests may replace `platform.clock`.
  const clock = () => platform.clock();
  // The mail and recurring reactors consume the log like read models but are not ones (never
  // rebuilt by the CLI): each turns events into jobs.
  const consumers = [
    ...allProjections,
    createMailReactor({ queue, clock }),
    createRecurringReactor({ queue }),
  ];
  const eventStore = await createEventStore(
    config,
    db,
    consumers.flatMap((c) => c.handles),
  );
  const runner = createProjectionRunner({ db, eventStore, projections: consumers, logger });
  const projectionNames = consumers.map((p) => p.name);
  const catchUp = (name: string, once = false) => {
    runner
      .catchUp(name, { once })
      .catch((err) => logger.warn({ projection: name, err }, 'catch-up failed; will retry'));
  };

  const metrics = createMetrics({ runner, queue });
  const erasure: ErasureDeps = {
    db,
    mailer,
    logger,
    uploadsDir: config.UPLOADS_DIR,
    appUrl: config.APP_URL,
    // The tombstone's keyed hash of an erased user id, under a key of its own derived from the
    // server's secret (README "Backups and erasure": keep JWT_SECRET with the backups).
    subjectKey: createHmac('sha256', config.JWT_SECRET).update('kosh erasure subject v1').digest('hex'),
  };
  let stopFollowing: (() => void) | null = null;
  // From now on the runner knows the newest position this process has appended or heard of
  // (readModelsCurrent), in every role: an API process without jobs hears its own appends.
  runner.followCommits();
  const platform: Runtime = {
    config,
    role,
    logger,
    db,
    eventStore,
    queue,
    mailer,
    runner,
    metrics,
    erasure,
    clock: options.clock ?? (() => new Date()),
    exportSigningKey: config.EXPORT_SIGNING_KEY ? exportSigningKeyOf(config.EXPORT_SIGNING_KEY) : null,
    sealToken: (token) => sealToken(token, config.JWT_SECRET),
    openUnsubscribeToken: (token) => openUnsubscribeToken(token, config.JWT_SECRET),
    async afterAppend(position, waitFor) {
      // What the answer reads is caught up by this process itself (the runner's advisory lock
      // keeps one applier per projection across processes): the answer never waits on Redis or
      // on a worker. The store's NOTIFY wakes the job processes for the rest (they follow it
      // below); nothing here is awaited but the answer's own read models.
      for (const name of waitFor) catchUp(name);
      if (waitFor.length === 0) return true;
      const stopTimer = metrics.readYourWritesWait.startTimer();
      const reached = await runner.waitFor(waitFor, position, config.READ_YOUR_WRITES_TIMEOUT_MS);
      stopTimer({ outcome: reached ? 'reached' : 'timeout' });
      return reached;
    },
    async readModelsCurrent(names) {
      const position = runner.newestCommitted();
      if (!position) return true;
      // Known here without a catch-up round when this process's own applies got there.
      if (await runner.waitFor(names, position, 0)) return true;
      return platform.afterAppend(position, names);
    },
    async close() {
      stopFollowing?.();
      await queue.close();
      await runner.close?.();
      await mailer.close();
      await eventStore.close();
      if (!options.db) await db.close();
      // Production logs are buffered (logger.ts): write out the last lines.
      logger.flush();
    },
  };

  // The lender and loan-type catalog: fixed event ids, so every start after the first appends nothing.
  const seeded = await seedCatalog(eventStore, platform.clock());

  if (runsJobs) {
    await registerProjectionJobs(queue, runner, consumers);
    registerMailJobs(queue, {
      db,
      mailer,
      appUrl: config.APP_URL,
      openToken: (sealed) => openToken(sealed, config.JWT_SECRET),
      clock,
      logger,
      usersCaughtUp: (position) => runner.waitFor(['users'], position, config.READ_YOUR_WRITES_TIMEOUT_MS),
    });
    // The erasure deletes from the PostgreSQL log; on EventStoreDB it would leave the events (and
    // a rebuild would bring the rows back), so requests wait there (ARCHITECTURE.md "Erasure").
    if (config.EVENTSTORE_URL) logger.warn({}, 'account erasure is not run on an EventStoreDB log yet');
    else await registerErasureJobs(queue, { ...erasure, clock });
    // Recurring entries post their due occurrences, and reminders are mailed, from a repeated
    // job (BullMQ's scheduler; the in-process queue's timer when embedded) and once at start, so
    // what came due while no worker ran is done now (ARCHITECTURE.md "Recurring entries").
    await registerRecurringJobs(
      queue,
      { db, eventStore, clock, logger },
      { everyMs: config.RECURRING_POST_EVERY_MS },
    );
    await registerReminderJobs(
      queue,
      {
        db,
        mailer,
        queue,
        clock,
        logger,
        unsubscribeUrl: (claim) =>
          `${config.APP_URL.replace(/\/+$/, '')}/api/unsubscribe?token=${encodeURIComponent(signUnsubscribeToken(claim, config.JWT_SECRET))}`,
      },
      { everyMs: config.REMINDER_SCAN_EVERY_MS },
    );
    for (const job of [RECURRING_POST_JOB, REMINDER_SCAN_JOB])
      await queue
        .enqueue(job, {}, { jobId: job })
        .catch((err) => logger.warn({ job, err }, 'could not start the first run; the schedule will'));
    // How projections wake (ARCHITECTURE.md): an append of any process reaches this one by the
    // store's NOTIFY (EventStoreDB: its $all subscription) and every projection catches up at
    // once; the `project:{name}` jobs BullMQ repeats every 5 s are the safety net for a wake
    // that was lost (LISTEN connection down). A BullMQ round per append as well was dropped:
    // it woke the workers later than NOTIFY and cost Redis round trips on every command
    // (`npm run bench:waking`).
    // While commits keep coming, rounds start at most WORKER_GATHER_MS apart, so one round takes
    // many commands' events in one batch per read model instead of a batch (a transaction, its
    // statements, a commit) per read model every few ms; the first after a quiet moment starts at
    // once. A round applies one batch per read model and stops (`once`): what committed while it
    // ran brought its own NOTIFY, which schedules the next round. A command's own read models do
    // not wait for this: the API catches them up itself (afterAppend, the own-writes plugin).
    const gatherMs = config.WORKER_GATHER_MS;
    const rounds = gatherWakes(gatherMs, () => {
      for (const name of projectionNames) catchUp(name, gatherMs > 0);
    });
    const unsubscribe = eventStore.subscribe(rounds.wake);
    stopFollowing = () => {
      unsubscribe();
      rounds.stop();
    };
  }
  if (seeded) await platform.afterAppend(seeded, runsJobs ? ['catalog', 'ledger'] : []);
  return platform;
}
