import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchEarly, takeEarly } from '../api/earlyFetch';
import { matchScreen } from './screens';

describe('matchScreen (what boot.ts starts loading)', () => {
  it('finds the screen a path shows, a literal segment before a parameter, as the router does', () => {
    expect(matchScreen('/loans/create')?.screen.path).toBe('/loans/create');
    expect(matchScreen('/loans/5f0c/amortization')).toMatchObject({
      screen: { path: '/loans/:id/amortization' },
      params: { id: '5f0c' },
    });
    expect(matchScreen('/ledger/')?.screen.path).toBe('/ledger');
    for (const path of ['/login', '/loans//amortization', '/loans/a/b/c', '/', '/loans/%E0%A4%A/edit'])
      expect(matchScreen(path)).toBeNull();
  });

  it("names the reads the money screens' endpoints ask for first", () => {
    const now = new Date(2026, 10, 24);
    const schedule = matchScreen('/loans/5f0c/amortization');
    expect(schedule?.screen.firstData?.(schedule.params, now)).toEqual([
      '/api/loans/5f0c',
      '/api/loans/5f0c/amortization',
    ]);
    const ledger = matchScreen('/ledger');
    expect(ledger?.screen.firstData?.(ledger.params, now)).toEqual([
      '/api/ledger?month=11&year=2026',
      '/api/ledger/periods',
    ]);
    const dashboard = matchScreen('/dashboard');
    expect(dashboard?.screen.firstData?.(dashboard.params, now)).toEqual([
      '/api/loans/stats',
      '/api/loans?page=1&limit=50&sortBy=created_at&sortOrder=DESC',
    ]);
  });
});

describe('early answers (earlyFetch.ts)', () => {
  let server: Server;
  let origin = '';
  const previousWindow = (globalThis as { window?: unknown }).window;

  beforeAll(async () => {
    server = createServer((request, response) => {
      response.setHeader('Content-Type', 'application/json');
      response.end(
        JSON.stringify({ url: request.url, authorization: request.headers.authorization ?? null }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    (globalThis as { window?: unknown }).window = { location: { origin } };
  });
  afterAll(async () => {
    (globalThis as { window?: unknown }).window = previousWindow;
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (path: string, headers: Record<string, string>, method = 'GET') =>
    new Request(`${origin}${path}`, { method, headers });

  it('are taken once, by a GET of the same URL with the same token, and carry that token', async () => {
    fetchEarly(['/api/ledger/periods'], 'token-a');
    const taken = takeEarly(get('/api/ledger/periods', { Authorization: 'Bearer token-a' }));
    expect(taken).toBeDefined();
    expect(await (await (taken as Promise<Response>)).json()).toEqual({
      url: '/api/ledger/periods',
      authorization: 'Bearer token-a',
    });
    expect(takeEarly(get('/api/ledger/periods', { Authorization: 'Bearer token-a' }))).toBeUndefined();
  });

  it('are not given to another token, to an audited account, to another method or when old', () => {
    const refusals: [string, Request, number?][] = [
      ['/api/a', get('/api/a', { Authorization: 'Bearer token-b' })],
      ['/api/b', get('/api/b', { Authorization: 'Bearer token-a', 'X-Kosh-Account': 'someone' })],
      ['/api/c', get('/api/c', { Authorization: 'Bearer token-a' }, 'DELETE')],
      ['/api/d', get('/api/d', { Authorization: 'Bearer token-a' }), Date.now() + 60_000],
      ['/api/e', get('/api/e?page=2', { Authorization: 'Bearer token-a' })],
    ];
    for (const [path, request, at] of refusals) {
      fetchEarly([path], 'token-a');
      expect(takeEarly(request, at), `${request.method} ${request.url}`).toBeUndefined();
    }
  });
});
