import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { createTestApp, type TestApp } from './testing/test-app';

/** The API skeleton as an operator and a client see it: health, envelope, docs, logs. */
describe('API skeleton on PostgreSQL and BullMQ', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ queue: 'bullmq' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is live, and ready when the database and the queue answer', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/livez' });
    expect(live.statusCode).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ok',
      checks: { database: 'ok', queue: 'ok', projections: 'ok' },
    });
  });

  it('answers an unknown API path with the error envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(body).toMatchObject({
      success: false,
      message: 'Resource not found',
      errorCode: 'NOT_FOUND',
      errors: [],
    });
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
  });

  it('rejects a protected call without a valid token with 401', async () => {
    for (const authorization of [undefined, 'Bearer nonsense', `Bearer ${t.signToken('u1')}x`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/auth/profile',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
    }
  });

  it('publishes OpenAPI generated from the route schemas at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    expect(paths).toContain('/api/auth/login');
    expect(paths).toContain('/readyz');
  });

  it('has no /dev mailbox outside embedded mode', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dev/mailbox.json' });
    expect(res.statusCode).toBe(404);
  });
});

describe('errors and logs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('never shows internals on a 5xx, and never logs the bearer token', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp(t.platform, {
      logger: {
        level: 'info',
        stream,
        redact: { paths: ['req.headers.authorization'], censor: '[redacted]' },
      },
    });
    app.get('/api/explode', async () => {
      throw new Error('relation "secret_table" does not exist at 10.0.0.5');
    });
    await app.ready();
    const token = await t.signedInToken('someone');
    const res = await app.inject({
      method: 'GET',
      url: '/api/explode',
      headers: { authorization: `Bearer ${token}` },
    });
    await app.close();
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({
      success: false,
      message: 'Server error. Please try again later.',
      errorCode: 'INTERNAL_ERROR',
    });
    expect(res.body).not.toContain('secret_table');
    const log = lines.join('');
    expect(log).toContain('secret_table');
    expect(log).not.toContain(token);
  });
});
