import { randomUUID } from 'node:crypto';
import type { EventMetadata, RecordedEvent } from '@kosh/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AppendResult,
  ConcurrencyError,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  START_POSITION,
} from '../../src/port';
import { decodePosition } from '../../src/position';

/** A raw connection of its own (PostgreSQL only), to interleave transactions by hand. */
export type Connection = {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
  /** Appends with the adapter's own SQL on this connection (inside whatever transaction is open). */
  append(
    streamId: string,
    events: readonly NewEvent[],
    expectedVersion: ExpectedVersion,
  ): Promise<AppendResult>;
  close(): Promise<void>;
};

export type ContractHarness = {
  /** Whether stores from `createStore` see the same data (one database). */
  storesShareData: boolean;
  createStore(): EventStore;
  /**
   * Appends inside an explicit transaction that runs `roundTrips` more queries before it ends,
   * then commits (returns the result) or rolls back (returns null). Absent for adapters without
   * transactions (memory).
   */
  appendInTransaction?(
    streamId: string,
    events: readonly NewEvent[],
    expectedVersion: ExpectedVersion,
    options: { roundTrips: number; rollback: boolean },
  ): Promise<AppendResult | null>;
  /** Independent connections (PostgreSQL only); absent where transactions are serialised. */
  openConnection?(): Promise<Connection>;
  close(): Promise<void>;
};

export type ContractOptions = {
  /** Concurrent writers and appends per writer in the soak. */
  soak: { writers: number; appendsPerWriter: number };
  /** Why the suite cannot run here (e.g. no server): reported as skipped with this reason. */
  skip?: string;
};

/**
 * Each event another user's: a user's appends are serialised by their hash chain (the chain's head
 * row is locked per user), which the ordering cases here, about concurrent writers, must not
 * stand on; chain.int.spec covers one user's appends.
 */
const meta = (overrides: Partial<EventMetadata> = {}): EventMetadata => ({
  userId: `user-${randomUUID()}`,
  correlationId: randomUUID(),
  causationId: null,
  recordedAt: '2026-01-15T10:00:00.000Z',
  schemaVersion: 1,
  ...overrides,
});

const event = (type: string, data: unknown, metadata: Partial<EventMetadata> = {}): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: meta(metadata),
});

/** Polls `check` until it returns true (waiting for state, bounded). */
async function waitUntil(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A checkpointing reader: reads pages after its checkpoint and keeps what it saw. */
function checkpointingReader(store: EventStore, pageSize: number) {
  let checkpoint: string = START_POSITION;
  const seen: RecordedEvent[] = [];
  return {
    seen,
    get checkpoint() {
      return checkpoint;
    },
    /** Reads until caught up; returns how many events it got. */
    async catchUp(): Promise<number> {
      let got = 0;
      for (;;) {
        const page = await store.readAll({ after: checkpoint, limit: pageSize });
        for (const e of page) {
          if (e.position <= checkpoint)
            throw new Error(`readAll went backwards: ${e.position} <= ${checkpoint}`);
          checkpoint = e.position;
          seen.push(e);
        }
        got += page.length;
        if (page.length < pageSize) return got;
      }
    },
  };
}

/** Deterministic pseudo-random numbers (mulberry32), so a failing soak can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The behaviour every EventStore adapter must have (issue 2 item 3, ARCHITECTURE.md "Event store rules").
 * Each test uses its own stream ids, so the tests of one file share a database.
 */
export function eventStoreContract(
  name: string,
  setup: () => Promise<ContractHarness>,
  options: ContractOptions,
): void {
  const title = options.skip
    ? `EventStore contract: ${name} (${options.skip})`
    : `EventStore contract: ${name}`;
  describe.skipIf(options.skip !== undefined)(title, () => {
    let harness: ContractHarness;
    let store: EventStore;
    let prefix: string;
    const stream = (n: string | number) => `${prefix}-${n}`;
    let testNo = 0;

    beforeAll(async () => {
      harness = await setup();
      store = harness.createStore();
    });
    afterAll(async () => {
      await store?.close();
      await harness?.close();
    });

    const fresh = () => {
      testNo += 1;
      prefix = `t${testNo}_${randomUUID().slice(0, 8)}`;
    };

    it('appends to a new stream and reads it back in version order', async () => {
      fresh();
      const events = [1, 2, 3, 4, 5].map((n) => event('Counted', { n }));
      const first = await store.appendToStream(stream('a'), events.slice(0, 2), {
        expectedVersion: 'no_stream',
      });
      const second = await store.appendToStream(stream('a'), events.slice(2), { expectedVersion: 2 });
      expect(first.nextVersion).toBe(2);
      expect(second.nextVersion).toBe(5);
      expect(second.position > first.position).toBe(true);

      const read = await store.readStream(stream('a'));
      expect(read.version).toBe(5);
      expect(read.events.map((e) => e.streamVersion)).toEqual([1, 2, 3, 4, 5]);
      expect(read.events.map((e) => e.data)).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
      expect(read.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
      expect(read.events.every((e) => e.streamId === stream('a') && e.type === 'Counted')).toBe(true);
      expect(read.events[4]!.position).toBe(second.position);
      expect(read.events[0]!.metadata).toEqual(events[0]!.metadata);

      const tail = await store.readStream(stream('a'), { from: 4 });
      expect(tail.version).toBe(5);
      expect(tail.events.map((e) => e.streamVersion)).toEqual([4, 5]);

      const missing = await store.readStream(stream('missing'));
      expect(missing).toEqual({ version: 0, events: [] });
    });

    it('keeps each event’s data and metadata as given: alone, several in one append, and grouped', async () => {
      // Characters an array literal or a JSON document must escape, text that reads as NULL,
      // non-ASCII, nesting and a null body; each body must land on its own event, in order.
      fresh();
      const awkward = [
        { notes: 'He said "hi", {then} left\\', amount: 12_345 },
        { notes: 'NULL', tags: ['a,b', '{c}', ''], nested: { deep: [1, [2, [3]]] } },
        { notes: '₹ 1,00,000.50 — किराया 🏠', zero: 0, negative: -1, flag: false },
        null,
        { notes: "it's \t tab \n newline \u00e9", empty: {} },
      ];
      const make = () =>
        awkward.map((data, i) => {
          const e = event('Noted', data);
          return { ...e, metadata: { ...e.metadata, note: `m${i} "quoted", {braced} \\ NULL` } };
        });
      const alone = make().slice(0, 1);
      const several = make();
      const grouped = [make(), make().slice(2), make().slice(0, 1)];
      await store.appendToStream(stream('alone'), alone, { expectedVersion: 'no_stream' });
      await store.appendToStream(stream('several'), several, { expectedVersion: 'no_stream' });
      await Promise.all(
        grouped.map((events, g) =>
          store.appendToStream(stream(`g${g}`), events, { expectedVersion: 'no_stream' }),
        ),
      );
      const cases: [string, NewEvent[]][] = [
        ['alone', alone],
        ['several', several],
        ...grouped.map((events, g): [string, NewEvent[]] => [`g${g}`, events]),
      ];
      for (const [name, events] of cases) {
        const read = await store.readStream(stream(name));
        expect(read.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
        expect(read.events.map((e) => e.data)).toEqual(events.map((e) => e.data));
        expect(read.events.map((e) => e.metadata)).toEqual(events.map((e) => e.metadata));
      }
    });

    it('checks the expected version: exact, no_stream and any', async () => {
      fresh();
      await store.appendToStream(stream('s'), [event('A', {})], { expectedVersion: 'no_stream' });

      const noStream = store.appendToStream(stream('s'), [event('A', {})], { expectedVersion: 'no_stream' });
      await expect(noStream).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(noStream).rejects.toMatchObject({
        streamId: stream('s'),
        expected: 'no_stream',
        actual: 1,
      });

      const stale = store.appendToStream(stream('s'), [event('A', {})], { expectedVersion: 0 });
      await expect(stale).rejects.toMatchObject({ name: 'ConcurrencyError', expected: 0, actual: 1 });
      const ahead = store.appendToStream(stream('s'), [event('A', {})], { expectedVersion: 3 });
      await expect(ahead).rejects.toMatchObject({ name: 'ConcurrencyError', expected: 3, actual: 1 });
      const exactOnNew = store.appendToStream(stream('new'), [event('A', {})], { expectedVersion: 1 });
      await expect(exactOnNew).rejects.toMatchObject({ name: 'ConcurrencyError', actual: 0 });

      expect(
        (await store.appendToStream(stream('s'), [event('A', {})], { expectedVersion: 1 })).nextVersion,
      ).toBe(2);
      expect(
        (await store.appendToStream(stream('s'), [event('A', {})], { expectedVersion: 'any' })).nextVersion,
      ).toBe(3);
      expect(
        (await store.appendToStream(stream('any-new'), [event('A', {})], { expectedVersion: 'any' }))
          .nextVersion,
      ).toBe(1);
      expect((await store.readStream(stream('s'))).version).toBe(3);
      expect((await store.readStream(stream('new'))).version).toBe(0);
    });

    it('lets exactly one of two writers with the same expected version win', async () => {
      fresh();
      await store.appendToStream(stream('race'), [event('Opened', {})], { expectedVersion: 'no_stream' });
      const a = event('Won', { by: 'a' });
      const b = event('Won', { by: 'b' });
      const results = await Promise.allSettled([
        store.appendToStream(stream('race'), [a], { expectedVersion: 1 }),
        store.appendToStream(stream('race'), [b], { expectedVersion: 1 }),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]!.reason).toBeInstanceOf(ConcurrencyError);
      expect(lost[0]!.reason).toMatchObject({ streamId: stream('race'), expected: 1, actual: 2 });
      const read = await store.readStream(stream('race'));
      expect(read.version).toBe(2);
      expect(read.events.filter((e) => e.type === 'Won')).toHaveLength(1);

      // The same with 'no_stream' (how e-mail reservations are made unique).
      const reservations = await Promise.allSettled(
        [1, 2, 3].map((n) =>
          store.appendToStream(stream('email'), [event('EmailReserved', { n })], {
            expectedVersion: 'no_stream',
          }),
        ),
      );
      expect(reservations.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of reservations.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
        expect(r.reason).toBeInstanceOf(ConcurrencyError);
      }
    });

    it('treats re-appending stored event ids as a no-op that returns the original result', async () => {
      fresh();
      const batch = [event('Paid', { amount: 100 }), event('Paid', { amount: 200 })];
      const original = await store.appendToStream(stream('p'), batch, { expectedVersion: 'no_stream' });
      await store.appendToStream(stream('p'), [event('Paid', { amount: 300 })], { expectedVersion: 2 });

      // A retry of the first command: same ids, its (now stale) expected version.
      const retried = await store.appendToStream(stream('p'), batch, { expectedVersion: 'no_stream' });
      expect(retried).toEqual(original);
      expect(await store.appendToStream(stream('p'), batch, { expectedVersion: 'any' })).toEqual(original);
      expect(await store.appendToStream(stream('p'), [batch[1]!], { expectedVersion: 7 })).toEqual(original);

      const read = await store.readStream(stream('p'));
      expect(read.version).toBe(3);
      expect(read.events.map((e) => e.data)).toEqual([{ amount: 100 }, { amount: 200 }, { amount: 300 }]);
      const reader = checkpointingReader(store, 1000);
      await waitUntil(async () => {
        await reader.catchUp();
        return reader.seen.filter((e) => e.streamId === stream('p')).length >= 3;
      }, 'the appends to be readable');
      expect(reader.seen.filter((e) => e.streamId === stream('p')).map((e) => e.data)).toEqual([
        { amount: 100 },
        { amount: 200 },
        { amount: 300 },
      ]);

      // Concurrent retries of the same append still store it once.
      const once = event('Paid', { amount: 400 });
      const results = await Promise.all(
        [1, 2, 3, 4].map(() => store.appendToStream(stream('p'), [once], { expectedVersion: 'any' })),
      );
      expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
      expect((await store.readStream(stream('p'))).version).toBe(4);
    });

    it('gives each of many concurrent appends to different streams its own outcome', async () => {
      // On PostgreSQL these go in one grouped statement (group commit): one append's conflict
      // or retry must neither fail nor change the others.
      fresh();
      const stored = event('Paid', { n: 0 });
      const original = await store.appendToStream(stream('stored'), [stored], {
        expectedVersion: 'no_stream',
      });
      await store.appendToStream(stream('behind'), [event('Paid', { n: 1 })], {
        expectedVersion: 'no_stream',
      });
      const grewOld = event('Paid', { n: 2 });
      await store.appendToStream(stream('grew'), [grewOld], { expectedVersion: 'no_stream' });
      const grewNew = event('Paid', { n: 3 });

      const [created, conflicted, retried, grew, any] = await Promise.allSettled([
        store.appendToStream(stream('new'), [event('A', {}), event('B', {})], {
          expectedVersion: 'no_stream',
        }),
        store.appendToStream(stream('behind'), [event('Late', {})], { expectedVersion: 0 }),
        store.appendToStream(stream('stored'), [stored], { expectedVersion: 5 }),
        store.appendToStream(stream('grew'), [grewOld, grewNew], { expectedVersion: 1 }),
        store.appendToStream(stream('any'), [event('C', {})], { expectedVersion: 'any' }),
      ]);
      expect(created).toMatchObject({ status: 'fulfilled', value: { nextVersion: 2 } });
      expect(conflicted.status).toBe('rejected');
      expect((conflicted as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
      expect((conflicted as PromiseRejectedResult).reason).toMatchObject({ expected: 0, actual: 1 });
      expect(retried).toEqual({ status: 'fulfilled', value: original });
      expect(grew).toMatchObject({ status: 'fulfilled', value: { nextVersion: 2 } });
      expect(any).toMatchObject({ status: 'fulfilled', value: { nextVersion: 1 } });

      expect((await store.readStream(stream('new'))).events.map((e) => [e.streamVersion, e.type])).toEqual([
        [1, 'A'],
        [2, 'B'],
      ]);
      expect((await store.readStream(stream('behind'))).events.map((e) => e.type)).toEqual(['Paid']);
      expect((await store.readStream(stream('stored'))).version).toBe(1);
      expect((await store.readStream(stream('grew'))).events.map((e) => e.id)).toEqual([
        grewOld.id,
        grewNew.id,
      ]);
      const createdValue = (created as PromiseFulfilledResult<{ position: string }>).value;
      const lastOfNew = (await store.readStream(stream('new'))).events.at(-1)!;
      expect(createdValue.position).toBe(lastOfNew.position);
    });

    it('pages readAll in global order across many streams', async () => {
      fresh();
      const appended: { id: string; position: string }[] = [];
      for (let i = 0; i < 60; i++) {
        const s = stream(i % 13);
        const batch = i % 5 === 0 ? [event('E', { i, k: 0 }), event('E', { i, k: 1 })] : [event('E', { i })];
        const r = await store.appendToStream(s, batch, { expectedVersion: 'any' });
        for (const e of batch) appended.push({ id: e.id, position: r.position });
      }
      const reader = checkpointingReader(store, 7);
      await waitUntil(async () => {
        await reader.catchUp();
        return reader.seen.some((e) => e.id === appended.at(-1)!.id);
      }, 'the last append to be readable');
      const ours = reader.seen.filter((e) => e.streamId.startsWith(`${prefix}-`));
      expect(ours.map((e) => e.id)).toEqual(appended.map((e) => e.id));
      const positions = reader.seen.map((e) => e.position);
      expect([...positions].sort()).toEqual(positions);
      expect(new Set(positions).size).toBe(positions.length);
      // Each append's result is the position of its last event.
      const byId = new Map(ours.map((e) => [e.id, e]));
      for (let i = 0; i < appended.length; i++) {
        const next = appended[i + 1];
        if (!next || next.position !== appended[i]!.position) {
          expect(byId.get(appended[i]!.id)!.position).toBe(appended[i]!.position);
        }
      }
      // Stream versions within each stream count up from 1.
      for (let s = 0; s < 13; s++) {
        const versions = ours.filter((e) => e.streamId === stream(s)).map((e) => e.streamVersion);
        expect(versions).toEqual(versions.map((_, i) => i + 1));
      }
      // Reading after the last token returns nothing of ours, and a small limit is honoured.
      expect(
        (await store.readAll({ after: appended.at(-1)!.position, limit: 100 })).filter((e) =>
          e.streamId.startsWith(`${prefix}-`),
        ),
      ).toEqual([]);
      expect(await store.readAll({ after: START_POSITION, limit: 3 })).toHaveLength(3);
    });

    it('wakes subscribers when events commit', async () => {
      fresh();
      const calls: (string | undefined)[] = [];
      const unsubscribe = store.subscribe((position) => calls.push(position));
      try {
        await waitUntil(() => calls.length > 0, 'the subscription to be live');
        const { position } = await store.appendToStream(stream('w'), [event('Woken', {})], {
          expectedVersion: 'no_stream',
        });
        await waitUntil(
          () => calls.some((p) => p !== undefined && p >= position),
          'a wake-up for the append',
        );
      } finally {
        unsubscribe();
      }
      // Another store on the same database (another process) is woken too, through NOTIFY.
      if (harness.storesShareData) {
        const elsewhere = harness.createStore();
        const woken: (string | undefined)[] = [];
        const stop = elsewhere.subscribe((position) => woken.push(position));
        try {
          await waitUntil(() => woken.length > 0, 'the other subscription to be live');
          const { position } = await store.appendToStream(stream('w2'), [event('Woken', {})], {
            expectedVersion: 'no_stream',
          });
          await waitUntil(
            () => woken.some((p) => p !== undefined && p >= position),
            'a NOTIFY for the append',
          );
        } finally {
          stop();
          await elsewhere.close();
        }
      }
      const before = calls.length;
      await store.appendToStream(stream('w'), [event('Woken', {})], { expectedVersion: 1 });
      const other = store.subscribe(() => {});
      other();
      expect(calls.length).toBe(before);
    });

    it('never skips a transaction that took the lower id but commits after a later one was read', async () => {
      fresh();
      const reader = checkpointingReader(store, 100);
      const mine = (ids: string[]) => reader.seen.filter((e) => ids.includes(e.id)).map((e) => e.id);
      const a = event('A', {});
      const b = event('B', {});

      if (!harness.openConnection) {
        // One connection: transactions are serialised, so A commits entirely before B starts.
        const ra = await store.appendToStream(stream('a'), [a], { expectedVersion: 'no_stream' });
        await reader.catchUp();
        expect(mine([a.id, b.id])).toEqual([a.id]);
        const rb = await store.appendToStream(stream('b'), [b], { expectedVersion: 'no_stream' });
        expect(rb.position > ra.position).toBe(true);
        await reader.catchUp();
        expect(mine([a.id, b.id])).toEqual([a.id, b.id]);
        return;
      }

      const connA = await harness.openConnection();
      const connB = await harness.openConnection();
      try {
        await connA.query('BEGIN');
        const xidA = (await connA.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0]!
          .xid;
        await connB.query('BEGIN');
        const rb = await connB.append(stream('b'), [b], 'no_stream');
        const ra = await connA.append(stream('a'), [a], 'no_stream');
        const pa = decodePosition(ra.position);
        const pb = decodePosition(rb.position);
        // The hazard: A has the lower transaction id, B the lower global position.
        expect(pa.transactionId).toBe(BigInt(xidA));
        expect(pa.transactionId < pb.transactionId).toBe(true);
        expect(pb.globalPosition < pa.globalPosition).toBe(true);

        await connA.query('COMMIT');
        await waitUntil(async () => {
          await reader.catchUp();
          return mine([a.id]).length === 1;
        }, 'A to be readable');
        expect(mine([a.id, b.id])).toEqual([a.id]);
        // Paging by global_position alone would now have a checkpoint past B's position.

        await connB.query('COMMIT');
        await waitUntil(async () => {
          await reader.catchUp();
          return mine([b.id]).length > 0;
        }, 'B to be readable');
        await reader.catchUp();
        expect(mine([a.id, b.id])).toEqual([a.id, b.id]);
      } finally {
        await connA.query('ROLLBACK').catch(() => {});
        await connB.query('ROLLBACK').catch(() => {});
        await connA.close();
        await connB.close();
      }
    });

    it('soak: a checkpointing reader sees every committed event exactly once (many writers, some rolled back)', async () => {
      fresh();
      const { writers, appendsPerWriter } = options.soak;
      const streams = 24;
      const committed = new Set<string>();
      const rolledBack = new Set<string>();
      let conflicts = 0;
      let writing = true;

      const reader = checkpointingReader(store, 50);
      const readerLoop = (async () => {
        while (writing) {
          await reader.catchUp();
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();

      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          const rnd = random(1000 + w);
          for (let i = 0; i < appendsPerWriter; i++) {
            const s = stream(Math.floor(rnd() * streams));
            const batch = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => event('Soaked', { w, i }));
            const ids = batch.map((e) => e.id);
            const roll = rnd();
            try {
              if (harness.appendInTransaction && roll < 0.35) {
                const rollback = roll < 0.12;
                const r = await harness.appendInTransaction(s, batch, 'any', {
                  roundTrips: 1 + Math.floor(rnd() * 3),
                  rollback,
                });
                for (const id of ids) (r ? committed : rolledBack).add(id);
              } else if (roll < 0.6) {
                const { version } = await store.readStream(s);
                await store.appendToStream(s, batch, {
                  expectedVersion: version === 0 ? 'no_stream' : version,
                });
                for (const id of ids) committed.add(id);
              } else {
                await store.appendToStream(s, batch, { expectedVersion: 'any' });
                for (const id of ids) committed.add(id);
              }
            } catch (err) {
              if (!(err instanceof ConcurrencyError)) throw err;
              conflicts += 1;
            }
          }
        }),
      );
      writing = false;
      await readerLoop;

      const ours = () => reader.seen.filter((e) => e.streamId.startsWith(`${prefix}-`));
      await waitUntil(
        async () => {
          await reader.catchUp();
          return ours().length >= committed.size;
        },
        'the reader to catch up',
        60_000,
      );
      const seenIds = ours().map((e) => e.id);
      expect(seenIds.length).toBe(committed.size);
      expect(new Set(seenIds)).toEqual(committed);
      expect(seenIds.filter((id) => rolledBack.has(id))).toEqual([]);
      // Each stream's versions are gap-free, and the store agrees with the reader.
      for (let s = 0; s < streams; s++) {
        const { version, events } = await store.readStream(stream(s));
        expect(events.map((e) => e.streamVersion)).toEqual(events.map((_, i) => i + 1));
        expect(version).toBe(events.length);
        expect(ours().filter((e) => e.streamId === stream(s))).toHaveLength(version);
      }
      expect(committed.size).toBeGreaterThan(writers * appendsPerWriter * 0.4);
      if (harness.appendInTransaction) expect(rolledBack.size).toBeGreaterThan(0);
      // (conflicts are expected from the exact-version writers; they are not failures)
      expect(conflicts).toBeGreaterThanOrEqual(0);
    });
  });
}
