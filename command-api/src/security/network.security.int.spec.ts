import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_LIMITS } from '../routes/auth/limits';
import { createTestApp, type TestApp } from '../testing/test-app';
import { expectEnvelope, MODES } from './testing/attack-kit';

const PER_IP = AUTH_LIMITS.verifyEmail.perIp.max;

/** A guess at a verification link: cheap for the server, counted per client address. */
const guess = (t: TestApp, remoteAddress: string, forwardedFor?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/verify-email',
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    payload: { token: randomBytes(32).toString('base64url') },
  });

const forged = (i: number) => `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`;

/**
 * Issue 10, item 3. Before: `trustProxy: true` in production, so a client naming a new address
 * in X-Forwarded-For on each request was a new client to every per-address limit.
 */
describe.each(MODES)('the client address behind per-address limits (%s)', (mode) => {
  describe('with no TRUST_PROXY (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ mode, env: { NODE_ENV: 'production', RATE_LIMIT_ENABLED: 'true' } });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('ignores X-Forwarded-For: a forged address per request still hits the limit', async () => {
      for (let i = 0; i < PER_IP; i++) {
        const response = await guess(t, '203.0.113.7', forged(i));
        expect(response.statusCode, response.body).toBe(400);
      }
      const over = await guess(t, '203.0.113.7', forged(PER_IP));
      expect(expectEnvelope(over, 429).message).toBe('Too many requests. Please try again later.');
      // The limit is the attacker's, not everyone's.
      expect((await guess(t, '203.0.113.8')).statusCode).toBe(400);
    });
  });

  describe('with TRUST_PROXY naming the proxy', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        mode,
        env: { NODE_ENV: 'production', RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '10.0.0.0/8' },
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('counts the address the proxy saw, whatever the client wrote before it', async () => {
      // The proxy appends the address it saw; what the client sent stays to its left.
      for (let i = 0; i < PER_IP; i++) {
        const response = await guess(t, '10.0.0.2', `${forged(i)}, 198.51.100.9`);
        expect(response.statusCode, response.body).toBe(400);
      }
      expectEnvelope(await guess(t, '10.0.0.2', `${forged(PER_IP)}, 198.51.100.9`), 429);
      // Another client behind the same proxy is another address.
      expect((await guess(t, '10.0.0.2', '198.51.100.10')).statusCode).toBe(400);
    });

    it('ignores X-Forwarded-For from an address that is not a listed proxy', async () => {
      for (let i = 0; i < PER_IP; i++) {
        const response = await guess(t, '203.0.113.20', forged(i));
        expect(response.statusCode, response.body).toBe(400);
      }
      expectEnvelope(await guess(t, '203.0.113.20', forged(PER_IP)), 429);
    });
  });
});

/**
 * Issue 10, item 2. Before: every embedded app served /dev/mailbox, whatever address it listened
 * on, so anyone who could reach it could ask for a reset link and read it there.
 */
describe('the dev mailbox', () => {
  const victim = `victim.${randomBytes(4).toString('hex')}@example.in`;

  async function askForResetAndReadMailbox(t: TestApp) {
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { first_name: 'Vic', last_name: 'Tim', email: victim, password: 'Secret12' },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: victim },
    });
    expect(forgot.statusCode, forgot.body).toBe(200);
    return {
      json: await t.app.inject({ method: 'GET', url: '/dev/mailbox.json' }),
      html: await t.app.inject({ method: 'GET', url: '/dev/mailbox' }),
    };
  }

  it.each([
    // The other addresses (::, a LAN address, localhost, ::1) are config.unit.spec.ts cases.
    ['embedded, listening on every interface', 'embedded', '0.0.0.0'],
    ['PostgreSQL, even on loopback', 'postgres', '127.0.0.1'],
  ] as const)('does not exist %s', async (_name, mode, host) => {
    const t = await createTestApp({ mode, env: { HOST: host } });
    try {
      const { json, html } = await askForResetAndReadMailbox(t);
      expect(expectEnvelope(json, 404).errorCode).toBe('NOT_FOUND');
      expect(expectEnvelope(html, 404).errorCode).toBe('NOT_FOUND');
      expect(json.body).not.toContain('reset-password');
    } finally {
      await t.close();
    }
  });

  it('serves the mail embedded mode sent when it listens on loopback', async () => {
    const t = await createTestApp({ mode: 'embedded', env: { HOST: '127.0.0.1' } });
    try {
      const { json, html } = await askForResetAndReadMailbox(t);
      expect(json.statusCode).toBe(200);
      expect(html.statusCode).toBe(200);
      expect(html.headers['content-type']).toContain('text/html');
    } finally {
      await t.close();
    }
  });
});
