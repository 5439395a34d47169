/**
 * The worker container's health check (docker-compose.yml): the worker has no HTTP, and it can
 * do its work exactly when PostgreSQL, Redis and, when configured, EventStoreDB answer it.
 * Prints one line of checks; exits 0 when all answer, 1 otherwise.
 */
import { createPgDb } from '@kosh/event-store';
import { Redis } from 'ioredis';
import { ConfigError, loadConfig } from './config';

const TIMEOUT_MS = 5000;

function within<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), TIMEOUT_MS).unref()),
  ]);
}

async function check(name: string, probe: () => Promise<unknown>): Promise<[string, string]> {
  try {
    await within(probe());
    return [name, 'ok'];
  } catch (error) {
    return [name, `down (${error instanceof Error ? error.message : String(error)})`];
  }
}

async function main(): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 1;
  }
  const { DATABASE_URL, REDIS_URL, EVENTSTORE_URL } = config;
  const checks = await Promise.all([
    check('database', async () => {
      if (!DATABASE_URL) throw new Error('DATABASE_URL not set');
      const db = createPgDb(DATABASE_URL, { applicationName: 'kosh-healthcheck', max: 1 });
      try {
        await db.query('SELECT 1');
      } finally {
        await db.close();
      }
    }),
    check('queue', async () => {
      if (!REDIS_URL) throw new Error('REDIS_URL not set');
      const redis = new Redis(REDIS_URL, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      let refused: unknown = null;
      redis.on('error', (error) => {
        refused = error;
      });
      try {
        await redis.connect();
        await redis.ping();
      } catch (error) {
        throw refused ?? error;
      } finally {
        redis.disconnect();
      }
    }),
    ...(EVENTSTORE_URL
      ? [
          check('eventstore', async () => {
            const { createEventStoreDbEventStore } = await import('@kosh/event-store/eventstoredb');
            const store = createEventStoreDbEventStore({ connection: EVENTSTORE_URL });
            try {
              await store.readAll({ limit: 1 });
            } finally {
              await store.close();
            }
          }),
        ]
      : []),
  ]);
  console.log(checks.map(([name, state]) => `${name}: ${state}`).join(', '));
  return checks.every(([, state]) => state === 'ok') ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
