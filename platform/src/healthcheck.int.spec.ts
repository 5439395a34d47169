import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs the worker container's health check command (docker-compose.yml) with `env`. */
function healthcheck(env: Record<string, string>) {
  const run = spawnSync('node', ['--import', 'tsx', 'platform/src/healthcheck.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', JWT_SECRET: randomBytes(48).toString('base64'), ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('worker health check', () => {
  const database = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const redis = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

  it('passes when PostgreSQL and Redis answer', () => {
    const { code, output } = healthcheck({ DATABASE_URL: database, REDIS_URL: redis });
    expect(output.trim()).toBe('database: ok, queue: ok');
    expect(code).toBe(0);
  });

  it('fails, naming what is down, when Redis or EventStoreDB does not answer', () => {
    const { code, output } = healthcheck({
      DATABASE_URL: database,
      REDIS_URL: 'redis://127.0.0.1:1',
      EVENTSTORE_URL: 'kurrentdb://127.0.0.1:1?tls=false',
    });
    expect(output).toMatch(/^database: ok, queue: down \(.*ECONNREFUSED.*\), eventstore: down \(.+\)$/m);
    expect(code).toBe(1);
  });
});
