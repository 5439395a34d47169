import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';

/** Every setting the process reads, validated once at boot (mirrored in .env.example). */
const ConfigSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')]),
  PORT: Type.Integer({ minimum: 0, maximum: 65535 }),
  HOST: Type.String({ minLength: 1 }),
  /** Public address of the web app, used in mailed links. */
  APP_URL: Type.String({ pattern: '^https?://' }),
  /** PostgreSQL for the event store and read models; absent = embedded PGlite in DATA_DIR. */
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  /** Redis for BullMQ; absent = in-process queue. */
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  /** SMTP relay (smtp://user:pass@host:port); absent = local outbox served at /dev/mailbox. */
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.String({ minLength: 3 }),
  DATA_DIR: Type.String({ minLength: 1 }),
  UPLOADS_DIR: Type.String({ minLength: 1 }),
  JWT_SECRET: Type.String({ minLength: 32 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
  ),
  /** Bound on read-your-writes waits (DESIGN.md). */
  READ_YOUR_WRITES_TIMEOUT_MS: Type.Integer({ minimum: 0 }),
  /** Prefix of BullMQ keys, so several deployments or test runs can share one Redis. */
  QUEUE_PREFIX: Type.String({ minLength: 1 }),
  /** Turns the auth rate limits off (load tests only). */
  RATE_LIMIT_ENABLED: Type.Boolean(),
});

export type Config = Static<typeof ConfigSchema> & {
  /** Embedded mode: no DATABASE_URL. The /dev routes exist only then. */
  readonly embedded: boolean;
};

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** Builds and validates the configuration from the environment; throws ConfigError listing every problem. */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const port = env.PORT ? Number(env.PORT) : 3000;
  const host = env.HOST || '127.0.0.1';
  const raw = {
    NODE_ENV: env.NODE_ENV || 'development',
    PORT: port,
    HOST: host,
    APP_URL: env.APP_URL || `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    DATABASE_URL: env.DATABASE_URL || undefined,
    REDIS_URL: env.REDIS_URL || undefined,
    SMTP_URL: env.SMTP_URL || undefined,
    MAIL_FROM: env.MAIL_FROM || 'Kosh <no-reply@kosh.local>',
    DATA_DIR: dataDir,
    UPLOADS_DIR: path.resolve(env.UPLOADS_DIR || path.join(dataDir, 'uploads')),
    JWT_SECRET: env.JWT_SECRET || (env.DATABASE_URL ? '' : embeddedSecret(dataDir)),
    LOG_LEVEL: env.LOG_LEVEL || 'info',
    READ_YOUR_WRITES_TIMEOUT_MS: env.READ_YOUR_WRITES_TIMEOUT_MS
      ? Number(env.READ_YOUR_WRITES_TIMEOUT_MS)
      : 5000,
    QUEUE_PREFIX: env.QUEUE_PREFIX || 'kosh',
    RATE_LIMIT_ENABLED: env.RATE_LIMIT_ENABLED !== 'false',
  };
  const problems = [...Value.Errors(ConfigSchema, raw)].map((e) => {
    const key = e.instancePath.replace(/^\//, '') || 'config';
    const hint =
      key === 'JWT_SECRET' ? ' (set JWT_SECRET to at least 32 characters when DATABASE_URL is set)' : '';
    return `${key}: ${e.message}${hint}`;
  });
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return { ...(raw as Static<typeof ConfigSchema>), embedded: !raw.DATABASE_URL };
}

/** Embedded mode keeps a generated secret in DATA_DIR so tokens survive restarts. */
function embeddedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
