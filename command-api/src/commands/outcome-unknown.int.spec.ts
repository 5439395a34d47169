import { randomUUID } from 'node:crypto';
import { AppendOutcomeUnknownError, type EventStore } from '@kosh/event-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTCOME_UNKNOWN_MESSAGE } from '../plugins/errors';
import { IDEMPOTENCY_MESSAGES } from '../plugins/idempotency';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * A command whose append may or may not be stored (the connection broke after the statement was
 * sent, and the database did not come back within the store's bound: event-store
 * append-outcome.int.spec) is answered as such: 503 with the envelope, never "Server error", and
 * a retry with the same Idempotency-Key never records the change a second time. Here the append
 * really runs and is stored; then the store's error for a lost answer is raised in its place.
 */
const salary = { notes: 'Salary', transaction_type: 'C', transaction_date: '2026-01-01', amount: 85000 };

describe('a command whose outcome the database did not confirm', () => {
  let t: TestApp;
  let real: EventStore;
  let loseNextAnswer = false;
  const alice = randomUUID();

  beforeAll(async () => {
    t = await createTestApp({ env: { READ_YOUR_WRITES_TIMEOUT_MS: '1000' } });
    real = t.platform.eventStore;
    const lossy: EventStore = {
      ...real,
      async appendToStream(streamId, events, options) {
        const result = await real.appendToStream(streamId, events, options);
        if (!loseNextAnswer || !streamId.startsWith('txn-')) return result;
        loseNextAnswer = false;
        throw new AppendOutcomeUnknownError(streamId, new Error('Connection terminated unexpectedly'));
      },
    };
    (t.platform as { eventStore: EventStore }).eventStore = lossy;
  });
  afterAll(async () => {
    if (t) (t.platform as { eventStore: EventStore }).eventStore = real;
    await t?.close();
  });

  const count = async () => (await t.as(alice).get('/api/transactions')).body.data.pagination.total_items;

  it('answers 503 "could not confirm", and a retry with the same key records nothing twice', async () => {
    const key = randomUUID();
    loseNextAnswer = true;
    const first = await t
      .as(alice)
      .post('/api/transactions', salary, { headers: { 'idempotency-key': key } });
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({
      success: false,
      message: OUTCOME_UNKNOWN_MESSAGE,
      errorCode: 'OUTCOME_UNKNOWN',
    });
    // It was stored, as the answer allowed.
    await expect.poll(count, { timeout: 10_000 }).toBe(1);

    const retry = await t
      .as(alice)
      .post('/api/transactions', salary, { headers: { 'idempotency-key': key } });
    expect(retry.status).toBe(409);
    expect(retry.body.message).toBe(IDEMPOTENCY_MESSAGES.keyInProgress);
    expect(await count()).toBe(1);
  });

  it('an edit answered 503 says its change may be there; the book then shows the stored state', async () => {
    const recorded = await t.as(alice).post('/api/transactions', { ...salary, notes: 'Rent', amount: 100 });
    expect(recorded.status).toBe(201);
    const id = recorded.body.data.transaction.id;
    loseNextAnswer = true;
    const edited = await t
      .as(alice)
      .put(`/api/transactions/${id}`, { ...salary, notes: 'Rent', amount: 120 });
    expect(edited.status).toBe(503);
    expect(edited.body.errorCode).toBe('OUTCOME_UNKNOWN');
    await expect
      .poll(async () => (await t.as(alice).get(`/api/transactions/${id}`)).body.data.transaction.amount, {
        timeout: 10_000,
      })
      .toBe(120);
  });
});
