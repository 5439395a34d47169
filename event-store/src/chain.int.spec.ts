import { createHash, randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chainLinkText, eventOwner, GENESIS } from '@kosh/domain';
import fc from 'fast-check';
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

    it('keeps the chain whole when the INSERT meets a stored id: a retry that grew, an id of another stream (migration 012)', async () => {
      const carol = randomUUID();
      const stream = `txn-${randomUUID()}`;
      const [a, b, c] = [event(carol), event(carol), event(carol)];
      const first = await store.appendToStream(stream, [a], { expectedVersion: 'no_stream' });
      // The version matches ('any'), so the INSERT runs and meets a's id: only b and c go in, on
      // the links after a's, also inside a caller's transaction (whose earlier work stays).
      const grown = await db.transaction(async (tx) => {
        await tx.query('CREATE TEMP TABLE kosh_tx_probe (x int) ON COMMIT DROP');
        const r = await appendOn(tx, stream, [a, b, c], 'any');
        await tx.query('INSERT INTO kosh_tx_probe VALUES (1)');
        return r;
      });
      expect(grown.nextVersion).toBe(3);
      // Every id stored: the original result of the latest of them, nothing written.
      expect(await store.appendToStream(stream, [a, b, c], { expectedVersion: 'any' })).toEqual(grown);
      expect(await store.appendToStream(stream, [a], { expectedVersion: 1 })).toEqual(first);
      // A stored id sent to another stream: that append answers the id's original result.
      const elsewhere = `txn-${randomUUID()}`;
      expect(await store.appendToStream(elsewhere, [b], { expectedVersion: 'no_stream' })).toEqual({
        nextVersion: 2,
        position: expect.any(String),
      });
      expect((await store.readStream(elsewhere)).version).toBe(0);
      expect((await store.readStream(stream)).events.map((e) => e.id)).toEqual([a.id, b.id, c.id]);
      const links = await chain(carol);
      expect(links.map((l) => l.seq)).toEqual([1, 2, 3]);
      expect(await verify(carol)).toBeNull();
      // The chain goes on from there.
      await store.appendToStream(stream, [event(carol), event(carol)], { expectedVersion: 3 });
      expect((await chain(carol)).map((l) => l.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(await verify(carol)).toBeNull();
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

      // Written past the append functions: an event row with no chain link.
      const extra = event(slipped);
      await db.query(
        `INSERT INTO events (event_id, stream_id, stream_version, type, data, metadata)
         VALUES ($1, $2, 1, $3, $4::jsonb, $5::jsonb)`,
        [
          extra.id,
          `txn-${randomUUID()}`,
          extra.type,
          JSON.stringify(extra.data),
          JSON.stringify(extra.metadata),
        ],
      );
      expect(await verify(slipped)).toBe(5);
    });

    it('chains every stream an event of a user is on (migration 009), not e-mail reservations, erased-accounts or the seeded catalog', async () => {
      const carol = randomUUID();
      // Streams 003-008 did not list (accounts, transfers, imports) and ones added later.
      const streams = [
        `account-${randomUUID()}`,
        `transfer-${randomUUID()}`,
        `import-${randomUUID()}`,
        `categories-${carol}`,
        `budget-${randomUUID()}`,
      ];
      for (const stream of streams) {
        await store.appendToStream(stream, [event(carol)], { expectedVersion: 'no_stream' });
      }
      await store.appendToStream(`email-${randomUUID()}`, [event(carol, { userId: carol })], {
        expectedVersion: 'no_stream',
      });
      await store.appendToStream('erased-accounts', [event(carol, { userId: carol })], {
        expectedVersion: 'any',
      });
      await store.appendToStream(`bank-${Date.now()}`, [event(null)], { expectedVersion: 'no_stream' });
      const { rows } = await db.query<{ stream_id: string }>(
        `SELECT e.stream_id FROM event_chain c JOIN events e ON e.global_position = c.global_position
          WHERE c.user_id = $1 ORDER BY c.seq`,
        [carol],
      );
      expect(rows.map((r) => r.stream_id)).toEqual(streams);
      expect(await verify(carol)).toBeNull();
    });

    it('owns events as the domain rule eventOwner does (History uses it), on any stream and data', async () => {
      const id = fc.oneof(fc.uuid(), fc.constantFrom('', 'x'));
      const value = fc.oneof(fc.constant(undefined), fc.constant(null), id, fc.integer(), fc.boolean());
      const stream = fc.oneof(
        fc
          .tuple(
            fc.constantFrom(
              'user',
              'loan',
              'txn',
              'bank',
              'loantype',
              'audit',
              'account',
              'transfer',
              'import',
              'erasure',
              'email',
              'categories',
              'rule',
              'budget',
              'recurring',
              'erased',
              'anything',
            ),
            id,
          )
          .map(([prefix, rest]) => `${prefix}-${rest}`),
        fc.constantFrom('erased-accounts', 'bank-1', 'loantype-2', 'email-', 'emails-x', 'user'),
      );
      const defined = (entries: [string, unknown][]) =>
        Object.fromEntries(entries.filter(([, v]) => v !== undefined));
      await fc.assert(
        fc.asyncProperty(stream, value, value, value, async (streamId, metaUser, dataUser, ownerUser) => {
          const metadata = defined([
            ['userId', metaUser],
            ['correlationId', 'c'],
          ]);
          const data = defined([
            ['userId', dataUser],
            ['ownerUserId', ownerUser],
          ]);
          const { rows } = await db.query<{ owner: string | null }>(
            'SELECT kosh_event_owner($1, $2::jsonb, $3::jsonb) AS owner',
            [streamId, JSON.stringify(data), JSON.stringify(metadata)],
          );
          expect(rows[0]?.owner ?? null).toBe(eventOwner(streamId, data, metadata));
        }),
        { numRuns: 150 },
      );
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

/**
 * Migration 009 on a database deployed before it: accounts, transfers and imports appended under
 * the rule of 003-008 were not chained; after 009 their owners' chains hold them, re-linked from
 * genesis in log order, verify, record the rewrite, and go on from there; other chains are untouched.
 */
function upgradeContract(name: string, open: () => Promise<{ db: Db; close(): Promise<void> }>) {
  describe(`migration 009 on a log chained by 008: ${name}`, () => {
    let db: Db;
    let close: () => Promise<void>;
    let store: EventStore;
    let upTo008: string;
    beforeAll(async () => {
      ({ db, close } = await open());
      upTo008 = await mkdtemp(join(tmpdir(), 'kosh-migrations-008-'));
      const dir = fileURLToPath(new URL('./migrations', import.meta.url));
      for (const file of await readdir(dir)) {
        if (file.endsWith('.sql') && file < '009') await copyFile(join(dir, file), join(upTo008, file));
      }
      await migrate(db, [{ scope: 'event-store', dir: upTo008 }]);
      store = createPostgresEventStore(db);
    });
    afterAll(async () => {
      await store?.close();
      await close?.();
      if (upTo008) await rm(upTo008, { recursive: true, force: true });
    });

    const event = (userId: string | null, type: string, data: Record<string, unknown> = {}): NewEvent => ({
      id: randomUUID(),
      type,
      data,
      metadata: {
        userId,
        correlationId: randomUUID(),
        causationId: null,
        recordedAt: new Date().toISOString(),
        schemaVersion: 1,
      },
    });
    const links = async (userId: string) =>
      (
        await db.query<{ seq: number; stream_id: string }>(
          `SELECT c.seq, e.stream_id FROM event_chain c JOIN events e ON e.global_position = c.global_position
            WHERE c.user_id = $1 ORDER BY c.seq`,
          [userId],
        )
      ).rows;
    const head = async (userId: string) =>
      (
        await db.query<{ seq: number; hash: string }>(
          'SELECT seq, hash FROM event_chain_heads WHERE user_id = $1',
          [userId],
        )
      ).rows[0];
    const verify = async (userId: string) =>
      (await db.query<{ broken: number | null }>('SELECT kosh_chain_verify($1) AS broken', [userId])).rows[0]
        ?.broken;

    it('chains the accounts, transfers and imports appended before it, and the chains verify', async () => {
      const alice = randomUUID();
      const bob = randomUUID();
      const account = `account-${randomUUID()}`;
      const txn = `txn-${randomUUID()}`;
      await store.appendToStream(`user-${alice}`, [event(null, 'UserRegistered', { userId: alice })], {
        expectedVersion: 'no_stream',
      });
      await store.appendToStream(account, [event(alice, 'AccountOpened', { name: 'Savings' })], {
        expectedVersion: 'no_stream',
      });
      await store.appendToStream(txn, [event(alice, 'TransactionRecorded', { amount: 100 })], {
        expectedVersion: 'no_stream',
      });
      await store.appendToStream(
        `transfer-${randomUUID()}`,
        [event(alice, 'TransferRecorded', { amount: 5 })],
        {
          expectedVersion: 'no_stream',
        },
      );
      await store.appendToStream(
        `import-${randomUUID()}`,
        [event(alice, 'ImportCommitted', { rows: [{ amount: 1, transactionType: 'C' }] })],
        { expectedVersion: 'no_stream' },
      );
      await store.appendToStream(account, [event(alice, 'AccountUpdated', { name: 'Salary' })], {
        expectedVersion: 1,
      });
      await store.appendToStream(`txn-${randomUUID()}`, [event(bob, 'TransactionRecorded', { amount: 7 })], {
        expectedVersion: 'no_stream',
      });
      // Under 008: only her user and transaction events are chained, and her chain "verifies".
      expect((await links(alice)).map((l) => l.stream_id)).toEqual([`user-${alice}`, txn]);
      expect(await verify(alice)).toBeNull();
      const aliceBefore = await head(alice);
      const bobBefore = await head(bob);

      const applied = await migrate(db, [eventStoreMigrations]);
      expect(applied.map((m) => m.name)).toEqual([
        '009_chain_owner_every_stream.sql',
        '010_chain_link_in_event_row.sql',
        '011_read_horizon_own_database.sql',
        '012_append_ids_checked_by_insert.sql',
      ]);

      const after = await links(alice);
      expect(after.map((l) => l.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(after.map((l) => l.stream_id.split('-')[0])).toEqual([
        'user',
        'account',
        'txn',
        'transfer',
        'import',
        'account',
      ]);
      expect(await verify(alice)).toBeNull();
      expect(await verify(bob)).toBeNull();
      expect(await head(bob)).toEqual(bobBefore);
      // As verify-export recomputes them: each link from the event as read, in export order.
      const { rows: chained } = await db.query<{
        hash: string;
        event_id: string;
        stream_id: string;
        stream_version: number;
        type: string;
        data: unknown;
        metadata: unknown;
      }>(
        `SELECT c.hash, e.event_id, e.stream_id, e.stream_version, e.type, e.data, e.metadata
           FROM event_chain c JOIN events e ON e.global_position = c.global_position
          WHERE c.user_id = $1 ORDER BY e.transaction_id, e.global_position`,
        [alice],
      );
      let previous = GENESIS;
      for (const link of chained) {
        expect(createHash('sha256').update(chainLinkText(previous, link), 'utf8').digest('hex')).toBe(
          link.hash,
        );
        previous = link.hash;
      }
      const { rows: rewrites } = await db.query<{
        user_id: string;
        previous_seq: number;
        previous_head: string;
        seq: number;
        head: string;
        reason: string;
      }>(
        'SELECT user_id, previous_seq, previous_head, seq, head, reason FROM event_chain_rewrites ORDER BY id',
      );
      expect(rewrites).toEqual([
        {
          user_id: alice,
          previous_seq: aliceBefore?.seq,
          previous_head: aliceBefore?.hash,
          seq: 6,
          head: (await head(alice))?.hash,
          reason: expect.stringMatching(/^migration 009/),
        },
      ]);

      // Appends go on from the re-linked head.
      await store.appendToStream(account, [event(alice, 'AccountClosed')], { expectedVersion: 2 });
      expect((await links(alice)).map((l) => l.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(await verify(alice)).toBeNull();
    });
  });
}

upgradeContract('PGlite', async () => {
  const db = await createPgliteDb(undefined);
  return { db, close: () => db.close() };
});

upgradeContract('PostgreSQL', async () => {
  const database = await createTestDatabase({ max: 4 });
  return { db: database.db, close: () => database.drop() };
});
