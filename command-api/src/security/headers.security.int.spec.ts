import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * Issue 10, item 9. Before: no answer carried a Content-Security-Policy, a frame ban, a referrer
 * policy or (except uploads) nosniff; API answers with a user's money could be cached; /docs was
 * served in production. Every case below is one of those.
 */
const SECURITY_HEADERS = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function directives(response: LightMyRequestResponse): Map<string, string[]> {
  const policy = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name as string, sources]),
  );
}

function expectStrictHeaders(response: LightMyRequestResponse) {
  expect(response.headers).toMatchObject(SECURITY_HEADERS);
  const csp = directives(response);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  for (const sources of csp.values()) {
    expect(sources).not.toContain("'unsafe-inline'");
    expect(sources).not.toContain("'unsafe-eval'");
    expect(sources).not.toContain('*');
  }
}

describe.each(['postgres', 'embedded'] as const)('security headers (%s)', (mode) => {
  let t: TestApp;
  let webDist: string;
  const alice = randomUUID();
  let aliceAuth: { authorization: string };

  beforeAll(async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'kosh-headers-web-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(
      path.join(webDist, 'index.html'),
      '<!doctype html><script type="module" src="/assets/app.js"></script>',
    );
    await writeFile(path.join(webDist, 'assets', 'app.js'), 'export {};');
    t = await createTestApp({ mode, webDist });
    // The one place a token is made: the only line to change should tokens need an account.
    aliceAuth = await t.signedInHeader(alice);
  });

  afterAll(async () => {
    await t?.close();
    await rm(webDist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('the web app cannot be framed by another site, nor run inline or foreign scripts', async () => {
    for (const url of ['/', '/loans/123/amortization', '/assets/app.js']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expectStrictHeaders(response);
    }
  });

  it('every other answer carries the headers too: API, errors, 404s, uploads, health', async () => {
    const answers = await Promise.all([
      get('/api/transactions', aliceAuth),
      get('/api/transactions'),
      get('/api/no-such-route', aliceAuth),
      get('/api/loans/not-a-loan', aliceAuth),
      get('/uploads/profile-pictures/missing.png'),
      get('/livez'),
      t.app.inject({ method: 'POST', url: '/api/transactions', headers: aliceAuth, payload: {} }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 404, 404, 404, 200, 422]);
    for (const response of answers) expectStrictHeaders(response);
  });

  it("no browser or proxy keeps a copy of an API answer with a user's data", async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/transactions',
      headers: aliceAuth,
      payload: { notes: 'Salary', transaction_type: 'C', transaction_date: '2025-03-01', amount: 50000 },
    });
    for (const url of [
      '/api/transactions',
      '/api/transactions/stats',
      '/api/loans',
      '/api/ledger',
      '/api/banks',
    ]) {
      const response = await get(url, aliceAuth);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    const unauthenticated = await get('/api/loans');
    expect(unauthenticated.headers['cache-control']).toBe('no-store');
  });

  it('the dev mailbox (reset links) is never cached; only its own stylesheet may be inline', async () => {
    const response = await get('/dev/mailbox');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers).toMatchObject(SECURITY_HEADERS);
    if (mode === 'postgres') {
      // No outbox on the PostgreSQL shape: the path is just the web app's fallback page.
      expect(response.body).not.toContain('Dev mailbox');
      return;
    }
    expect(response.statusCode).toBe(200);
    const css = /<style>([^<]*)<\/style>/.exec(response.body)?.[1] ?? '';
    const hash = `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
    const csp = directives(response);
    expect(csp.get('style-src')).toEqual(["'self'", hash]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('HSTS is not sent over plain http (it would pin a host that has no certificate)', async () => {
    expect((await get('/')).headers['strict-transport-security']).toBeUndefined();
  });

  it('outside production /docs is served by default', async () => {
    expect((await get('/docs/json')).statusCode).toBe(200);
  });

  describe('in production behind https', () => {
    let prod: TestApp;
    beforeAll(async () => {
      prod = await createTestApp({
        mode,
        webDist,
        env: { NODE_ENV: 'production', APP_URL: 'https://kosh.example.in' },
      });
    });
    afterAll(async () => {
      await prod?.close();
    });

    it('a browser is told to use https only, on every answer', async () => {
      for (const url of ['/', '/api/loans', '/livez']) {
        const response = await prod.app.inject({ method: 'GET', url });
        expect(response.headers['strict-transport-security'], url).toMatch(
          /^max-age=\d{8,}; includeSubDomains$/,
        );
      }
    });

    it('/docs does not map the API for an attacker unless DOCS_ENABLED=true', async () => {
      for (const url of ['/docs', '/docs/json', '/docs/static/index.html']) {
        const response = await prod.app.inject({ method: 'GET', url });
        // The SPA fallback answers index.html for unknown paths, never the API description.
        expect(response.body, url).not.toContain('openapi');
        expect(response.body, url).not.toContain('swagger');
      }
    });
  });

  describe('in production with DOCS_ENABLED=true', () => {
    let prod: TestApp;
    beforeAll(async () => {
      prod = await createTestApp({ mode, env: { NODE_ENV: 'production', DOCS_ENABLED: 'true' } });
    });
    afterAll(async () => {
      await prod?.close();
    });

    it('/docs is served, under the same headers', async () => {
      const response = await prod.app.inject({ method: 'GET', url: '/docs/json' });
      expect(response.statusCode).toBe(200);
      expect(response.json().openapi).toMatch(/^3\./);
      expect(response.headers).toMatchObject(SECURITY_HEADERS);
    });
  });
});
