import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from './config';

/**
 * docker-compose.yml and the Dockerfile, checked without a container engine: Compose's own
 * parser (`docker compose config`, or Debian's docker-compose 1.29, which .ci/run installs)
 * resolves the file, then the wiring is checked against the app's real configuration loader.
 * hadolint is not in Debian bookworm, so the Dockerfile gets the structural checks below.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const composeFile = path.join(root, 'docker-compose.yml');
const JWT_SECRET = randomBytes(48).toString('base64');
const POSTGRES_PASSWORD = 'composetestpassword0123456789abcdef';
// An empty env file: a developer's own .env beside the compose file must not leak in.
const emptyEnvFile = path.join(mkdtempSync(path.join(tmpdir(), 'kosh-compose-')), 'empty.env');
writeFileSync(emptyEnvFile, '');

let found: string[] | null = null;
function composeCommand(): string[] {
  if (found) return found;
  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    const run = spawnSync(command[0]!, [...command.slice(1), 'version'], { encoding: 'utf8' });
    if (run.status === 0) {
      found = command;
      return command;
    }
  }
  throw new Error("No Compose CLI: install Debian's docker-compose (.ci/run does)");
}

function compose(args: string[], env: Record<string, string>) {
  const [bin, ...pre] = composeCommand();
  const run = spawnSync(bin!, [...pre, '--env-file', emptyEnvFile, '-f', composeFile, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

type Service = {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string | number | null>;
  ports?: ({ published: number | string; target: number; host_ip?: string } | string)[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  profiles?: string[];
  volumes?: unknown[];
};

/** The services Compose would start with `profiles` active (Compose spec: no profile = always). */
function resolvedServices(profiles: string[]): Record<string, Service> {
  const args = profiles.flatMap((p) => ['--profile', p]);
  const run = compose([...args, 'config'], { JWT_SECRET, POSTGRES_PASSWORD });
  expect(run.stderr).not.toMatch(/error/i);
  expect(run.code).toBe(0);
  const all = (parse(run.stdout) as { services: Record<string, Service> }).services;
  return Object.fromEntries(
    Object.entries(all).filter(([, s]) => !s.profiles || s.profiles.some((p) => profiles.includes(p))),
  );
}

const env = (s: Service) =>
  Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, v === null ? '' : String(v)]));

const dependsOn = (s: Service): Record<string, string> =>
  Array.isArray(s.depends_on)
    ? Object.fromEntries(s.depends_on.map((d) => [d, 'service_started']))
    : Object.fromEntries(Object.entries(s.depends_on ?? {}).map(([d, c]) => [d, c.condition]));

const published = (s: Service) =>
  (s.ports ?? []).map((p) =>
    typeof p === 'string'
      ? { published: Number(p.split(':').at(-2)), target: Number(p.split(':').at(-1)) }
      : { published: Number(p.published), target: Number(p.target) },
  );

/** Databases the postgres service has: POSTGRES_DB plus those its init scripts create. */
function databasesOf(postgres: Service): string[] {
  const initDir = path.join(root, 'deploy', 'postgres-init');
  const created = existsSync(initDir)
    ? readdirSync(initDir).flatMap((f) =>
        [...readFileSync(path.join(initDir, f), 'utf8').matchAll(/CREATE DATABASE (\w+)/gi)].map(
          (m) => m[1]!,
        ),
      )
    : [];
  return [env(postgres).POSTGRES_DB ?? 'postgres', ...created];
}

/** Checks one resolved stack; returns its app services by role. */
function checkWiring(services: Record<string, Service>) {
  const names = Object.keys(services);
  for (const [name, service] of Object.entries(services)) {
    // Healthchecks on every service, and dependencies that wait for them.
    expect(service.healthcheck?.test, `${name} has a healthcheck`).toBeTruthy();
    expect(service.healthcheck?.disable ?? false).toBe(false);
    for (const [dep, condition] of Object.entries(dependsOn(service))) {
      expect(names, `${name} depends on ${dep}, which runs in this profile`).toContain(dep);
      expect(condition, `${name} waits until ${dep} is healthy`).toBe('service_healthy');
    }
  }
  const hostPorts = Object.values(services).flatMap((s) => published(s).map((p) => p.published));
  expect(new Set(hostPorts).size, 'no host port is published twice').toBe(hostPorts.length);

  const apps = Object.entries(services).filter(([, s]) => env(s).KOSH_ROLE !== undefined);
  for (const [name, service] of apps) {
    const vars = env(service);
    // The app's own loader accepts the environment: every setting it needs is there.
    const config = loadConfig(vars);
    expect(config.embedded, `${name} is never embedded (no /dev/mailbox)`).toBe(false);
    expect(config.NODE_ENV).toBe('production');
    expect(config.HOST).toBe('0.0.0.0');
    expect(config.JWT_SECRET).toBe(JWT_SECRET);
    for (const setting of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL'] as const) {
      expect(config[setting], `${name} sets ${setting}`).toBeTruthy();
    }
    // Every URL names a service of this stack on the port it listens on, and waits for it.
    const targets: [string, string, number][] = [
      [config.DATABASE_URL!, 'postgres', 5432],
      [config.REDIS_URL!, 'redis', 6379],
      [config.SMTP_URL!, 'mailpit', 1025],
      ...(config.EVENTSTORE_URL
        ? [[config.EVENTSTORE_URL, 'eventstoredb', 2113] as [string, string, number]]
        : []),
    ];
    for (const [url, host, port] of targets) {
      const u = new URL(url);
      expect(u.hostname, `${name}: ${url}`).toBe(host);
      expect(Number(u.port), `${name}: ${url}`).toBe(port);
      expect(dependsOn(service)[host], `${name} waits for ${host}`).toBe('service_healthy');
    }
    const db = new URL(config.DATABASE_URL!);
    const postgres = services.postgres!;
    expect(db.username).toBe(env(postgres).POSTGRES_USER);
    expect(decodeURIComponent(db.password)).toBe(POSTGRES_PASSWORD);
    expect(env(postgres).POSTGRES_PASSWORD).toBe(POSTGRES_PASSWORD);
    expect(databasesOf(postgres)).toContain(db.pathname.slice(1));

    if (vars.KOSH_ROLE === 'api') {
      expect(service.command, `${name} runs the image's API command`).toBeUndefined();
      const ports = published(service);
      expect(ports.map((p) => p.target)).toEqual([config.PORT]);
      expect(String(service.healthcheck?.test)).toContain(`127.0.0.1:${config.PORT}/readyz`);
    } else {
      expect(vars.KOSH_ROLE).toBe('worker');
      expect(service.command).toEqual(['node', '--import', 'tsx', 'platform/src/worker.ts']);
      expect(published(service)).toEqual([]);
      expect(String(service.healthcheck?.test)).toContain('platform/src/healthcheck.ts');
    }
  }
  const byRole = (role: string) =>
    apps.filter(([, s]) => env(s).KOSH_ROLE === role).map(([n, s]) => ({ n, s }));
  return { api: byRole('api'), worker: byRole('worker') };
}

describe('docker-compose.yml, resolved by the Compose parser', () => {
  it('default: API and workers with the event log in PostgreSQL, no EventStoreDB', () => {
    const services = resolvedServices([]);
    expect(Object.keys(services).sort()).toEqual(['api', 'mailpit', 'postgres', 'redis', 'workers']);
    const { api, worker } = checkWiring(services);
    expect(api.map((a) => a.n)).toEqual(['api']);
    expect(worker.map((w) => w.n)).toEqual(['workers']);
    for (const { s } of [...api, ...worker]) expect(env(s).EVENTSTORE_URL).toBeUndefined();
    expect(published(services.api!)).toEqual([{ published: 3000, target: 3000 }]);
  });

  it('eventstoredb profile: an API and workers on EventStoreDB, with their own read models and queue', () => {
    const services = resolvedServices(['eventstoredb']);
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['eventstoredb', 'api-eventstoredb', 'workers-eventstoredb']),
    );
    const { api, worker } = checkWiring(services);
    const onEsdb = [...api, ...worker].filter(({ s }) => env(s).EVENTSTORE_URL);
    expect(onEsdb.map((a) => a.n).sort()).toEqual(['api-eventstoredb', 'workers-eventstoredb']);
    const shared = (key: string, names: string[]) => new Set(names.map((n) => env(services[n]!)[key]));
    // API and workers of one shape share the database, queue prefix and event store...
    for (const key of ['DATABASE_URL', 'QUEUE_PREFIX', 'EVENTSTORE_URL', 'JWT_SECRET', 'APP_URL']) {
      expect(shared(key, ['api-eventstoredb', 'workers-eventstoredb']).size, key).toBe(1);
      expect(shared(key, ['api', 'workers']).size, key).toBe(1);
    }
    // ...and the two shapes never project two logs into one database or share jobs.
    expect(env(services['api-eventstoredb']!).DATABASE_URL).not.toBe(env(services.api!).DATABASE_URL);
    expect(env(services['api-eventstoredb']!).QUEUE_PREFIX).not.toBe(env(services.api!).QUEUE_PREFIX);
  });

  it('holds no secret: compose refuses to run without JWT_SECRET or POSTGRES_PASSWORD, naming how to make one', () => {
    const noJwt = compose(['config'], { POSTGRES_PASSWORD });
    expect(noJwt.code).not.toBe(0);
    expect(noJwt.stderr).toContain('set JWT_SECRET: openssl rand -base64 48');
    const noPassword = compose(['--profile', 'eventstoredb', 'config'], { JWT_SECRET });
    expect(noPassword.code).not.toBe(0);
    expect(noPassword.stderr).toContain('set POSTGRES_PASSWORD: openssl rand -hex 24');

    // In the file itself, every secret-looking setting is a reference to the environment.
    const raw = parse(readFileSync(composeFile, 'utf8'), { merge: true }) as {
      services: Record<string, Service>;
      [anchor: string]: unknown;
    };
    for (const [name, service] of Object.entries(raw.services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        if (/SECRET|PASSWORD|TOKEN|KEY/.test(key))
          expect(String(value), `${name}.${key}`).toMatch(/^\$\{\w+:\?/);
        if (/_URL$/.test(key) && String(value).includes('@')) {
          expect(String(value), `${name}.${key}`).toMatch(/:\$\{POSTGRES_PASSWORD\}@/);
        }
      }
    }
  });
});

describe('Dockerfile (structural checks; hadolint is not available in Debian bookworm)', () => {
  const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const instructions = dockerfile
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op!.toUpperCase(), args: rest.join(' ') };
    });
  const stages = instructions.reduce<{ op: string; args: string }[][]>((acc, i) => {
    if (i.op === 'FROM') acc.push([]);
    acc.at(-1)?.push(i);
    return acc;
  }, []);
  const final = stages.at(-1)!;

  it('pins every base image to a version', () => {
    for (const from of instructions.filter((i) => i.op === 'FROM')) {
      const image = from.args.split(/\s+/)[0]!;
      expect(image, 'a base image with a version tag or digest').toMatch(
        /(:\d+\.\d+\.\d+[\w.-]*|@sha256:[0-9a-f]{64})$/,
      );
    }
  });

  it('runs as a non-root user, with a health check and the API command', () => {
    const user = final.filter((i) => i.op === 'USER').at(-1);
    expect(user?.args).toBeTruthy();
    expect(user?.args).not.toMatch(/^(root|0)(:|$)/);
    expect(final.findIndex((i) => i.op === 'USER')).toBeLessThan(final.findIndex((i) => i.op === 'CMD'));
    expect(final.some((i) => i.op === 'HEALTHCHECK' && i.args.includes('/readyz'))).toBe(true);
    const cmd = JSON.parse(final.find((i) => i.op === 'CMD')!.args) as string[];
    expect(cmd.slice(0, 3)).toEqual(['node', '--import', 'tsx']);
    expect(existsSync(path.join(root, cmd[3]!))).toBe(true);
    expect(existsSync(path.join(root, 'platform/src/worker.ts'))).toBe(true);
  });

  it('installs with npm ci from the lockfile, copying every workspace manifest first', () => {
    const runs = instructions.filter((i) => i.op === 'RUN').map((i) => i.args);
    expect(runs.some((r) => /\bnpm ci\b/.test(r))).toBe(true);
    expect(runs.some((r) => /\bnpm (install|i)\b/.test(r))).toBe(false);
    const workspaces = (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces: string[] }
    ).workspaces;
    for (const stage of stages) {
      const copied = stage.filter((i) => i.op === 'COPY').map((i) => i.args);
      for (const ws of workspaces)
        expect(copied, `${ws}/package.json`).toContain(`${ws}/package.json ${ws}/`);
      expect(copied).toContain('package.json package-lock.json ./');
    }
  });

  it('bakes in no secret and keeps .env and local data out of the build context', () => {
    for (const i of instructions.filter((i) => i.op === 'ENV' || i.op === 'ARG')) {
      expect(i.args).not.toMatch(/SECRET|PASSWORD|TOKEN|KEY/i);
    }
    const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['.env', 'node_modules', 'data', '.git']) expect(ignored).toContain(entry);
  });
});
