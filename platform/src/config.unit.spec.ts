import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackHost, loadConfig, roleOf } from './config';

const postgres = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/kosh' };
/** What `openssl rand -base64 48` prints. */
const strongSecret = () => randomBytes(48).toString('base64');

const dataDirs: string[] = [];
/** A fresh DATA_DIR under the system's temporary folder, removed after the file's tests. */
function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kosh-config-'));
  dataDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('configuration at boot', () => {
  it('runs embedded with nothing set, and keeps a generated JWT secret in DATA_DIR across restarts', () => {
    const dataDir = tempDataDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.embedded).toBe(true);
    expect(first.PORT).toBe(3000);
    expect(first.HOST).toBe('127.0.0.1');
    expect(first.APP_URL).toBe('http://127.0.0.1:3000');
    expect(first.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8')).toBe(first.JWT_SECRET);
    expect(loadConfig({ DATA_DIR: dataDir }).JWT_SECRET).toBe(first.JWT_SECRET);
  });

  it('refuses to boot with PostgreSQL but no JWT secret, naming every problem', () => {
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://db/kosh', PORT: 'eighty', REDIS_URL: 'http://x' }),
    ).toThrow(ConfigError);
    try {
      loadConfig({ DATABASE_URL: 'postgres://db/kosh', PORT: 'eighty', REDIS_URL: 'http://x' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('JWT_SECRET');
      expect(message).toContain('REDIS_URL');
    }
  });

  it('is production-shaped when DATABASE_URL is set', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/kosh',
      JWT_SECRET: strongSecret(),
      PORT: '8080',
      HOST: '0.0.0.0',
    });
    expect(config.embedded).toBe(false);
    expect(config.PORT).toBe(8080);
    expect(config.APP_URL).toBe('http://127.0.0.1:8080');
  });

  it.each([
    [
      'the value published in .env.example and docker-compose.yml',
      'change-me-to-a-long-random-string-of-32-plus-chars',
    ],
    ['one character repeated', 'x'.repeat(64)],
    ["jwt.io's example, doubled to 39 characters", 'your-256-bit-secret-your-256-bit-secret'],
    ['a keyboard walk', '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p'],
    ['a short phrase repeated', 'kosh1234'.repeat(8)],
    ['32 hex characters (at most 128 bits, estimated below)', '0123456789abcdef'.repeat(2)],
  ])('refuses a guessable JWT secret at boot: %s, and says how to make one', (_name, secret) => {
    const message = configError({ ...postgres, JWT_SECRET: secret });
    expect(message).toContain('JWT_SECRET');
    expect(message).toContain('openssl rand -base64 48');
  });

  it('refuses a missing secret with PostgreSQL, saying how to make one', () => {
    expect(configError(postgres)).toContain('openssl rand -base64 48');
  });

  it('accepts secrets made by openssl rand (-base64 48, -hex 32)', () => {
    for (let i = 0; i < 20; i++) {
      expect(loadConfig({ ...postgres, JWT_SECRET: strongSecret() }).embedded).toBe(false);
      expect(loadConfig({ ...postgres, JWT_SECRET: randomBytes(32).toString('hex') }).embedded).toBe(false);
    }
  });

  it('keeps the embedded generated secret strong enough to pass its own check', () => {
    const dataDir = tempDataDir();
    expect(() => loadConfig({ DATA_DIR: dataDir })).not.toThrow();
  });

  it('serves the dev mailbox only in embedded mode listening on loopback', () => {
    const dataDir = tempDataDir();
    const embedded = (HOST: string) => loadConfig({ DATA_DIR: dataDir, HOST }).devMailbox;
    expect(embedded('127.0.0.1')).toBe(true);
    expect(embedded('127.1.2.3')).toBe(true);
    expect(embedded('localhost')).toBe(true);
    expect(embedded('::1')).toBe(true);
    expect(embedded('0.0.0.0')).toBe(false);
    expect(embedded('::')).toBe(false);
    expect(embedded('192.168.1.20')).toBe(false);
    expect(loadConfig({ ...postgres, JWT_SECRET: strongSecret() }).devMailbox).toBe(false);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });

  it('keeps 32 MB of live answers per route family by default; 0 keeps none; nonsense refuses to boot', () => {
    const env = { ...postgres, JWT_SECRET: strongSecret() };
    expect(loadConfig(env).ANSWER_CACHE_MB).toBe(32);
    expect(loadConfig({ ...env, ANSWER_CACHE_MB: '0' }).ANSWER_CACHE_MB).toBe(0);
    expect(loadConfig({ ...env, ANSWER_CACHE_MB: '0.5' }).ANSWER_CACHE_MB).toBe(0.5);
    expect(configError({ ...env, ANSWER_CACHE_MB: '-1' })).toContain('ANSWER_CACHE_MB');
    expect(configError({ ...env, ANSWER_CACHE_MB: 'lots' })).toContain('ANSWER_CACHE_MB');
  });

  it('trusts no proxy by default, and only addresses or CIDRs from TRUST_PROXY', () => {
    const dataDir = tempDataDir();
    expect(loadConfig({ DATA_DIR: dataDir }).TRUST_PROXY).toEqual([]);
    expect(
      loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.1 ,fd00::/8,loopback' })
        .TRUST_PROXY,
    ).toEqual(['10.0.0.0/8', '192.168.1.1', 'fd00::/8', 'loopback']);
    const message = configError({ DATA_DIR: dataDir, TRUST_PROXY: '10.0.0.0/8,true,10.0.0.0/33' });
    expect(message).toContain('TRUST_PROXY: true, 10.0.0.0/33');
  });

  it('gives each process its role: all without Redis, api and worker with it, KOSH_ROLE overriding', () => {
    const production = {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/kosh',
      JWT_SECRET: strongSecret(),
      DATA_DIR: tempDataDir(),
    };
    expect(roleOf(loadConfig({ DATA_DIR: production.DATA_DIR }), 'api')).toBe('all');
    expect(roleOf(loadConfig(production), 'api')).toBe('all');
    const withRedis = loadConfig({ ...production, REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(roleOf(withRedis, 'api')).toBe('api');
    expect(roleOf(withRedis, 'worker')).toBe('worker');
    expect(roleOf(loadConfig({ ...production, REDIS_URL: 'redis://r:6379', KOSH_ROLE: 'all' }), 'api')).toBe(
      'all',
    );
    expect(() => loadConfig({ ...production, KOSH_ROLE: 'web' })).toThrow(ConfigError);
  });
});
