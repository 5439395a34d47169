import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * Production logs are JSON lines; the correlation id of a request (a proxy's X-Request-Id, or
 * one generated) is in its one request line, in the metadata of the events it appended, and in
 * the logs of the mail those events caused.
 */
let t: TestApp;
const logs: Record<string, unknown>[] = [];

describe('request logs and correlation ids', () => {
  beforeAll(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });
    t = await createTestApp({ logger });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('logs one line per API request with its correlation id, which the events carry', async () => {
    const correlationId = `corr-${randomUUID()}`;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/transactions',
      headers: { ...(await t.signedInHeader(randomUUID())), 'x-request-id': correlationId },
      payload: { notes: 'Milk', transaction_type: 'D', transaction_date: '2026-01-04', amount: 60 },
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['x-request-id']).toBe(correlationId);

    const lines = logs.filter((l) => l.correlationId === correlationId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, method: 'POST', url: '/api/transactions', statusCode: 201 });
    expect(String(lines[0]?.msg)).toMatch(/^POST \/api\/transactions 201 \d+ ms$/);

    const { rows } = await t.platform.db.query<{ correlation_id: string }>(
      `SELECT metadata->>'correlationId' AS correlation_id FROM events WHERE stream_id = $1`,
      [`txn-${response.json().data.transaction.id}`],
    );
    expect(rows).toEqual([{ correlation_id: correlationId }]);
  });

  it('gives a request without X-Request-Id one of its own; probes and web files stay below info', async () => {
    const before = logs.length;
    const probe = await t.app.inject({ method: 'GET', url: '/livez' });
    expect(probe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(logs.slice(before)).toEqual([]);
  });

  it('uses a client X-Request-Id only when short and plain; else one of its own, in the events too', async () => {
    const headers = await t.signedInHeader(randomUUID());
    const body = { notes: 'Tea', transaction_type: 'D', transaction_date: '2026-01-05', amount: 20 };
    for (const sent of [
      `<script>${'x'.repeat(8192)}</script>`,
      'a'.repeat(65),
      'id with spaces',
      'id"quoted',
      'ünïcode',
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/transactions',
        headers: { ...headers, 'x-request-id': sent },
        payload: body,
      });
      expect(response.statusCode).toBe(201);
      const used = String(response.headers['x-request-id']);
      expect(used).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const { rows } = await t.platform.db.query<{ correlation_id: string }>(
        `SELECT metadata->>'correlationId' AS correlation_id FROM events WHERE stream_id = $1`,
        [`txn-${response.json().data.transaction.id}`],
      );
      expect(rows).toEqual([{ correlation_id: used }]);
    }
    const plain = `Proxy.id-${'9'.repeat(55)}`;
    expect(plain).toHaveLength(64);
    const kept = await t.app.inject({ method: 'GET', url: '/livez', headers: { 'x-request-id': plain } });
    expect(kept.headers['x-request-id']).toBe(plain);
  });

  it('carries the correlation id into the log of the mail the request caused', async () => {
    const correlationId = `corr-${randomUUID()}`;
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'x-request-id': correlationId },
      payload: {
        first_name: 'Asha',
        last_name: 'Rao',
        email: `asha-${randomUUID()}@example.in`,
        password: 'Correct-horse-9',
      },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    await expect
      .poll(() => logs.find((l) => l.msg === 'mail sent' && l.correlationId === correlationId), {
        timeout: 20_000,
      })
      .toMatchObject({ kind: 'verify-email' });
  });
});

describe('request logs in embedded mode', () => {
  it('logs requests at debug, so the start banner does not scroll away', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const embedded = await createTestApp({ mode: 'embedded', logger });
    try {
      const response = await embedded.app.inject({
        method: 'GET',
        url: '/api/loans',
        headers: await embedded.signedInHeader(randomUUID()),
      });
      expect(response.statusCode).toBe(200);
      const requestLines = lines.filter((l) => l.url === '/api/loans');
      expect(requestLines).toHaveLength(1);
      expect(requestLines[0]).toMatchObject({ level: 20, statusCode: 200 });
    } finally {
      await embedded.close();
    }
  });
});
