import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration at boot', () => {
  it('runs embedded with nothing set, and keeps a generated JWT secret in DATA_DIR across restarts', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kosh-config-'));
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
      JWT_SECRET: 'x'.repeat(40),
      PORT: '8080',
      HOST: '0.0.0.0',
    });
    expect(config.embedded).toBe(false);
    expect(config.PORT).toBe(8080);
    expect(config.APP_URL).toBe('http://127.0.0.1:8080');
  });
});
