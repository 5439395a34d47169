import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db';
import { eventStoreMigrations, migrate } from './migrations';
import { AppendOutcomeUnknownError } from './port';
import { createPostgresEventStore } from './postgres-event-store';
import { newTestEvent } from './testing/events';
import { createTestDatabase, type TestDatabase } from './testing/test-database';

/**
 * An append whose connection breaks is answered with its true outcome. The statements run on
 * PostgreSQL; what is injected is the connection's failure, as pg raises it, at the moment a
 * TCP cut would cause it: after the statement ran and committed (its answer lost), or before
 * it was sent. The faults suite (platform/test/faults) cuts real connections under load.
 */
type Fault = 'answer lost' | 'not sent' | 'refused';

function faultyDb(db: Db) {
  const faults: Fault[] = [];
  const batchFaults: Fault[] = [];
  let refuseAll = false;
  let appendsSeen = 0;
  let batchesSeen = 0;
  const connectionError = (fault: Fault) =>
    fault === 'refused'
      ? Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
      : new Error('Connection terminated unexpectedly');
  const faulty: Db = {
    ...db,
    async query(sql, params) {
      if (!/kosh_append_(one|batch)\(/.test(sql)) return db.query(sql, params);
      appendsSeen++;
      const batch = sql.includes('kosh_append_batch(');
      if (batch) batchesSeen++;
      if (refuseAll) throw connectionError('refused');
      const fault = batch ? batchFaults.shift() : faults.shift();
      if (fault === 'refused' || fault === 'not sent') throw connectionError(fault);
      const result = await db.query(sql, params);
      if (fault === 'answer lost') throw connectionError(fault);
      return result as never;
    },
  };
  return {
    db: faulty,
    /** The next lone append statements fail so, in order. */
    fail: (...next: Fault[]) => faults.push(...next),
    /** The next grouped append statements fail so, in order. */
    failBatch: (...next: Fault[]) => batchFaults.push(...next),
    batchesSeen: () => batchesSeen,
    refuseAll: (on: boolean) => {
      refuseAll = on;
    },
    appendsSeen: () => appendsSeen,
  };
}

const event = () => newTestEvent('TransactionRecorded', { amount: 100 });

describe('an append whose connection breaks (PostgreSQL)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ prefix: 'kosh_es_outcome' });
    await migrate(database.db, [eventStoreMigrations]);
  });
  afterAll(async () => {
    await database?.drop();
  });

  const storedIds = async (streamId: string) =>
    (
      await database.db.query<{ event_id: string }>(
        'SELECT event_id FROM events WHERE stream_id = $1 ORDER BY stream_version',
        [streamId],
      )
    ).rows.map((r) => r.event_id);

  it('stored, its answer lost: answered as stored, with the events stored once', async () => {
    const faulty = faultyDb(database.db);
    const store = createPostgresEventStore(faulty.db);
    const streamId = `txn-${randomUUID()}`;
    const events = [event(), event()];
    faulty.fail('answer lost');
    const result = await store.appendToStream(streamId, events, { expectedVersion: 'no_stream' });
    expect(result.nextVersion).toBe(2);
    expect(await storedIds(streamId)).toEqual(events.map((e) => e.id));
    const { events: read } = await store.readStream(streamId);
    expect(read.at(-1)?.position).toBe(result.position);
    await store.close();
  });

  it('broken before it ran: appended by the next try', async () => {
    const faulty = faultyDb(database.db);
    const store = createPostgresEventStore(faulty.db);
    const streamId = `txn-${randomUUID()}`;
    const events = [event()];
    faulty.fail('not sent', 'answer lost');
    const result = await store.appendToStream(streamId, events, { expectedVersion: 'no_stream' });
    expect(result.nextVersion).toBe(1);
    expect(await storedIds(streamId)).toEqual(events.map((e) => e.id));
    await store.close();
  });

  it('a connection refused before anything was sent fails at once, and nothing is stored', async () => {
    const faulty = faultyDb(database.db);
    const store = createPostgresEventStore(faulty.db);
    const streamId = `txn-${randomUUID()}`;
    faulty.fail('refused');
    await expect(store.appendToStream(streamId, [event()], { expectedVersion: 'no_stream' })).rejects.toThrow(
      /ECONNREFUSED/,
    );
    expect(faulty.appendsSeen()).toBe(1);
    expect(await storedIds(streamId)).toEqual([]);
    await store.close();
  });

  it('stored, and the database then gone past the bound: "may or may not be stored", never "failed"', async () => {
    const faulty = faultyDb(database.db);
    const store = createPostgresEventStore(faulty.db, { confirmWithinMs: 300 });
    const streamId = `txn-${randomUUID()}`;
    const events = [event()];
    faulty.fail('answer lost');
    const append = store.appendToStream(streamId, events, { expectedVersion: 'no_stream' });
    faulty.refuseAll(true);
    const error = await append.catch((e: unknown) => e);
    faulty.refuseAll(false);
    expect(error).toBeInstanceOf(AppendOutcomeUnknownError);
    expect((error as AppendOutcomeUnknownError).errorCode).toBe('OUTCOME_UNKNOWN');
    expect(faulty.appendsSeen()).toBeGreaterThan(2);
    // It was stored: the error did not say otherwise, and a retry with the same ids stores nothing twice.
    expect(await storedIds(streamId)).toEqual(events.map((e) => e.id));
    await store.appendToStream(streamId, events, { expectedVersion: 'no_stream' });
    expect(await storedIds(streamId)).toEqual(events.map((e) => e.id));
    await store.close();
  });

  it('a grouped append whose answer is lost: every append in it answered as stored, each once', async () => {
    const faulty = faultyDb(database.db);
    const store = createPostgresEventStore(faulty.db);
    const streams = Array.from({ length: 4 }, () => `txn-${randomUUID()}`);
    const events = streams.map(() => event());
    // The first append runs alone; the three that wait meanwhile go in one grouped statement.
    faulty.failBatch('answer lost');
    const results = await Promise.all(
      streams.map((streamId, i) =>
        store.appendToStream(streamId, [events[i]!], { expectedVersion: 'no_stream' }),
      ),
    );
    expect(faulty.batchesSeen()).toBe(1);
    expect(results.map((r) => r.nextVersion)).toEqual([1, 1, 1, 1]);
    for (const [i, streamId] of streams.entries()) expect(await storedIds(streamId)).toEqual([events[i]!.id]);
    await store.close();
  });
});
