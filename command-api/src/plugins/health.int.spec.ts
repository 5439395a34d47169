import { createEventStoreDbEventStore } from '@kosh/event-store/eventstoredb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * With EventStoreDB as the log, readiness must also say when that server is gone: the database
 * check alone would stay green while every command fails. No server runs here, so the shape is
 * assembled from a PostgreSQL platform whose log is the real client aimed at a closed port.
 */
describe('/readyz with EventStoreDB as the event log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 naming the event log when its server does not answer', async () => {
    const connection = 'kurrentdb://127.0.0.1:1?tls=false';
    const eventStore = createEventStoreDbEventStore({ connection });
    const platform = {
      ...t.platform,
      eventStore,
      config: { ...t.platform.config, EVENTSTORE_URL: connection },
    };
    const app = await buildApp(platform);
    try {
      const started = Date.now();
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', queue: 'ok', projections: 'ok', event_log: 'down' },
      });
      // An operator's probe gets its answer within the check's own bound.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await app.close();
      await eventStore.close();
    }
  });

  it('has no event-log check when the log is the database', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(Object.keys(ready.json().checks)).toEqual(['database', 'queue', 'projections']);
  });
});
