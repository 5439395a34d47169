import { randomUUID } from 'node:crypto';
import { type TransactionCommand, transactionDecider, transactionStreamId } from '@kosh/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { handleCommand } from './handle';

/**
 * A create command skips loading its stream (`newStream`: the id is fresh and random). Should the
 * stream exist after all, nothing is overwritten: the append conflicts, the stream is loaded and
 * the command decided again on what it holds.
 */
let t: TestApp;
const alice = randomUUID();

describe('handleCommand with a new stream', () => {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const record = (transactionId: string, notes: string): TransactionCommand => ({
    type: 'RecordTransaction',
    data: {
      transactionId,
      userId: alice,
      notes,
      transactionType: 'D',
      transactionDate: '2025-01-02',
      amount: 12_345,
      now: new Date().toISOString(),
    },
  });
  const handle = (command: TransactionCommand) =>
    handleCommand(
      { platform: t.platform, userId: alice },
      {
        streamId: transactionStreamId(command.data.transactionId),
        decider: transactionDecider,
        command,
        newStream: true,
        waitFor: ['transactions'],
      },
    );

  it('records a new stream without reading it, and answers the same state', async () => {
    const id = randomUUID();
    const result = await handle(record(id, 'Rent'));
    expect(result.nextVersion).toBe(1);
    expect(result.caughtUp).toBe(true);
    expect(result.state).toMatchObject({ status: 'recorded', transactionId: id });
    const stored = await t.platform.eventStore.readStream(transactionStreamId(id));
    expect(stored.events.map((e) => e.type)).toEqual(['TransactionRecorded']);
  });

  it('refuses to record over a stream that exists, and leaves it as it was', async () => {
    const id = randomUUID();
    await handle(record(id, 'First'));
    await expect(handle(record(id, 'Second'))).rejects.toMatchObject({
      message: 'Transaction already exists',
    });
    const stored = await t.platform.eventStore.readStream(transactionStreamId(id));
    expect(stored.version).toBe(1);
    expect(stored.events.map((e) => (e.data as { notes: string }).notes)).toEqual(['First']);
  });
});
