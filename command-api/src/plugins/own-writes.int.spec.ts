import { randomUUID } from 'node:crypto';
import { createPgDb } from '@kosh/event-store';
import { LIVE_LOCK } from '@kosh/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * A transaction's commands answer before the book holds them (issue 33 item 3); the user's next
 * request waits for it, and so does any request that sends the answer's X-Event-Position.
 */
let t: TestApp;
let holder: ReturnType<typeof createPgDb>;
const alice = randomUUID();
const bob = randomUUID();
const salary = { notes: 'Salary', transaction_type: 'C', transaction_date: '2026-01-05', amount: 85000 };
const lockSql = (fn: string) => `SELECT ${fn}($1::int, hashtext('transactions'))`;

describe('writes answered early', () => {
  beforeAll(async () => {
    t = await createTestApp();
    const url = t.platform.config.DATABASE_URL;
    if (!url) throw new Error('needs PostgreSQL');
    holder = createPgDb(url, { max: 1 });
  });

  afterAll(async () => {
    await holder?.close();
    await t?.close();
  });

  it('show in the list and the totals read right after, though the save did not wait for them', async () => {
    await holder.query(lockSql('pg_advisory_lock'), [LIVE_LOCK]);
    const recorded = await t.as(alice).post('/api/transactions', salary);
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
    expect(recorded.headers['x-read-model-lag']).toBe('true');
    expect(recorded.body.data.transaction).toMatchObject({ notes: 'Salary', amount: 85000 });
    // The book is held back; let it go while the reads below wait for it.
    setTimeout(() => void holder.query(lockSql('pg_advisory_unlock'), [LIVE_LOCK]), 300);
    const list = await t.as(alice).get('/api/transactions');
    expect(list.body.data.transactions.map((x: { id: string }) => x.id)).toEqual([
      recorded.body.data.transaction.id,
    ]);
    const stats = await t.as(alice).get('/api/transactions/stats');
    expect(stats.body.data.stats).toMatchObject({ total_transactions: 1, credit_amount: 85000 });
  });

  it('a second record right after the first does not wait for the first one’s read models', async () => {
    await holder.query(lockSql('pg_advisory_lock'), [LIVE_LOCK]);
    try {
      const started = Date.now();
      for (let i = 0; i < 3; i++) {
        expect((await t.as(alice).post('/api/transactions', salary)).status).toBe(201);
      }
      // Each would have waited READ_YOUR_WRITES_TIMEOUT_MS (5 s) for the held book.
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      await holder.query(lockSql('pg_advisory_unlock'), [LIVE_LOCK]);
    }
    const stats = await t.as(alice).get('/api/transactions/stats');
    expect(stats.body.data.stats.total_transactions).toBe(4);
  });

  it('a request carrying the answer’s X-Event-Position waits for that position', async () => {
    await holder.query(lockSql('pg_advisory_lock'), [LIVE_LOCK]);
    const recorded = await t.as(alice).post('/api/transactions', salary);
    const position = String(recorded.headers['x-event-position']);
    setTimeout(() => void holder.query(lockSql('pg_advisory_unlock'), [LIVE_LOCK]), 300);
    // Another user's request (as another process would see it: nothing pending for that user).
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/transactions/stats',
      headers: { ...(await t.signedInHeader(bob)), 'x-event-position': position },
    });
    expect(read.statusCode).toBe(200);
    expect(await t.platform.runner.waitFor(['transactions'], position, 0)).toBe(true);
  });

  it('forgets the writes of users who do not come back once the book holds them, and keeps the others', async () => {
    const carol = randomUUID();
    const dave = randomUUID();
    await t.as(carol).post('/api/transactions', salary);
    await t.platform.runner.catchUp('transactions');
    await t.platform.runner.catchUp('ledger');
    await t.platform.runner.catchUp('accounts');
    await holder.query(lockSql('pg_advisory_lock'), [LIVE_LOCK]);
    try {
      await t.as(dave).post('/api/transactions', salary);
      expect(t.app.ownWrites.pendingUsers()).toBeGreaterThanOrEqual(2);
      await t.app.ownWrites.sweep();
      // Carol's write is in the book: forgotten. Dave's is held back: kept, so his next read still waits.
      expect(t.app.ownWrites.pendingUsers()).toBe(1);
    } finally {
      await holder.query(lockSql('pg_advisory_unlock'), [LIVE_LOCK]);
    }
    const stats = await t.as(dave).get('/api/transactions/stats');
    expect(stats.body.data.stats.total_transactions).toBe(1);
    expect(t.app.ownWrites.pendingUsers()).toBe(0);
  });
});
