import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from '@kosh/command-api';
import { fixtureSessionId, registeredUserEvents } from '@kosh/command-api/testing';
import { userStreamId } from '@kosh/domain';
import { createPostgresEventStore } from '@kosh/event-store';
import { createTestDatabase, type TestDatabase } from '@kosh/event-store/testing';
import { freePort, type PrivateRedis, startPrivateRedis } from '@kosh/workers/testing';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

/**
 * The production shape in child processes: API processes (`npm start` with KOSH_ROLE=api) and
 * worker processes (`npm run workers`) on a fresh PostgreSQL database reached through a TCP
 * proxy (to cut), and a private redis-server (to stop). Each process logs to its own file.
 */
export type Role = 'api' | 'worker';

export type KoshProcess = {
  readonly role: Role;
  readonly name: string;
  /** API only. */
  readonly url: string;
  readonly logFile: string;
  child: ChildProcess | null;
};

export type Stack = {
  readonly database: TestDatabase;
  readonly redis: PrivateRedis;
  readonly proxy: TcpProxy;
  readonly secret: string;
  readonly apis: KoshProcess[];
  readonly workers: KoshProcess[];
  /** `DATABASE_URL` the processes use (through the proxy). */
  readonly databaseUrl: string;
  env: Record<string, string>;
  start(proc: KoshProcess): Promise<void>;
  /** SIGKILL: no shutdown, no cleanup (jobs stay active in Redis). */
  kill(proc: KoshProcess): Promise<void>;
  tokenFor(userId: string): string;
  /** Records `userId` as a registered, verified user in the log and answers a token of theirs. */
  signUp(userId: string): Promise<string>;
  close(): Promise<void>;
};

const SCRIPTS: Record<Role, string> = {
  api: path.join(repoRoot, 'platform/src/server.ts'),
  worker: path.join(repoRoot, 'platform/src/worker.ts'),
};

function base64url(input: string | Buffer): string {
  return Buffer.from(input).toString('base64url');
}

/** An HS256 access token like the API issues (`sub`, `iat_ms`, the fixture session `sid`, one day). */
export function signToken(secret: string, userId: string): string {
  const now = Date.now();
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(
    JSON.stringify({
      sub: userId,
      sid: fixtureSessionId(userId),
      iat_ms: now,
      iat: Math.floor(now / 1000),
      exp: Math.floor(now / 1000) + 86_400,
    }),
  );
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

async function waitForHttp(url: string, proc: KoshProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.child?.exitCode != null)
      throw new Error(`${proc.name} exited (${proc.child.exitCode}); see ${proc.logFile}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${proc.name} did not answer ${url}; see ${proc.logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function startStack(options: {
  apis: number;
  workers: number;
  env?: Record<string, string>;
}): Promise<Stack> {
  const database = await createTestDatabase({ prefix: 'kosh_faults' });
  const redis = await startPrivateRedis();
  const target = new URL(database.url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const proxied = new URL(database.url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  const databaseUrl = proxied.toString();
  const secret = randomBytes(32).toString('hex');
  const logDir = mkdtempSync(path.join(tmpdir(), 'kosh-faults-'));

  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: 'kosh-faults',
    JWT_SECRET: secret,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
    DATA_DIR: logDir,
    READ_YOUR_WRITES_TIMEOUT_MS: '5000',
    ...options.env,
  };

  const make = async (role: Role, i: number): Promise<KoshProcess> => ({
    role,
    name: `${role}-${i + 1}`,
    url: role === 'api' ? `http://127.0.0.1:${await freePort()}` : '',
    logFile: path.join(logDir, `${role}-${i + 1}.log`),
    child: null,
  });
  const apis = await Promise.all(Array.from({ length: options.apis }, (_, i) => make('api', i)));
  const workers = await Promise.all(Array.from({ length: options.workers }, (_, i) => make('worker', i)));

  const stack: Stack = {
    database,
    redis,
    proxy,
    secret,
    apis,
    workers,
    databaseUrl,
    env,
    async start(proc) {
      const log = createWriteStream(proc.logFile, { flags: 'a' });
      const port = proc.url ? new URL(proc.url).port : '0';
      const child = spawn(process.execPath, ['--import', 'tsx', SCRIPTS[proc.role]], {
        cwd: repoRoot,
        // Workers log at info: their start line says they are ready.
        env: {
          ...process.env,
          ...stack.env,
          PORT: port,
          KOSH_ROLE: proc.role,
          ...(proc.role === 'worker' ? { LOG_LEVEL: 'info' } : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.pipe(log);
      child.stderr?.pipe(log);
      proc.child = child;
      if (proc.role === 'api') await waitForHttp(`${proc.url}/livez`, proc, 60_000);
      else await waitForLog(proc, 'Kosh workers are running', 60_000);
    },
    async kill(proc) {
      const child = proc.child;
      proc.child = null;
      if (!child || child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    },
    tokenFor: (userId) => signToken(secret, userId),
    async signUp(userId) {
      // Straight to the database, not through the proxy: a test signs up before it cuts anything.
      await createPostgresEventStore(database.db).appendToStream(
        userStreamId(userId),
        registeredUserEvents(userId, new Date()),
        { expectedVersion: 'no_stream' },
      );
      return signToken(secret, userId);
    },
    async close() {
      await Promise.all([...apis, ...workers].map((p) => stack.kill(p)));
      await proxy.close();
      await redis.stop();
      await database.drop();
    },
  };
  try {
    // One process migrates first: the others then find every migration applied.
    const [first, ...rest] = [...workers, ...apis];
    if (first) await stack.start(first);
    await Promise.all(rest.map((p) => stack.start(p)));
  } catch (error) {
    await stack.close();
    throw error;
  }
  return stack;
}

async function waitForLog(proc: KoshProcess, text: string, timeoutMs: number): Promise<void> {
  const { readFile } = await import('node:fs/promises');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.child?.exitCode != null)
      throw new Error(`${proc.name} exited (${proc.child.exitCode}); see ${proc.logFile}`);
    const content = await readFile(proc.logFile, 'utf8').catch(() => '');
    if (content.includes(text)) return;
    if (Date.now() > deadline) throw new Error(`${proc.name} did not log "${text}"; see ${proc.logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
