import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStoreMigrations, migrate } from './migrations';
import { createPostgresEventStore, EVENTS_CHANNEL } from './postgres-event-store';
import { newTestEvent } from './testing/events';
import { createTestDatabase, type TestDatabase } from './testing/test-database';

async function waitUntil(check: () => boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the store NOTIFY to other processes (PostgreSQL)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrate(database.db, [eventStoreMigrations]);
  });
  afterAll(() => database?.drop());

  it('sends at most one per interval to one writer appending one event after another, the first at once', async () => {
    const intervalMs = 200;
    const store = createPostgresEventStore(database.db, { notifyIntervalMs: intervalMs });
    const heard: { at: number; position: string }[] = [];
    const unlisten = await database.db.listen(EVENTS_CHANNEL, (payload) => {
      heard.push({ at: Date.now(), position: payload.split('|')[0]! });
    });
    try {
      const stream = `txn-${randomUUID()}`;
      const started = Date.now();
      const first = await store.appendToStream(stream, [newTestEvent('Noted', { n: 0 })], {
        expectedVersion: 'no_stream',
      });
      await waitUntil(() => heard.some((h) => h.position === first.position), 'the first NOTIFY');
      // The first after a quiet spell is not held back by the interval.
      expect(heard[0]!.at - started).toBeLessThan(intervalMs);

      let last = first;
      for (let i = 1; i < 40; i++) {
        last = await store.appendToStream(stream, [newTestEvent('Noted', { n: i })], { expectedVersion: i });
      }
      const spent = Date.now() - started;
      await waitUntil(() => heard.some((h) => h.position >= last.position), 'a NOTIFY of the last append');
      // 40 appends, one after another: one NOTIFY per interval (and the first), not one per append.
      expect(heard.length).toBeLessThanOrEqual(Math.ceil(spent / intervalMs) + 2);
      expect(heard.length).toBeLessThan(40);
      for (let i = 1; i < heard.length; i++) {
        expect(heard[i]!.at - heard[i - 1]!.at).toBeGreaterThanOrEqual(intervalMs - 20);
      }
    } finally {
      await unlisten();
      await store.close();
    }
  });
});
