/**
 * A read model on a real PostgreSQL database, for its SQL-level spec: events in, rows out.
 * Each spec file gets its own database with only that read model's migrations.
 */
import { randomUUID } from 'node:crypto';
import type { Command, Decider, DomainEvent, RecordedEvent } from '@kosh/domain';
import { migrate, type Queryable } from '@kosh/event-store';
import { createTestDatabase, type TestDatabase } from '@kosh/event-store/testing';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { ReadModel } from '../define';
import { tableDigest } from './test-projections';

export type ReadModelSpec = {
  /** Applies the events as one batch in one transaction, as the runner does. */
  apply(events: readonly RecordedEvent[]): Promise<void>;
  rows<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `work` in one transaction of the spec's database (a rebuild's bulk path, say). */
  inTransaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Expects the tables to hold the same rows after the events delivered twice (the batch again,
   * and, from empty tables, one batch holding every event twice in a row) as after them once.
   * Returns the row count of each table.
   */
  landsOnce(events: readonly RecordedEvent[]): Promise<number[]>;
};

/**
 * Declares the spec's database in the current `describe`: created before its tests with only
 * this read model's migrations, its tables emptied before each test, dropped after.
 */
export function readModelSpec(projection: ReadModel): ReadModelSpec {
  let database: TestDatabase | undefined;
  const db = () => {
    if (!database) throw new Error('readModelSpec: the database is made in beforeAll');
    return database.db;
  };
  const apply = (events: readonly RecordedEvent[]) => db().transaction((tx) => projection.apply(tx, events));
  // Whole rows in a fixed order: any difference of any column changes the digest.
  const snapshot = () => Promise.all(projection.tables.map((table) => tableDigest(db(), table, 't::text')));
  const reset = async () => {
    await db().query(`TRUNCATE ${projection.tables.join(', ')}`);
  };
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrate(database.db, [projection.migrations]);
  });
  beforeEach(reset);
  afterAll(() => database?.drop());
  return {
    apply,
    async rows<T>(sql: string, params: unknown[] = []) {
      return (await db().query<T & object>(sql, params)).rows;
    },
    inTransaction: (work) => db().transaction(work),
    async landsOnce(events) {
      await reset();
      await apply(events);
      const once = await snapshot();
      await apply(events);
      expect(await snapshot(), 'the batch delivered again').toEqual(once);
      await reset();
      await apply(events.flatMap((event) => [event, event]));
      expect(await snapshot(), 'each event twice in one batch').toEqual(once);
      return once.map((digest) => Number(digest.split(':')[0]));
    },
  };
}

let lastPosition = 0;

/**
 * A stream of recorded events: `decide` runs the aggregate's commands in order (each on the
 * state its stream's events fold to) and returns the events as the store would record them.
 */
export function recordedStream<State, C extends Command, E extends DomainEvent>(
  decider: Decider<State, C, E>,
  streamId: string,
  userId: string | null,
) {
  const history: E[] = [];
  return {
    decide(...commands: C[]): RecordedEvent<E>[] {
      const recorded: RecordedEvent<E>[] = [];
      for (const command of commands) {
        const state = history.reduce(decider.evolve, decider.initialState());
        for (const event of decider.decide(command, state)) {
          history.push(event);
          lastPosition++;
          recorded.push({
            ...event,
            id: randomUUID(),
            streamId,
            streamVersion: history.length,
            position: String(lastPosition).padStart(12, '0'),
            metadata: {
              userId,
              correlationId: randomUUID(),
              causationId: null,
              recordedAt: new Date(Date.UTC(2026, 0, 1) + lastPosition * 1000).toISOString(),
              schemaVersion: 1,
            },
          });
        }
      }
      return recorded;
    },
  };
}
