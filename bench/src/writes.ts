/**
 * The cost of one write (issue 33 item 3): `npm run bench:commands -- writes`.
 *
 * On a fresh PostgreSQL database, in one run:
 *
 *   bare insert — a bare Fastify route doing one INSERT (`support/insert-target.ts`): the baseline
 *   Kosh        — `platform/src/server.ts` as production runs it (NODE_ENV=production, BullMQ on
 *                 Redis, KOSH_ROLE=api, info logs to a pipe, rate limits off): `POST
 *                 /api/transactions` with the same body, answered after read-your-writes
 *
 * each driven by autocannon with 1 writer (one user) and 10 writers (10 users, one each; and all
 * 10 as one user, whose appends the hash chain serialises). Per run: commands/s, p50, p99, the
 * ratio of commands/s to the baseline's at the same writers, and the CPU per command of the
 * server's node process and of every PostgreSQL backend of the bench database (from /proc; Linux
 * only), with the load average beside it. With BENCH_WORKER=1 a worker process (KOSH_ROLE=worker)
 * runs too and its CPU is printed apart: the other read models' catch-up, paid off the request.
 *
 * Options (environment): BENCH_SECONDS=10  BENCH_WORKER=1  BENCH_CPU_PROF=/abs/dir (the Kosh
 * server writes CPU profiles there)  BENCH_KOSH_NODE_OPTIONS (the Kosh server's NODE_OPTIONS, e.g.
 * `--import $PWD/bench/src/support/count-statements.mjs` to count its statements by text).
 * Not a test: figures only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { repoRoot } from '@kosh/command-api';
import { fixtureSessionId, signUp } from '@kosh/command-api/testing';
import { createTestDatabase } from '@kosh/event-store/testing';
import { buildHttpApp, createRuntime, loadConfig } from '@kosh/platform';
import autocannon from 'autocannon';
import pg from 'pg';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TICKS_PER_MS = 100 / 1000; // USER_HZ

/** CPU time (user + system) of a process in ms, or null once it is gone. */
function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_MS;
  } catch {
    return null;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject()));
    });
  });
}

type Server = { name: string; url: string; process: ChildProcess };

async function start(
  name: string,
  args: string[],
  env: Record<string, string>,
  probe = '/',
): Promise<Server> {
  const port = await freePort();
  const profile =
    process.env.BENCH_CPU_PROF && name === 'kosh'
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', ...args], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...(name === 'kosh' && process.env.BENCH_KOSH_NODE_OPTIONS
        ? { NODE_OPTIONS: process.env.BENCH_KOSH_NODE_OPTIONS }
        : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    const ok = await fetch(`${url}${probe}`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return { name, url, process: child };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not start`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

type Figures = {
  rps: number;
  p50: number;
  p99: number;
  nodeMs: number;
  workerMs: number;
  pgMs: number;
  bad: number;
};

export async function transactionWrites(): Promise<void> {
  const database = await createTestDatabase({ prefix: 'kosh_bench_writes' });
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const children: ChildProcess[] = [];
  try {
    const secret = randomBytes(32).toString('hex');
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      JWT_SECRET: secret,
      LOG_LEVEL: 'silent',
      DATA_DIR: path.join(repoRoot, 'data', 'bench-writes'),
    });
    const platform = await createRuntime(config, { db: database.db });
    const users = Array.from({ length: 11 }, () => randomUUID());
    for (const id of users) await signUp(platform, id);
    const app = await buildHttpApp(platform);
    await app.ready();
    const tokens = users.map((id) =>
      app.issueToken(id, { rememberMe: true, sessionId: fixtureSessionId(id) }),
    );
    await app.close();
    await platform.close();
    await admin.query(`CREATE TABLE bench_inserts (
      id uuid PRIMARY KEY, user_id text NOT NULL, transaction_type char(1) NOT NULL,
      transaction_date date NOT NULL, amount bigint NOT NULL, notes text,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await admin.query('CREATE INDEX ON bench_inserts (user_id, transaction_date)');

    const koshEnv = {
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: `kosh-bench-${randomBytes(4).toString('hex')}`,
      JWT_SECRET: secret,
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
      DATA_DIR: config.DATA_DIR,
    };
    const bare = await start(
      'bare',
      ['bench/src/support/insert-target.ts'],
      { DATABASE_URL: database.url },
      '/x',
    );
    children.push(bare.process);
    const kosh = await start('kosh', ['platform/src/server.ts'], { ...koshEnv, KOSH_ROLE: 'api' }, '/livez');
    children.push(kosh.process);
    let worker: ChildProcess | null = null;
    if (process.env.BENCH_WORKER) {
      worker = spawn(process.execPath, ['--import', 'tsx', 'platform/src/worker.ts'], {
        cwd: repoRoot,
        env: { ...process.env, ...koshEnv, KOSH_ROLE: 'worker' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(worker);
      await new Promise((r) => setTimeout(r, 5000));
    }

    const body = JSON.stringify({
      notes: 'Bench write',
      transaction_type: 'D',
      transaction_date: '2025-12-01',
      amount: 123.45,
    });
    const backends = async () =>
      (
        await admin.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        )
      ).rows.map((r) => r.pid);

    /** `writers` connections for `seconds`, each writing as `tokenOf(its index)` (none: no auth). */
    const run = async (
      server: Server,
      writers: number,
      seconds: number,
      tokenOf: ((writer: number) => string) | null,
    ): Promise<Figures> => {
      const pids = await backends();
      const pgBefore = new Map(pids.map((pid) => [pid, cpuMs(pid)]));
      const nodeBefore = cpuMs(server.process.pid as number) ?? 0;
      const workerBefore = worker ? (cpuMs(worker.pid as number) ?? 0) : 0;
      let connection = 0;
      const result = await autocannon({
        url: `${server.url}${server.name === 'kosh' ? '/api/transactions' : '/'}`,
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        connections: writers,
        duration: seconds,
        ...(tokenOf
          ? {
              requests: [
                {
                  // The context is the connection's: each writer keeps its own user.
                  setupRequest: (request, context: { authorization?: string }) => {
                    context.authorization ??= `Bearer ${tokenOf(connection++)}`;
                    return {
                      ...request,
                      headers: { ...request.headers, authorization: context.authorization },
                    };
                  },
                },
              ],
            }
          : {}),
      });
      const nodeMs = (cpuMs(server.process.pid as number) ?? nodeBefore) - nodeBefore;
      const workerMs = worker ? (cpuMs(worker.pid as number) ?? workerBefore) - workerBefore : 0;
      let pgMs = 0;
      for (const pid of new Set([...pids, ...(await backends())])) {
        const now = cpuMs(pid);
        if (now !== null) pgMs += now - (pgBefore.get(pid) ?? 0);
      }
      const total = result.requests.total || 1;
      return {
        rps: result.requests.total / seconds,
        p50: result.latency.p50,
        p99: result.latency.p99,
        nodeMs: nodeMs / total,
        workerMs: workerMs / total,
        pgMs: pgMs / total,
        bad: result.non2xx + result.errors + result.timeouts,
      };
    };

    console.log(
      `Kosh writes — POST /api/transactions against a bare Fastify + one INSERT, ${SECONDS} s per run, node ${process.version}${worker ? ', with a worker process' : ''}; load ${load()}`,
    );
    console.log(
      `\n${'run'.padEnd(34)} ${'writers'.padStart(7)} ${'cmd/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'/bare'.padStart(6)} ${'node ms'.padStart(8)} ${'pg ms'.padStart(7)} ${'cpu ms'.padStart(7)}${worker ? ` ${'worker ms'.padStart(9)}` : ''}  load`,
    );
    const bareRps = new Map<number, number>();
    const print = (label: string, writers: number, f: Figures) => {
      const base = bareRps.get(writers);
      const ratio = base ? `${((100 * f.rps) / base).toFixed(1)}%` : '';
      console.log(
        `${label.padEnd(34)} ${String(writers).padStart(7)} ${f.rps.toFixed(0).padStart(7)} ${String(f.p50).padStart(7)} ${String(f.p99).padStart(7)} ${ratio.padStart(6)} ${f.nodeMs.toFixed(3).padStart(8)} ${f.pgMs.toFixed(3).padStart(7)} ${(f.nodeMs + f.pgMs).toFixed(3).padStart(7)}${worker ? ` ${f.workerMs.toFixed(3).padStart(9)}` : ''}  ${load()}${f.bad ? `   ${f.bad} failed` : ''}`,
      );
    };
    // Warm-up (JIT, plans, pools), not counted.
    await run(bare, 10, 2, null);
    await run(kosh, 10, 2, (i) => tokens[i % 10] as string);
    for (const writers of [1, 10]) {
      const f = await run(bare, writers, SECONDS, null);
      bareRps.set(writers, f.rps);
      print('bare Fastify + one INSERT', writers, f);
    }
    print('POST /api/transactions, 1 user', 1, await run(kosh, 1, SECONDS, () => tokens[0] as string));
    print(
      'POST /api/transactions, 10 users',
      10,
      await run(kosh, 10, SECONDS, (i) => tokens[i % 10] as string),
    );
    print('POST /api/transactions, 1 user', 10, await run(kosh, 10, SECONDS, () => tokens[10] as string));
    console.log(`\nload at the end ${load()}`);
  } finally {
    for (const child of children) await stop(child);
    await admin.end();
    await database.drop();
  }
}
