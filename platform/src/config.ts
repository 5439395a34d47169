import { createPrivateKey, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import { weakSecretReason } from './secret-strength';

/** Every setting the process reads, validated once at boot (mirrored in .env.example). */
const ConfigSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')]),
  PORT: Type.Integer({ minimum: 0, maximum: 65535 }),
  HOST: Type.String({ minLength: 1 }),
  /** Public address of the web app, used in mailed links. */
  APP_URL: Type.String({ pattern: '^https?://' }),
  /** PostgreSQL for the event store and read models; absent = embedded PGlite in DATA_DIR. */
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  /**
   * EventStoreDB / KurrentDB as the event store (kurrentdb://host:2113?tls=false); read models
   * stay in PostgreSQL, so it needs DATABASE_URL. Absent = the event log lives in PostgreSQL.
   */
  EVENTSTORE_URL: Type.Optional(Type.String({ pattern: '^(esdb|kurrentdb|kurrent|kdb)(\\+discover)?://' })),
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
  /**
   * Level of the one log line per API request: info with PostgreSQL (an operator's log), debug
   * in embedded mode (one person's terminal, where the start banner must stay in sight).
   */
  REQUEST_LOG_LEVEL: Type.Union([Type.Literal('info'), Type.Literal('debug')]),
  /** Bound on read-your-writes waits (ARCHITECTURE.md "Read your own writes"). */
  READ_YOUR_WRITES_TIMEOUT_MS: Type.Integer({ minimum: 0 }),
  /**
   * While commits keep coming, a job process's read models take a round at most once per this
   * many ms (default 100, as the own-writes plugin's; 0: a round on every NOTIFY). The first after a quiet moment goes at once.
   */
  WORKER_GATHER_MS: Type.Integer({ minimum: 0 }),
  /**
   * Memory for the serialised live answers, per family of routes (ledger, loans, transactions),
   * in MB; 0 keeps none (every read is built; ETags and 304 still hold).
   */
  ANSWER_CACHE_MB: Type.Number({ minimum: 0 }),
  /** Rows of one CSV export of the transaction book at most (default 200,000); more is a 422. */
  EXPORT_MAX_ROWS: Type.Integer({ minimum: 1 }),
  /**
   * How often the workers post recurring entries' due occurrences (ms; default 10 minutes) and
   * look for reminders to mail (default 1 hour). Each also runs once when a worker starts.
   */
  RECURRING_POST_EVERY_MS: Type.Integer({ minimum: 1000 }),
  REMINDER_SCAN_EVERY_MS: Type.Integer({ minimum: 1000 }),
  /** Prefix of BullMQ keys, so several deployments or test runs can share one Redis. */
  QUEUE_PREFIX: Type.String({ minLength: 1 }),
  /** Turns the auth rate limits off (load tests only). */
  RATE_LIMIT_ENABLED: Type.Boolean(),
  /** Serves the OpenAPI pages at /docs; default on, except with NODE_ENV=production. */
  DOCS_ENABLED: Type.Boolean(),
  /**
   * Proxies whose X-Forwarded-For is believed (addresses, CIDRs, or loopback / linklocal /
   * uniquelocal). Empty: the client address is the socket's, whatever the headers say.
   */
  TRUST_PROXY: Type.Array(Type.String()),
  /**
   * Bearer token for `GET /metrics`. Without it, production does not serve metrics at all;
   * development and test serve them openly.
   */
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  /**
   * Ed25519 private key (PKCS#8 PEM, or its DER in base64) that signs history exports. Embedded
   * mode generates one in DATA_DIR; other shapes without it do not offer the export (503).
   */
  EXPORT_SIGNING_KEY: Type.Optional(Type.String({ minLength: 16 })),
  /**
   * What this process runs: `api` (HTTP, no job processors), `worker` (job processors, no HTTP)
   * or `all`. Unset: `all` for the API without REDIS_URL, `api` with it, `worker` for the worker.
   */
  KOSH_ROLE: Type.Optional(Type.Union([Type.Literal('api'), Type.Literal('worker'), Type.Literal('all')])),
});

export type Role = 'api' | 'worker' | 'all';

export type Config = Static<typeof ConfigSchema> & {
  /** Embedded mode: no DATABASE_URL. */
  readonly embedded: boolean;
  /**
   * The local outbox at /dev/mailbox: embedded mode listening on loopback only, where the one
   * user reading it is the one at this machine. Anywhere else it would hand out sign-in links.
   */
  readonly devMailbox: boolean;
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
    EVENTSTORE_URL: env.EVENTSTORE_URL || undefined,
    REDIS_URL: env.REDIS_URL || undefined,
    SMTP_URL: env.SMTP_URL || undefined,
    MAIL_FROM: env.MAIL_FROM || 'Kosh <no-reply@kosh.local>',
    DATA_DIR: dataDir,
    UPLOADS_DIR: path.resolve(env.UPLOADS_DIR || path.join(dataDir, 'uploads')),
    JWT_SECRET: env.JWT_SECRET || (env.DATABASE_URL ? '' : embeddedSecret(dataDir)),
    LOG_LEVEL: env.LOG_LEVEL || 'info',
    REQUEST_LOG_LEVEL: env.REQUEST_LOG_LEVEL || (env.DATABASE_URL ? 'info' : 'debug'),
    READ_YOUR_WRITES_TIMEOUT_MS: env.READ_YOUR_WRITES_TIMEOUT_MS
      ? Number(env.READ_YOUR_WRITES_TIMEOUT_MS)
      : 5000,
    WORKER_GATHER_MS: env.WORKER_GATHER_MS ? Number(env.WORKER_GATHER_MS) : 100,
    ANSWER_CACHE_MB: env.ANSWER_CACHE_MB ? Number(env.ANSWER_CACHE_MB) : 32,
    EXPORT_MAX_ROWS: env.EXPORT_MAX_ROWS ? Number(env.EXPORT_MAX_ROWS) : 200_000,
    RECURRING_POST_EVERY_MS: env.RECURRING_POST_EVERY_MS ? Number(env.RECURRING_POST_EVERY_MS) : 600_000,
    REMINDER_SCAN_EVERY_MS: env.REMINDER_SCAN_EVERY_MS ? Number(env.REMINDER_SCAN_EVERY_MS) : 3_600_000,
    QUEUE_PREFIX: env.QUEUE_PREFIX || 'kosh',
    RATE_LIMIT_ENABLED: env.RATE_LIMIT_ENABLED !== 'false',
    DOCS_ENABLED: env.DOCS_ENABLED ? env.DOCS_ENABLED === 'true' : env.NODE_ENV !== 'production',
    TRUST_PROXY: (env.TRUST_PROXY ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    KOSH_ROLE: env.KOSH_ROLE || undefined,
    METRICS_TOKEN: env.METRICS_TOKEN || undefined,
    EXPORT_SIGNING_KEY:
      env.EXPORT_SIGNING_KEY || (env.DATABASE_URL ? undefined : embeddedSigningKey(dataDir)),
  };
  const problems = [...Value.Errors(ConfigSchema, raw)].map((e) => {
    const key = e.instancePath.replace(/^\//, '') || 'config';
    const hint = key === 'JWT_SECRET' ? ` (${SECRET_ADVICE})` : '';
    return `${key}: ${e.message}${hint}`;
  });
  if (raw.EVENTSTORE_URL && !raw.DATABASE_URL) {
    problems.push('EVENTSTORE_URL: read models stay in PostgreSQL; set DATABASE_URL too');
  }
  const secretProblem = raw.JWT_SECRET.length >= 32 ? weakSecretReason(raw.JWT_SECRET) : null;
  if (secretProblem) problems.push(`JWT_SECRET: ${secretProblem} (${SECRET_ADVICE})`);
  if (raw.EXPORT_SIGNING_KEY && !isEd25519PrivateKey(raw.EXPORT_SIGNING_KEY)) {
    problems.push('EXPORT_SIGNING_KEY: not an Ed25519 private key (PKCS#8 PEM or base64 DER)');
  }
  const badProxies = raw.TRUST_PROXY.filter((entry) => !isProxyEntry(entry));
  if (badProxies.length > 0) {
    problems.push(
      `TRUST_PROXY: ${badProxies.join(', ')} is not an address, a CIDR, loopback, linklocal or uniquelocal`,
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const embedded = !raw.DATABASE_URL;
  return {
    ...(raw as Static<typeof ConfigSchema>),
    embedded,
    devMailbox: embedded && isLoopbackHost(raw.HOST),
  };
}

const SECRET_ADVICE = 'make one with `openssl rand -base64 48`; it is required when DATABASE_URL is set';

/** For an entry point: the configuration, or its message on stderr and exit code 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** What Fastify's trustProxy (proxy-addr) accepts: an address, address/prefix, or a named range. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** HOST values that only this machine can reach: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  return mapped?.[1]?.startsWith('127.') === true;
}

/**
 * The role of a process started as `entry` (server.ts: 'api', worker.ts: 'worker').
 * Without Redis nothing but this process can run the jobs, so the API runs them too.
 */
export function roleOf(config: Config, entry: 'api' | 'worker'): Role {
  if (config.KOSH_ROLE) return config.KOSH_ROLE;
  if (entry === 'worker') return 'worker';
  return config.REDIS_URL ? 'api' : 'all';
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

/** The key object of EXPORT_SIGNING_KEY: PKCS#8 PEM, or its DER in base64. */
export function exportSigningKeyOf(text: string): KeyObject {
  return text.includes('-----BEGIN')
    ? createPrivateKey(text)
    : createPrivateKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'pkcs8' });
}

function isEd25519PrivateKey(text: string): boolean {
  try {
    return exportSigningKeyOf(text).asymmetricKeyType === 'ed25519';
  } catch {
    return false;
  }
}

/** Embedded mode keeps a generated export signing key in DATA_DIR, so exports stay verifiable. */
function embeddedSigningKey(dataDir: string): string {
  const file = path.join(dataDir, 'export-signing-key.pem');
  if (existsSync(file)) return readFileSync(file, 'utf8');
  mkdirSync(dataDir, { recursive: true });
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  writeFileSync(file, pem, { mode: 0o600 });
  return pem;
}
