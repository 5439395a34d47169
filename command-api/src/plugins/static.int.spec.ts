import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * Issue 33, item 2: the web build writes x.br and x.gz beside each text file; the server sends the
 * one the browser accepts, so a phone downloads about a third of the JavaScript's bytes.
 */
describe('the built web app is sent compressed when the browser accepts it', () => {
  let t: TestApp;
  let webDist: string;
  const script = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `row ${i}`))};`;

  beforeAll(async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'kosh-static-web-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Kosh</title>');
    await writeFile(path.join(webDist, 'assets', 'app.js'), script);
    await writeFile(path.join(webDist, 'assets', 'app.js.br'), brotliCompressSync(script));
    await writeFile(path.join(webDist, 'assets', 'app.js.gz'), gzipSync(script));
    await writeFile(path.join(webDist, 'assets', 'small.js'), 'export {};');
    t = await createTestApp({ mode: 'postgres', webDist });
  });

  afterAll(async () => {
    await t?.close();
    await rm(webDist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('brotli where accepted, else gzip, else the file itself; the same script and type each time', async () => {
    const br = await get('/assets/app.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 3);

    const gz = await get('/assets/app.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/app.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('a file the build left uncompressed (under 1 KB) is sent as it is', async () => {
    const small = await get('/assets/small.js', 'br, gzip');
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('export {};');
  });

  it("a client route reloads as the app, but a build file that is not there is a 404, not the app's page", async () => {
    const route = await get('/loans/create');
    expect(route.statusCode).toBe(200);
    expect(route.headers['content-type']).toMatch(/text\/html/);
    expect(route.body).toContain('<title>Kosh</title>');

    const gone = await get('/assets/LoansPage-0ld0ld00.js', 'br, gzip');
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['content-type']).toMatch(/application\/json/);
    expect(gone.body).not.toContain('<title>Kosh</title>');
  });
});
