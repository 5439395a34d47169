/**
 * A read model on a real PostgreSQL database, for its SQL-level spec: events in, rows out.
 * Each spec file gets its own database with only that read model's migrations.
 */
import { randomUUID } from 'node:crypto';
import type { Command, Decider, DomainEvent, RecordedEvent } from '@kosh/domain';
import { migrate } from '@kosh/event-store/migrations';
import { createTestDatabase } from '@kosh/event-store/testing/test-database';
import type { ReadModel } from '../define';
import { tableDigest } from './test-projections';

export type ReadModelSpec = {
  /** Applies the events as one batch in one transaction, as the runner does. */
  apply(events: readonly RecordedEvent[]): Promise<void>;
  rows<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Digests of the read model's tables after the events once, after the same batch delivered
   * again, and (from empty tables) after a batch holding every event twice in a row.
   */
  deliveredTwice(
    events: readonly RecordedEvent[],
  ): Promise<{ once: string[]; again: string[]; doubled: string[] }>;
  /** Empties the read model's tables. */
  reset(): Promise<void>;
  drop(): Promise<void>;
};

export async function readModelSpec(projection: ReadModel): Promise<ReadModelSpec> {
  const database = await createTestDatabase();
  const { db } = database;
  await migrate(db, [projection.migrations]);
  const apply = (events: readonly RecordedEvent[]) => db.transaction((tx) => projection.apply(tx, events));
  // Whole rows in a fixed order: any difference of any column changes the digest.
  const snapshot = () => Promise.all(projection.tables.map((table) => tableDigest(db, table, 't::text')));
  const reset = async () => {
    await db.query(`TRUNCATE ${projection.tables.join(', ')}`);
  };
  return {
    apply,
    async rows<T>(sql: string, params: unknown[] = []) {
      return (await db.query<T & object>(sql, params)).rows;
    },
    async deliveredTwice(events) {
      await reset();
      await apply(events);
      const once = await snapshot();
      await apply(events);
      const again = await snapshot();
      await reset();
      await apply(events.flatMap((event) => [event, event]));
      const doubled = await snapshot();
      return { once, again, doubled };
    },
    reset,
    drop: () => database.drop(),
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
