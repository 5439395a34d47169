import { randomUUID } from 'node:crypto';
import { createPgDb } from '@kosh/event-store';
import { LIVE_LOCK } from '@kosh/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loanInput } from '../testing/fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * Answers never lie (issue 11): while the read models are held back (another session holds
 * their runner locks, as a busy or stuck projector would), every command still answers with
 * its new state, built by the projections' own folds, and says so with X-Read-Model-Lag.
 * Once the read models move, the queries show exactly what the commands answered.
 */
const HELD = ['loans', 'schedules', 'ledger', 'transactions', 'catalog'];

let t: TestApp;
let holder: ReturnType<typeof createPgDb>;
const alice = randomUUID();

const homeLoan = loanInput();

const lockSql = (fn: string) => `SELECT ${fn}($1::int, hashtext(name)) FROM unnest($2::text[]) AS name`;

describe('command answers while the read models lag', () => {
  beforeAll(async () => {
    t = await createTestApp({ env: { READ_YOUR_WRITES_TIMEOUT_MS: '300' } });
    const url = t.platform.config.DATABASE_URL;
    if (!url) throw new Error('needs PostgreSQL');
    // One connection: session-level advisory locks belong to it.
    holder = createPgDb(url, { max: 1 });
    await holder.query(lockSql('pg_advisory_lock'), [LIVE_LOCK, HELD]);
  });

  afterAll(async () => {
    await holder?.close();
    await t?.close();
  });

  it('creates and edits a loan, regenerates its schedule, records and edits a transaction, adds a bank: no 404, no stale value', async () => {
    const created = await t.as(alice).post('/api/loans', homeLoan);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.headers['x-read-model-lag']).toBe('true');
    const loan = created.body.data.loan;
    expect(loan).toMatchObject({
      account_number: 'HL00012345',
      principal_amount: 2500000,
      schedule_version: 1,
    });
    expect(loan.bank.bank_name).not.toBe('');
    expect(created.headers.etag).toBe('"2"');

    const edited = await t.as(alice).put(`/api/loans/${loan.id}`, { ...homeLoan, principal_amount: 2000000 });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.headers['x-read-model-lag']).toBe('true');
    expect(edited.body.data.loan).toMatchObject({ principal_amount: 2000000, schedule_version: 2 });

    const regenerated = await t.as(alice).post(`/api/loans/${loan.id}/amortization/regenerate`);
    expect(regenerated.status, JSON.stringify(regenerated.body)).toBe(200);
    expect(regenerated.headers['x-read-model-lag']).toBe('true');
    expect(regenerated.body.data.summary).toMatchObject({ version: 3, total_principal: 2000000 });

    const recorded = await t.as(alice).post('/api/transactions', {
      notes: 'Salary',
      transaction_type: 'C',
      transaction_date: '2026-01-05',
      amount: 85000,
    });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
    expect(recorded.headers['x-read-model-lag']).toBe('true');
    const transaction = recorded.body.data.transaction;
    const changed = await t.as(alice).put(`/api/transactions/${transaction.id}`, {
      notes: 'Salary (January)',
      transaction_type: 'C',
      transaction_date: '2026-01-05',
      amount: 90000,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.transaction).toMatchObject({ notes: 'Salary (January)', amount: 90000 });

    const bank = await t
      .as(alice)
      .post('/api/banks', { bank_name: 'Janata Sahakari', branch_name: 'Kothrud' });
    expect(bank.status, JSON.stringify(bank.body)).toBe(201);
    expect(bank.headers['x-read-model-lag']).toBe('true');
    expect(bank.body.data.bank).toMatchObject({ bank_name: 'Janata Sahakari', is_custom: true });

    // The read models still hold nothing of it: the answers above came from the streams.
    expect((await t.as(alice).get(`/api/loans/${loan.id}`)).status).toBe(404);

    await holder.query(lockSql('pg_advisory_unlock'), [LIVE_LOCK, HELD]);
    const last = String(bank.headers['x-event-position']);
    expect(await t.platform.runner.waitFor(HELD, last, 20_000)).toBe(true);

    const read = await t.as(alice).get(`/api/loans/${loan.id}`);
    // The regeneration came after the edit: only its schedule version differs.
    expect(read.body.data.loan).toEqual({ ...edited.body.data.loan, schedule_version: 3 });
    const schedule = await t.as(alice).get(`/api/loans/${loan.id}/amortization`);
    expect(schedule.body.data).toEqual(regenerated.body.data);
    const readTransaction = await t.as(alice).get(`/api/transactions/${transaction.id}`);
    expect(readTransaction.body.data.transaction).toEqual(changed.body.data.transaction);
    const readBank = await t.as(alice).get(`/api/banks/${bank.body.data.bank.id}`);
    expect(readBank.body.data.bank).toEqual(bank.body.data.bank);
  });
});
