import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_MESSAGES } from '../plugins/idempotency';
import { testClock } from '../testing/clock';
import { loanInput } from '../testing/fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * Issue 10, item 10. Before: a create retried after a network error (the answer lost, the write
 * done) made a second transaction, loan, bank or loan type, and two identical requests at once
 * made two. Now a create sent with an `Idempotency-Key` runs once per (user, key) in 24 h.
 */
const salary = { notes: 'Salary', transaction_type: 'C', transaction_date: '2026-01-01', amount: 85000 };
const homeLoan = loanInput();

describe.each(['postgres', 'embedded'] as const)('idempotent creates (%s)', (mode) => {
  let t: TestApp;
  const clock = testClock('2026-01-10T04:00:00.000Z');
  const alice = randomUUID();
  const bob = randomUUID();

  beforeAll(async () => {
    // A short read-your-writes bound, so that a retry gives up on a never-finished twin in 6 s.
    t = await createTestApp({
      mode,
      clock,
      env: { READ_YOUR_WRITES_TIMEOUT_MS: '3000' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (userId: string, url: string, body: object | undefined, key?: string) =>
    t.as(userId).post(url, body, { headers: key === undefined ? {} : { 'idempotency-key': key } });

  /** Events in the whole log: an answered retry must not add one. */
  async function eventCount(): Promise<number> {
    const { rows } = await t.platform.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    return rows[0]?.n ?? 0;
  }

  async function transactionCount(userId: string): Promise<number> {
    return (await t.as(userId).get('/api/transactions')).body.data.pagination.total_items;
  }

  it.each([
    ['/api/transactions', salary, 'transaction'],
    ['/api/loans', homeLoan, 'loan'],
    ['/api/banks', { bank_name: 'Kosh Co-operative Bank', branch_name: 'Pune' }, 'bank'],
    ['/api/banks/loan-types', { type_name: 'Gold Loan' }, 'loanType'],
  ])('a retried POST %s answers the first answer and makes no second entry', async (url, body, resource) => {
    const key = randomUUID();
    const first = await post(alice, url, body, key);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const before = await eventCount();

    const retry = await post(alice, url, body, key);
    expect(retry.status).toBe(201);
    expect(retry.body.data[resource].id).toBe(first.body.data[resource].id);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.etag).toBe(first.headers.etag);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await eventCount()).toBe(before);
  });

  it('a retried schedule regeneration makes one new version, not two', async () => {
    const loan = (await post(alice, '/api/loans', { ...homeLoan, account_number: 'HL00099999' })).body.data
      .loan;
    const key = randomUUID();
    const url = `/api/loans/${loan.id}/amortization/regenerate`;
    const first = await post(alice, url, undefined, key);
    const retry = await post(alice, url, undefined, key);
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(retry.body).toEqual(first.body);
    const fetched = await t.as(alice).get(`/api/loans/${loan.id}`);
    expect(fetched.body.data.loan.schedule_version).toBe(loan.schedule_version + 1);
  });

  it('the same key with another body is a 422 and records nothing', async () => {
    const key = randomUUID();
    expect((await post(alice, '/api/transactions', salary, key)).status).toBe(201);
    const before = await eventCount();
    const other = await post(alice, '/api/transactions', { ...salary, amount: 99999 }, key);
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({
      success: false,
      message: IDEMPOTENCY_MESSAGES.keyReused,
      errorCode: 'IDEMPOTENCY_KEY_REUSED',
      errors: [{ field: 'Idempotency-Key', message: IDEMPOTENCY_MESSAGES.keyReused }],
    });
    // Another route is another request too.
    expect((await post(alice, '/api/banks/loan-types', { type_name: 'Salary' }, key)).status).toBe(422);
    expect(await eventCount()).toBe(before);
  });

  it('the same body with its keys in another order is the same request', async () => {
    const key = randomUUID();
    const first = await post(alice, '/api/transactions', salary, key);
    const reordered = Object.fromEntries(Object.entries(salary).reverse());
    const retry = await post(alice, '/api/transactions', reordered, key);
    expect(retry.status).toBe(201);
    expect(retry.body.data.transaction.id).toBe(first.body.data.transaction.id);
  });

  it("keys are the user's own: another user's same key neither replays nor blocks", async () => {
    const key = randomUUID();
    const alices = await post(alice, '/api/transactions', salary, key);
    const bobs = await post(bob, '/api/transactions', salary, key);
    expect(bobs.status).toBe(201);
    expect(bobs.headers['idempotent-replayed']).toBeUndefined();
    expect(bobs.body.data.transaction.id).not.toBe(alices.body.data.transaction.id);
    expect(await transactionCount(bob)).toBe(1);
    const bobsOther = await post(bob, '/api/transactions', { ...salary, notes: 'Bonus' }, randomUUID());
    expect(bobsOther.status).toBe(201);
  });

  it('two identical keyed requests at once make one entry, and both get the same answer', async () => {
    const user = randomUUID();
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post(user, '/api/transactions', { ...salary, notes: 'Rent' }, key)),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    for (const answer of answers) expect(answer.body).toEqual(answers[0]?.body);
    expect(await transactionCount(user)).toBe(1);
  });

  it('a first attempt that never finished (its process died) is not run a second time', async () => {
    const user = randomUUID();
    const key = randomUUID();
    const first = await post(user, '/api/transactions', salary, key);
    // As if the process had died after appending, before storing the answer.
    await t.platform.db.query(
      'UPDATE idempotency_keys SET status = NULL, headers = NULL, body = NULL WHERE user_id = $1 AND key = $2',
      [user, key],
    );
    const retry = await post(user, '/api/transactions', salary, key);
    expect(retry.status).toBe(409);
    expect(retry.body).toMatchObject({
      message: IDEMPOTENCY_MESSAGES.keyInProgress,
      errorCode: 'IDEMPOTENCY_KEY_IN_PROGRESS',
    });
    expect(await transactionCount(user)).toBe(1);
    expect(first.status).toBe(201);
  });

  it('a request that failed gives its key back, so the corrected retry is recorded', async () => {
    const user = randomUUID();
    const key = randomUUID();
    const invalid = await post(user, '/api/transactions', { ...salary, amount: -5 }, key);
    expect(invalid.status).toBe(422);
    const corrected = await post(user, '/api/transactions', salary, key);
    expect(corrected.status).toBe(201);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
    expect(await transactionCount(user)).toBe(1);
  });

  it('after 24 hours a key is spent: the same request makes a new entry', async () => {
    const user = randomUUID();
    const key = randomUUID();
    const first = await post(user, '/api/transactions', salary, key);
    clock.advance(24 * 60 * 60 * 1000 - 1);
    const withinADay = await post(user, '/api/transactions', salary, key);
    expect(withinADay.body.data.transaction.id).toBe(first.body.data.transaction.id);
    clock.advance(2);
    const nextDay = await post(user, '/api/transactions', salary, key);
    expect(nextDay.status).toBe(201);
    expect(nextDay.body.data.transaction.id).not.toBe(first.body.data.transaction.id);
    expect(await transactionCount(user)).toBe(2);
    // Spent keys are swept (at most hourly), not kept forever.
    clock.advance(60 * 60 * 1000);
    await post(user, '/api/transactions', salary, randomUUID());
    const { rows } = await t.platform.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM idempotency_keys WHERE created_at <= $1',
      [new Date(clock().getTime() - 24 * 60 * 60 * 1000)],
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('a malformed key is a 422 and records nothing', async () => {
    const before = await eventCount();
    for (const key of ['x'.repeat(256), 'has space', 'clé']) {
      const answer = await post(alice, '/api/transactions', salary, key);
      expect(answer.status, key).toBe(422);
      expect(answer.body.errors).toEqual([
        { field: 'Idempotency-Key', message: IDEMPOTENCY_MESSAGES.keyInvalid },
      ]);
    }
    expect(await eventCount()).toBe(before);
  });

  it('every create documents the header in OpenAPI', async () => {
    const { paths } = (await t.anonymous.get('/docs/json')).body;
    for (const path of ['/api/transactions/', '/api/loans/', '/api/banks/', '/api/banks/loan-types']) {
      const names = paths[path].post.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
      expect(names, path).toContain('header:idempotency-key');
    }
  });

  it('without a key each POST is a new entry, as before', async () => {
    const user = randomUUID();
    await post(user, '/api/transactions', salary);
    await post(user, '/api/transactions', salary);
    expect(await transactionCount(user)).toBe(2);
  });
});
