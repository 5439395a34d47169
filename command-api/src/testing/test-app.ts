import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@kosh/event-store/testing/test-database';
import { loadConfig } from '@kosh/workers/config';
import { createPlatform, type Platform } from '@kosh/workers/runtime';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';

export type TestApp = {
  app: FastifyInstance;
  platform: Platform;
  /** A valid bearer token for `userId` (no account needed; routes that read the user need one). */
  tokenFor(userId: string, options?: { rememberMe?: boolean }): string;
  /** `{ authorization: 'Bearer …' }` for `app.inject`. */
  authHeader(userId: string): { authorization: string };
  close(): Promise<void>;
};

export type TestAppOptions = {
  /** 'bullmq' runs jobs through real Redis (REDIS_URL, default 127.0.0.1:6379) under a unique prefix. */
  queue?: 'in-process' | 'bullmq';
  smtpUrl?: string;
  clock?: () => Date;
  /** Extra environment for loadConfig (e.g. RATE_LIMIT_ENABLED). */
  env?: Record<string, string>;
};

/** The whole app on a fresh PostgreSQL database, for `app.inject` tests. Call `close()` in afterAll. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kosh-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: options.queue === 'bullmq' ? process.env.REDIS_URL || 'redis://127.0.0.1:6379' : undefined,
    QUEUE_PREFIX: `kosh-test-${randomBytes(6).toString('hex')}`,
    SMTP_URL: options.smtpUrl,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL || 'silent',
    DATA_DIR: dataDir,
    APP_URL: 'http://kosh.test',
    // A bound, not a delay: on a loaded 2-core CI machine, and with other test files holding
    // transactions open on the same server (xids are cluster-wide), catch-up can take seconds.
    READ_YOUR_WRITES_TIMEOUT_MS: '20000',
    ...options.env,
  });
  const platform = await createPlatform(config, { db: database.db, clock: options.clock, runWorkers: true });
  const app = await buildApp(platform, { webDist: path.join(dataDir, 'no-web') });
  await app.ready();
  return {
    app,
    platform,
    tokenFor: (userId, opts) => app.issueToken(userId, opts),
    authHeader: (userId) => ({ authorization: `Bearer ${app.issueToken(userId)}` }),
    async close() {
      await app.close();
      await platform.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
