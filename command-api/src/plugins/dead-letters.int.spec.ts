import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../platform';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * A projector that keeps failing on an event (issue 11): the operator hears of it (error log,
 * /readyz, `npm run projections -- status`), fixes it, and `retry` catches the read model up.
 * The "bug" here is a constraint the transaction book cannot satisfy; the fix drops it.
 */
let t: TestApp;
const logs: Record<string, unknown>[] = [];
const alice = randomUUID();

function projectionsCli(...args: string[]) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'platform/src/projections-cli.ts'), ...args],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      env: {
        ...process.env,
        DATABASE_URL: t.platform.config.DATABASE_URL,
        REDIS_URL: '',
        JWT_SECRET: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'silent',
      },
      timeout: 60_000,
    },
  );
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('a poisoned projector', () => {
  beforeAll(async () => {
    const logger = pino(
      { level: 'info' },
      {
        write(line: string) {
          logs.push(JSON.parse(line));
        },
      },
    );
    t = await createTestApp({ logger, env: { READ_YOUR_WRITES_TIMEOUT_MS: '3000' } });
    await t.platform.db.query(
      `ALTER TABLE transactions ADD CONSTRAINT poisoned_notes CHECK (notes IS DISTINCT FROM 'poison')`,
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  it('is logged, fails /readyz, is named by the status command, and catches up after the fix and retry', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const recorded = await t.app.inject({
      method: 'POST',
      url: '/api/transactions',
      headers: await t.signedInHeader(alice),
      payload: { notes: 'poison', transaction_type: 'D', transaction_date: '2026-01-05', amount: 120 },
    });
    expect(recorded.statusCode).toBe(201);
    expect(recorded.headers['x-read-model-lag']).toBe('true');
    const id = recorded.json().data.transaction.id;

    // Retries with backoff come first (about 3 s), then the dead letter.
    const isStopLog = (l: Record<string, unknown>) => l.level === 50 && l.projection === 'transactions';
    await expect.poll(() => logs.some(isStopLog), { timeout: 20_000 }).toBe(true);
    const stoppedLog = logs.find(isStopLog);
    expect(stoppedLog).toMatchObject({ projection: 'transactions', eventType: 'TransactionRecorded' });
    expect(stoppedLog?.position).toEqual(expect.any(String));
    expect(stoppedLog?.eventId).toEqual(expect.any(String));
    expect(String(stoppedLog?.message)).toContain('poisoned_notes');

    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.projections).toBe('stopped: transactions');
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('kosh_projection_stopped{projection="transactions"} 1');
    expect(metrics).toContain(
      `kosh_projection_dead_letter{projection="transactions",event_id="${stoppedLog?.eventId}",position="${stoppedLog?.position}"} 1`,
    );

    const status = projectionsCli('status');
    expect(status.code, status.err).toBe(2);
    expect(status.out).toMatch(/^transactions\s+stopped\s+1\s/m);
    expect(status.out).toMatch(/^ledger\s+running\s+0\s/m);
    expect(status.out).toContain(
      `transactions: dead letter at ${stoppedLog?.position}, event ${stoppedLog?.eventId}`,
    );
    expect(status.out).toContain('npm run projections -- retry transactions');

    await t.platform.db.query('ALTER TABLE transactions DROP CONSTRAINT poisoned_notes');
    const retried = projectionsCli('retry', 'transactions');
    expect(retried.code, retried.err).toBe(0);
    expect(retried.out).toContain('transactions resumed: applied 1 events');

    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/transactions/${id}`,
      headers: await t.signedInHeader(alice),
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().data.transaction).toMatchObject({ notes: 'poison', amount: 120 });
    const after = projectionsCli('status');
    expect(after.code, after.out).toBe(0);
  });
});
