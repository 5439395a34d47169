import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { createPgDb, type Db, type EventStore } from '@kosh/event-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { UNAVAILABLE_MESSAGE } from './errors';

/** A local port that nothing listens on: connecting to it is refused, as a stopped server is. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * While the database cannot be reached, a read or a command refused before anything was stored is
 * the service unavailable for a moment (503, the envelope, Retry-After), never "Server error"
 * (500): the faults suite sees the same through a cut TCP proxy under load.
 */
describe('a request while the database is unreachable', () => {
  let t: TestApp;
  let realDb: Db;
  let realStore: EventStore;
  let downDb: Db;
  const alice = randomUUID();

  beforeAll(async () => {
    t = await createTestApp({ env: { ANSWER_CACHE_MB: '0' } });
    realDb = t.platform.db;
    realStore = t.platform.eventStore;
    expect((await t.as(alice).get('/api/transactions')).status).toBe(200);
    downDb = createPgDb(`postgres://postgres@127.0.0.1:${await closedPort()}/kosh`, { max: 2 });
  });
  afterAll(async () => {
    if (t) {
      (t.platform as { db: Db }).db = realDb;
      (t.platform as { eventStore: EventStore }).eventStore = realStore;
    }
    await downDb?.close();
    await t?.close();
  });

  const down = () => {
    (t.platform as { db: Db }).db = downDb;
    (t.platform as { eventStore: EventStore }).eventStore = {
      ...realStore,
      async readStream() {
        return downDb.query('select 1').then(() => []);
      },
      async appendToStream() {
        await downDb.query('select 1');
        throw new Error('unreachable');
      },
    } as EventStore;
  };
  const up = () => {
    (t.platform as { db: Db }).db = realDb;
    (t.platform as { eventStore: EventStore }).eventStore = realStore;
  };

  it('answers a read 503 with the envelope and Retry-After', async () => {
    down();
    try {
      const read = await t.as(alice).get('/api/transactions');
      expect(read.status).toBe(503);
      expect(read.headers['retry-after']).toBe('5');
      expect(read.body).toMatchObject({
        success: false,
        message: UNAVAILABLE_MESSAGE,
        errorCode: 'SERVICE_UNAVAILABLE',
      });
    } finally {
      up();
    }
  });

  it('answers a command 503 and records nothing', async () => {
    down();
    try {
      const saved = await t.as(alice).post('/api/transactions', {
        notes: 'Rent',
        transaction_type: 'D',
        transaction_date: '2026-01-05',
        amount: 25000,
      });
      expect(saved.status).toBe(503);
      expect(saved.body.errorCode).toBe('SERVICE_UNAVAILABLE');
    } finally {
      up();
    }
    const list = await t.as(alice).get('/api/transactions');
    expect(list.status).toBe(200);
    expect(list.body.data.pagination.total_items).toBe(0);
  });
});
