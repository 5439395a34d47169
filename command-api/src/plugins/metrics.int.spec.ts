import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const TOKEN = 'scraper-token-0123456789';

describe('GET /metrics', () => {
  it('serves request durations, projection lag and state, queue depth, append and read-your-writes timings', async () => {
    t = await createTestApp();
    const alice = randomUUID();
    const recorded = await t.app.inject({
      method: 'POST',
      url: '/api/transactions',
      headers: await t.signedInHeader(alice),
      payload: { notes: 'Rent', transaction_type: 'D', transaction_date: '2026-01-03', amount: 18000 },
    });
    expect(recorded.statusCode).toBe(201);
    // The command answers once its events are stored; Alice's next read waits for her write.
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/transactions',
      headers: await t.signedInHeader(alice),
    });
    expect(read.json().data.transactions.map((row: { notes: string }) => row.notes)).toContain('Rent');

    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    const text = response.body;
    expect(text).toMatch(
      /kosh_http_request_duration_seconds_count\{method="POST",route="\/api\/transactions",status_code="201"\} 1/,
    );
    expect(text).toMatch(/kosh_projection_lag_events\{projection="transactions"\} 0/);
    expect(text).toMatch(/kosh_projection_stopped\{projection="ledger"\} 0/);
    expect(text).toMatch(/kosh_queue_depth -?\d+/);
    expect(text).toMatch(/kosh_event_store_append_seconds_count [1-9]/);
    expect(text).toMatch(/kosh_read_your_writes_wait_seconds_count\{outcome="reached"\} [1-9]/);
  });

  it('in production answers only a scraper with METRICS_TOKEN', async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production', METRICS_TOKEN: TOKEN } });
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
    const scraped = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toContain('kosh_projection_lag_seconds');
  });

  it('in production without METRICS_TOKEN does not exist', async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production' } });
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('kosh_');
  });
});
