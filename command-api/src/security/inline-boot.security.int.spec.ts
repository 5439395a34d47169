import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * Issue 33: the build inlines boot.ts at the top of index.html (a cold start's first requests go
 * out as the page arrives). The page's policy allows that one script by its hash and nothing
 * else inline; every other answer keeps the plain policy.
 */
const BOOT = 'window.__booted = (window.__booted ?? 0) + 1;';
const TABLE = '{"files":["assets/app.js"],"layout":[0],"screens":{}}';
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

const scriptSrc = (response: LightMyRequestResponse) =>
  String(response.headers['content-security-policy'] ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name === 'script-src')
    ?.slice(1);

describe('the inlined boot script', () => {
  let t: TestApp;
  let webDist: string;

  beforeAll(async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'kosh-inline-boot-web-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(
      path.join(webDist, 'index.html'),
      `<!doctype html><head><meta charset="UTF-8" />
      <script type="application/json" id="kosh-screen-chunks">${TABLE}</script>
      <script>${BOOT}</script>
      <script type="module" crossorigin src="/assets/app.js"></script></head>`,
    );
    await writeFile(path.join(webDist, 'assets', 'app.js'), 'export {};');
    t = await createTestApp({ mode: 'postgres', webDist });
  });

  afterAll(async () => {
    await t?.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('is allowed on the page by its hash alone: no other inline script, not the data block', async () => {
    for (const url of ['/', '/dashboard', '/loans/123/amortization', '/index.html']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain(BOOT);
      expect(scriptSrc(response), url).toEqual(["'self'", sha(BOOT)]);
    }
  });

  it('is not allowed anywhere else: the API, the scripts and 404s keep the plain policy', async () => {
    for (const url of ['/assets/app.js', '/api/transactions', '/api/no-such-route']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(scriptSrc(response), url).toEqual(["'self'"]);
    }
  });
});
