import { transactionDecider, transactionStreamId } from '@kosh/domain';
import { migrate } from '@kosh/event-store';
import { createTestDatabase, type TestDatabase } from '@kosh/event-store/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ledgerProjection } from '../ledger/projector';
import { allProjections } from '../registry';
import { now, transactionId, userId } from '../runner/testing/fixtures';
import { recordedStream } from '../runner/testing/read-model-spec';
import { AS_OF_PROJECTIONS, readReplayed } from './as-of';

// One connection, so the live fold and the replays share it as a pooled connection may.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ max: 1 });
  // Every read model a replay copies (as-of.ts `AS_OF_PROJECTIONS`), by name from the registry.
  const copied = new Set(AS_OF_PROJECTIONS.map((p) => p.name));
  const readModels = allProjections.filter((p) => copied.has(p.name));
  await migrate(
    database.db,
    readModels.map((p) => p.migrations),
  );
});
afterAll(() => database?.drop());

const PERIODS = 'SELECT year, month, transaction_count FROM ledger_periods ORDER BY year, month';

it("replays into its own copies even on a connection that prepared the live fold's statements", async () => {
  const db = database.db;
  const recorded = recordedStream(transactionDecider, transactionStreamId(transactionId), userId).decide({
    type: 'RecordTransaction',
    data: {
      transactionId,
      userId,
      notes: 'Rent',
      transactionType: 'C',
      transactionDate: '2026-01-05',
      amount: 1,
      now,
    },
  });
  // A first replay on the connection makes its temporary schema.
  await readReplayed(db, [], ['ledger'], (tx) => tx.query(PERIODS));
  // The live fold prepares its statements on the live tables.
  await db.transaction((tx) => ledgerProjection.apply(tx, recorded));
  const replayed = await readReplayed(db, recorded, ['ledger'], async (tx) => (await tx.query(PERIODS)).rows);
  expect(replayed).toEqual([{ year: 2026, month: 1, transaction_count: 1 }]);
  // The replay left the live read model as the live fold made it.
  expect((await db.query(PERIODS)).rows).toEqual([{ year: 2026, month: 1, transaction_count: 1 }]);
});
