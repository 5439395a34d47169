import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loanTypeStreamId, SEED_LOAN_TYPES, type UserEvent, userStreamId } from '@kosh/domain';
import { ConcurrencyError, type NewEvent } from '@kosh/event-store';
import { createTestDatabase } from '@kosh/event-store/testing';
import type { Logger } from '@kosh/platform';
import { buildHttpApp, createRuntime, loadConfig, type Runtime } from '@kosh/platform';
import type { FastifyInstance } from 'fastify';
import { type Client, createClient } from './client';
import { userFixture } from './fixtures';
import { waitUntil } from './wait-until';

export type TestApp = {
  app: FastifyInstance;
  platform: Runtime;
  /**
   * A signed bearer token for any subject, account or not: the API refuses one whose user does
   * not exist (401), so protected calls need `signedInToken`.
   */
  signToken(userId: string, options?: { rememberMe?: boolean; sessionId?: string }): string;
  /** A token of `userId`, first signing that user up (registered, verified) if not yet done. */
  signedInToken(userId: string, options?: { rememberMe?: boolean }): Promise<string>;
  /** `{ authorization: 'Bearer …' }` of `signedInToken`, for `app.inject`. */
  signedInHeader(userId: string): Promise<{ authorization: string }>;
  /** Requests as `userId`, signed in (and signed up first if not yet done). */
  as(userId: string): Client;
  /** Requests without a token. */
  anonymous: Client;
  /**
   * Waits until the read models named have every event this app appended so far: for
   * read models no command waits for (history). False if the read-your-writes bound passed first.
   */
  caughtUp(readModels: readonly string[]): Promise<boolean>;
  close(): Promise<void>;
};

export type TestAppOptions = {
  /**
   * 'postgres' (default): a fresh PostgreSQL database. 'embedded': PGlite in a fresh data folder,
   * the in-process queue and the outbox, as `npm start` runs with nothing configured.
   */
  mode?: 'postgres' | 'embedded';
  /** 'bullmq' runs jobs through real Redis (REDIS_URL, default 127.0.0.1:6379) under a unique prefix. */
  queue?: 'in-process' | 'bullmq';
  smtpUrl?: string;
  /** The app's clock, e.g. a `testClock`. */
  clock?: () => Date;
  /** Extra environment for loadConfig (e.g. RATE_LIMIT_ENABLED). */
  env?: Record<string, string>;
  /** A built web app to serve (default: none, so unknown paths are 404s). */
  webDist?: string;
  /** The platform's logger (projections, queue, mail), e.g. to read what an operator would see. */
  logger?: Logger;
};

/**
 * The whole app on a fresh PostgreSQL database, for `app.inject` tests. Call `close()` in afterAll.
 * The bank and loan-type catalog is seeded as at every start, and the catalog and ledger read
 * models hold it before this resolves, so a spec creates loans at once without seeding anything.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const embedded = options.mode === 'embedded';
  const database = embedded ? undefined : await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kosh-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database?.url,
    REDIS_URL:
      options.queue === 'bullmq' && !embedded ? process.env.REDIS_URL || 'redis://127.0.0.1:6379' : undefined,
    QUEUE_PREFIX: `kosh-test-${randomBytes(6).toString('hex')}`,
    SMTP_URL: options.smtpUrl,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL || 'silent',
    DATA_DIR: dataDir,
    APP_URL: 'http://kosh.test',
    // A bound, not a delay: on a loaded 2-core CI machine, and with other test files holding
    // transactions open on the same server (xids are cluster-wide), catch-up can take seconds.
    READ_YOUR_WRITES_TIMEOUT_MS: '20000',
    // A fresh key per app (embedded mode would make one in DATA_DIR anyway).
    EXPORT_SIGNING_KEY: generateKeyPairSync('ed25519')
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString(),
    ...options.env,
  });
  const platform = await createRuntime(config, {
    db: database?.db,
    clock: options.clock,
    logger: options.logger,
  });
  await catalogProjected(platform);
  const app = await buildHttpApp(platform, { webDist: options.webDist ?? path.join(dataDir, 'no-web') });
  await app.ready();
  const signedUp = new Map<string, Promise<void>>();
  const ensureUser = (userId: string) => {
    let done = signedUp.get(userId);
    if (!done) {
      done = signUp(platform, userId);
      signedUp.set(userId, done);
    }
    return done;
  };
  const signedInToken = async (userId: string, opts?: { rememberMe?: boolean }) => {
    await ensureUser(userId);
    return app.issueToken(userId, { ...opts, sessionId: fixtureSessionId(userId) });
  };
  const signedInHeader = async (userId: string) => ({
    authorization: `Bearer ${await signedInToken(userId)}`,
  });
  return {
    app,
    platform,
    signToken: (userId, opts) =>
      app.issueToken(userId, { ...opts, sessionId: opts?.sessionId ?? fixtureSessionId(userId) }),
    signedInToken,
    signedInHeader,
    as: (userId) => createClient(app, () => signedInHeader(userId)),
    anonymous: createClient(app, async () => ({})),
    // Every append of this app (the store announces each at its commit, before the command
    // answers), whether a client, a spec's own `app.inject` or a job made it.
    caughtUp: (readModels) => platform.readModelsCurrent(readModels),
    async close() {
      await app.close();
      await platform.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until the read models that show the catalog hold all of its seed. The platform seeds it at
 * boot but waits only READ_YOUR_WRITES_TIMEOUT_MS, which a spec may cut to a few hundred ms; and
 * while other test files hold transactions open on the server (xids are cluster-wide) the seed can
 * stay hidden from catch-up for seconds: the spec's first loan would then name an unknown bank.
 */
async function catalogProjected(platform: Runtime): Promise<void> {
  // The seed is appended in order, the loan types last.
  const lastLoanType = SEED_LOAN_TYPES[SEED_LOAN_TYPES.length - 1]!;
  const { events } = await platform.eventStore.readStream(loanTypeStreamId(lastLoanType.loanTypeId));
  const position = events[0]?.position;
  if (position)
    await waitUntil(() => platform.afterAppend(position, ['catalog', 'ledger']), { timeout: 60_000 });
}

/**
 * Records a registered, verified user straight in the log (as register + verify would), for tests
 * of other resources. A user the test already registered through the API is left as it is.
 */
export async function signUp(platform: Runtime, userId: string): Promise<void> {
  try {
    const { position } = await platform.eventStore.appendToStream(
      userStreamId(userId),
      registeredUserEvents(userId, platform.clock()),
      { expectedVersion: 'no_stream' },
    );
    await platform.afterAppend(position, ['users', 'sessions']);
  } catch (error) {
    if (!(error instanceof ConcurrencyError)) throw error;
    // Registered through the API: give it the fixture session the test tokens name.
    const [, , session] = registeredUserEvents(userId, platform.clock());
    if (!session) throw error;
    const { position } = await platform.eventStore.appendToStream(userStreamId(userId), [session], {
      expectedVersion: 'any',
    });
    await platform.afterAppend(position, ['users', 'sessions']);
  }
}

/**
 * The session that test tokens of `userId` name (issue 32: a token names its session). Recorded
 * by `registeredUserEvents`, for a year.
 */
export const fixtureSessionId = (userId: string) => `fixture-${userId}`;

/** The events of a registered, verified user `userId` (mail `<userId>@example.test`), as register + verify record them. */
export function registeredUserEvents(userId: string, at: Date): NewEvent[] {
  const now = at.toISOString();
  const { email, firstName, lastName } = userFixture(userId);
  const metadata = {
    userId,
    correlationId: randomUUID(),
    causationId: null,
    recordedAt: now,
    schemaVersion: 1,
  };
  const events: UserEvent[] = [
    {
      type: 'UserRegistered',
      data: {
        userId,
        firstName,
        lastName,
        email,
        passwordHash: 'not-a-password',
        registeredAt: now,
      },
    },
    { type: 'EmailVerified', data: { userId, email, verifiedAt: now } },
    {
      type: 'SessionStarted',
      data: {
        userId,
        sessionId: fixtureSessionId(userId),
        email,
        browser: 'Test',
        os: 'Test',
        address: '127.0.0.1',
        newBrowser: false,
        startedAt: now,
        expiresAt: new Date(at.getTime() + 365 * 24 * 60 * 60_000).toISOString(),
      },
    },
  ];
  return events.map((event) => ({ id: randomUUID(), ...event, metadata }));
}
