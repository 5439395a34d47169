import { randomUUID } from 'node:crypto';
import type { EventMetadata, RecordedEvent } from '@kosh/domain';
import type { EventStore, NewEvent } from '@kosh/event-store';
import {
  createInMemoryEventStore,
  createPostgresEventStore,
  eventStoreMigrations,
  migrate,
} from '@kosh/event-store';
import { createTestDatabase, type TestDatabase } from '@kosh/event-store/testing';
import { runnerMigrations } from '@kosh/projections';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from './migrate-events-cli';

// No EventStoreDB server runs here: the command runs its whole path (arguments, the PostgreSQL
// source, the copy, the per-stream check, exit codes) with the in-memory adapter as target.

const meta = (userId: string | null, schemaVersion = 1): EventMetadata => ({
  userId,
  correlationId: randomUUID(),
  causationId: null,
  recordedAt: '2026-02-01T09:30:00.000Z',
  schemaVersion,
});

const ev = (
  type: string,
  data: unknown,
  userId: string | null = 'u1',
  id: string = randomUUID(),
): NewEvent => ({
  id,
  type,
  data,
  metadata: meta(userId),
});

const strip = (events: RecordedEvent[]) =>
  events.map(({ position: _, ...rest }) => rest as Omit<RecordedEvent, 'position'>);

async function readEverything(store: EventStore): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after: all.at(-1)?.position ?? null, limit: 100 });
    if (page.length === 0) return all;
    all.push(...page);
  }
}

describe('npm run migrate-events -- --to eventstoredb', () => {
  let database: TestDatabase;
  let source: EventStore;
  const env = () => ({
    DATABASE_URL: database.url,
    EVENTSTORE_URL: 'kurrentdb://eventstore.invalid:2113?tls=false',
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrate(database.db, [eventStoreMigrations, runnerMigrations]);
    source = createPostgresEventStore(database.db);
    await source.appendToStream('bank-sbi', [ev('BankAdded', { bankId: 'sbi' }, null, 'seed-bank-sbi')], {
      expectedVersion: 'no_stream',
    });
    await source.appendToStream(
      'loan-1',
      [ev('LoanCreated', { principal: 500_000_00 }), ev('ScheduleGenerated', { months: 240 })],
      { expectedVersion: 'no_stream' },
    );
    await source.appendToStream('txn-1', [ev('TransactionRecorded', { amount: 1_250_00 })], {
      expectedVersion: 'no_stream',
    });
    await source.appendToStream('loan-1', [ev('LoanUpdated', { rate: 8.5 })], { expectedVersion: 2 });
    for (let i = 0; i < 30; i++) {
      await source.appendToStream(`txn-${i + 2}`, [ev('TransactionRecorded', { amount: i, note: null })], {
        expectedVersion: 'no_stream',
      });
    }
  });
  // Read models part-way through the log: one checkpoint after the first event of a two-event
  // append, one at the end, one before everything, and an unfinished rebuild.
  let checkpointEvents: Record<string, string>;
  beforeEach(async () => {
    const all = await readEverything(source);
    checkpointEvents = {
      loans: all[1]!.id,
      ledger: all.at(-1)!.id,
      mail: all[3]!.id,
      'rebuild:ledger': all[0]!.id,
    };
    await database.db.query('DROP TABLE IF EXISTS event_log_migrations');
    await database.db.query('DELETE FROM projection_checkpoints');
    await database.db.query('DELETE FROM projection_rebuilds');
    await database.db.query(
      `INSERT INTO projection_checkpoints (name, position) VALUES ('loans', $1), ('ledger', $2), ('mail', $3), ('catalog', '')`,
      [all[1]!.position, all.at(-1)!.position, all[3]!.position],
    );
    await database.db.query(`INSERT INTO projection_rebuilds (name, position) VALUES ('ledger', $1)`, [
      all[0]!.position,
    ]);
  });

  /** Each checkpoint must name, in the target, the same event it named in the source. */
  async function expectCheckpointsMovedTo(target: EventStore) {
    const byId = new Map((await readEverything(target)).map((e) => [e.id, e.position]));
    const live = await database.db.query<{ name: string; position: string }>(
      'SELECT name, position FROM projection_checkpoints',
    );
    const rebuilds = await database.db.query<{ name: string; position: string }>(
      'SELECT name, position FROM projection_rebuilds',
    );
    expect(Object.fromEntries(live.rows.map((r) => [r.name, r.position]))).toEqual({
      loans: byId.get(checkpointEvents.loans!),
      ledger: byId.get(checkpointEvents.ledger!),
      mail: byId.get(checkpointEvents.mail!),
      catalog: '',
    });
    expect(rebuilds.rows).toEqual([
      { name: 'ledger', position: byId.get(checkpointEvents['rebuild:ledger']!) },
    ]);
  }

  afterAll(async () => {
    await source?.close();
    await database?.drop();
  });

  it('copies every event in log order with its stream, version, id, type, data and metadata', async () => {
    const target = createInMemoryEventStore();
    const lines: string[] = [];
    const code = await main(['--to', 'eventstoredb', '--batch-size', '7'], env(), {
      openTarget: (url) => {
        expect(url).toBe(env().EVENTSTORE_URL);
        return target;
      },
      log: (line) => lines.push(line),
    });
    expect(code).toBe(0);
    const original = await readEverything(source);
    expect(original).toHaveLength(35);
    expect(strip(await readEverything(target))).toEqual(strip(original));
    expect((await target.readStream('loan-1')).version).toBe(3);
    expect(lines.join('\n')).toMatch(/Copied 35 events in 33 streams to EventStoreDB .*every stream checked/);
    expect(lines.join('\n')).toContain('Moved 4 read-model checkpoints to the same events in EventStoreDB.');
    await expectCheckpointsMovedTo(target);

    // Run again: nothing is copied twice and the checkpoints, already moved, stay.
    const again: string[] = [];
    expect(
      await main(['--to', 'eventstoredb'], env(), { openTarget: () => target, log: (l) => again.push(l) }),
    ).toBe(0);
    expect(strip(await readEverything(target))).toEqual(strip(original));
    expect(again.join('\n')).toContain('moved to EventStoreDB positions by an earlier run');
    await expectCheckpointsMovedTo(target);
  });

  it('copies nothing twice when run again after an interruption', async () => {
    const target = createInMemoryEventStore();
    const original = await readEverything(source);
    // As if a first run stopped after the first three source appends.
    await target.appendToStream('bank-sbi', [original[0]!], { expectedVersion: 'no_stream' });
    await target.appendToStream('loan-1', original.slice(1, 3), { expectedVersion: 'no_stream' });
    await target.appendToStream('txn-1', [original[3]!], { expectedVersion: 'no_stream' });
    const code = await main(['--to', 'eventstoredb'], env(), { openTarget: () => target, log: () => {} });
    expect(code).toBe(0);
    expect(strip(await readEverything(target))).toEqual(strip(original));
    await expectCheckpointsMovedTo(target);
  });

  it('stops with a clear message when the target already holds other events in a stream', async () => {
    const target = createInMemoryEventStore();
    await target.appendToStream('loan-1', [ev('LoanCreated', { principal: 1 })], {
      expectedVersion: 'no_stream',
    });
    const lines: string[] = [];
    const code = await main(['--to', 'eventstoredb'], env(), {
      openTarget: () => target,
      log: (line) => lines.push(line),
    });
    expect(code).toBe(1);
    expect(lines.at(-1)).toBe(
      'Migration stopped: Stream loan-1 already has other events in the target (version 1, expected 0): migrate into an empty EventStoreDB',
    );
    // The checkpoints still point into the PostgreSQL log.
    const { rows } = await database.db.query<{ position: string }>(
      "SELECT position FROM projection_checkpoints WHERE name = 'ledger'",
    );
    expect(rows[0]!.position).toBe((await readEverything(source)).at(-1)!.position);
  });

  it('refuses to run without a target or without EVENTSTORE_URL, opening nothing', async () => {
    const opened: string[] = [];
    const deps = (lines: string[]) => ({
      openTarget: (url: string) => {
        opened.push(url);
        return createInMemoryEventStore();
      },
      log: (line: string) => lines.push(line),
    });
    const noTarget: string[] = [];
    expect(await main([], env(), deps(noTarget))).toBe(2);
    expect(noTarget.join('\n')).toContain('Missing --to');
    const wrongTarget: string[] = [];
    expect(await main(['--to', 'mongodb'], env(), deps(wrongTarget))).toBe(2);
    expect(wrongTarget.join('\n')).toContain('Unknown target mongodb');
    const noUrl: string[] = [];
    expect(await main(['--to', 'eventstoredb'], { DATABASE_URL: database.url }, deps(noUrl))).toBe(1);
    expect(noUrl.join('\n')).toContain('Set EVENTSTORE_URL');
    expect(opened).toEqual([]);
  });
});
