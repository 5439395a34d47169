import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db';
import { createPgliteDb } from './db-pglite';
import { eventStoreMigrations, migrate } from './migrations';
import type { EventStore, NewEvent } from './port';
import { appendOn, createPostgresEventStore } from './postgres-event-store';
import { createTestDatabase } from './testing/test-database';

/** The per-user hash chain (migration 003) on both drivers. */
function chainContract(name: string, open: () => Promise<{ db: Db; close(): Promise<void> }>) {
  describe(`per-user hash chain: ${name}`, () => {
    let db: Db;
    let close: () => Promise<void>;
    let store: EventStore;
    beforeAll(async () => {
      ({ db, close } = await open());
      await migrate(db, [eventStoreMigrations]);
      store = createPostgresEventStore(db);
    });
    afterAll(async () => {
      await store?.close();
      await close?.();
    });

    const event = (userId: string | null, data: Record<string, unknown> = {}): NewEvent => ({
      id: randomUUID(),
      type: 'TransactionRecorded',
      data: { ...data, amount: 100 },
      metadata: {
        userId,
        correlationId: randomUUID(),
        causationId: null,
        recordedAt: new Date().toISOString(),
        schemaVersion: 1,
      },
    });

    async function chain(userId: string) {
      const { rows } = await db.query<{ seq: number; hash: string; global_position: number }>(
        'SELECT seq, hash, global_position FROM event_chain WHERE user_id = $1 ORDER BY seq',
        [userId],
      );
      return rows;
    }
    const verify = async (userId: string) =>
      (await db.query<{ broken: number | null }>('SELECT kosh_chain_verify($1) AS broken', [userId])).rows[0]
        ?.broken;

    it('numbers each user’s events 1, 2, 3… in log order across lone, concurrent and in-transaction appends', async () => {
      const alice = randomUUID();
      const bob = randomUUID();
      await store.appendToStream(`txn-${randomUUID()}`, [event(alice), event(alice)], {
        expectedVersion: 'no_stream',
      });
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          store.appendToStream(`txn-${randomUUID()}`, [event(i % 2 ? alice : bob)], {
            expectedVersion: 'no_stream',
          }),
        ),
      );
      await db.transaction((tx) =>
        appendOn(tx, `txn-${randomUUID()}`, [event(bob), event(alice)], 'no_stream'),
      );
      // Registration is anonymous: the owner is the user the data names.
      await store.appendToStream(`user-${bob}`, [event(null, { userId: bob })], {
        expectedVersion: 'no_stream',
      });
      // Not user-owned: the seeded catalog, e-mail reservations.
      await store.appendToStream('bank-1', [event(null)], { expectedVersion: 'no_stream' });
      await store.appendToStream(`email-${randomUUID()}`, [event(null, { userId: alice })], {
        expectedVersion: 'no_stream',
      });

      const a = await chain(alice);
      const b = await chain(bob);
      expect(a.map((l) => l.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(b.map((l) => l.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      for (const links of [a, b]) {
        const positions = links.map((l) => l.global_position);
        expect([...positions].sort((x, y) => x - y)).toEqual(positions);
        expect(new Set(links.map((l) => l.hash)).size).toBe(links.length);
      }
      const heads = await db.query<{ seq: number; hash: string }>(
        'SELECT seq, hash FROM event_chain_heads WHERE user_id = $1',
        [alice],
      );
      expect(heads.rows[0]).toEqual({ seq: 9, hash: a[8]?.hash });
      expect(await verify(alice)).toBeNull();
      expect(await verify(bob)).toBeNull();
    });

    it('finds the first link an edit, a removal or an event slipped past the chain breaks', async () => {
      const edited = randomUUID();
      const removed = randomUUID();
      const slipped = randomUUID();
      for (const user of [edited, removed, slipped]) {
        for (let i = 0; i < 4; i++) {
          await store.appendToStream(`txn-${randomUUID()}`, [event(user)], { expectedVersion: 'no_stream' });
        }
      }
      const positionOf = async (user: string, seq: number) =>
        (await chain(user)).find((l) => l.seq === seq)?.global_position;

      await db.query(
        `UPDATE events SET data = jsonb_set(data, '{amount}', '999') WHERE global_position = $1`,
        [await positionOf(edited, 3)],
      );
      expect(await verify(edited)).toBe(3);

      await db.query('DELETE FROM events WHERE global_position = $1', [await positionOf(removed, 2)]);
      expect(await verify(removed)).toBe(2);

      await db.query('ALTER TABLE events DISABLE TRIGGER events_user_chain');
      try {
        await store.appendToStream(`txn-${randomUUID()}`, [event(slipped)], { expectedVersion: 'no_stream' });
      } finally {
        await db.query('ALTER TABLE events ENABLE TRIGGER events_user_chain');
      }
      expect(await verify(slipped)).toBe(5);
    });
  });
}

chainContract('PGlite', async () => {
  const db = await createPgliteDb(undefined);
  return { db, close: () => db.close() };
});

chainContract('PostgreSQL', async () => {
  const database = await createTestDatabase({ max: 12 });
  return { db: database.db, close: () => database.drop() };
});
