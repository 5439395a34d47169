import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { repoRoot } from '@kosh/command-api';
import { createTestApp, type TestApp } from '@kosh/command-api/testing';
import { allProjections } from '@kosh/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
const owner = randomUUID();

/** `npm run rebuild` as an operator runs it, its output not a terminal (a log, CI). */
function rebuildCli(...args: string[]) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'platform/src/rebuild-cli.ts'), ...args],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: t.platform.config.DATABASE_URL },
      timeout: 90_000,
    },
  );
  return { code: result.status, err: result.stderr };
}

describe('npm run rebuild', () => {
  beforeAll(async () => {
    t = await createTestApp();
    const headers = await t.signedInHeader(owner);
    for (let i = 0; i < 5; i++) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/transactions',
        headers,
        payload: {
          notes: `Item ${i}`,
          transaction_type: 'D',
          transaction_date: '2026-01-04',
          amount: 10 + i,
        },
      });
      expect(r.statusCode).toBe(201);
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  it('resumes a killed run without replaying the projections it already swapped in, one line per step', async () => {
    const names = allProjections.map((p) => p.name);
    // A run of every projection killed after users and catalog were swapped in.
    await t.platform.runner.planRebuilds(names);
    await t.platform.runner.rebuild('users');
    await t.platform.runner.rebuild('catalog');

    const resumed = rebuildCli();
    expect(resumed.code, resumed.err).toBe(0);
    // Every other read model of the registry, by name (a new one is resumed too).
    const rest = names.filter((name) => name !== 'users' && name !== 'catalog').sort();
    expect(rest).toEqual(
      expect.arrayContaining(['accounts', 'history', 'imports', 'ledger', 'transactions']),
    );
    expect(resumed.err).toContain(
      `Resuming an unfinished run: ${rest.join(', ')} (already swapped in: users, catalog)`,
    );
    const swapped = resumed.err.split('\n').filter((line) => line.endsWith('(swapped in)'));
    expect(swapped.map((line) => line.split(' ')[0]).sort()).toEqual(rest);
    const lines = resumed.err.split('\n').filter(Boolean);
    expect(new Set(lines).size).toBe(lines.length);
    expect(resumed.err).not.toContain('\r');
    expect(await t.platform.runner.pendingRebuilds()).toEqual([]);

    const full = rebuildCli('--restart');
    expect(full.code, full.err).toBe(0);
    expect(full.err.split('\n').filter((line) => line.endsWith('(swapped in)'))).toHaveLength(names.length);
  });

  it('recovers from a failed rebuild once its cause is fixed, with a plain run', async () => {
    // The cause: the live table gained a rule one stored transaction breaks (say, a migration
    // written too strictly); the rebuild's copy of the table takes the rule with it.
    await t.platform.db.query(
      `ALTER TABLE transactions ADD CONSTRAINT no_item_3 CHECK (notes <> 'Item 3') NOT VALID`,
    );
    const failed = rebuildCli('transactions');
    expect(failed.code).toBe(1);
    expect(failed.err).toContain('no_item_3');
    expect(failed.err).toContain('npm run rebuild -- transactions');

    await t.platform.db.query('ALTER TABLE transactions DROP CONSTRAINT no_item_3');
    const again = rebuildCli('transactions');
    expect(again.code, again.err).toBe(0);
    expect(again.err).toMatch(/^transactions .*\(swapped in\)$/m);
    expect(await t.platform.runner.pendingRebuilds()).toEqual([]);
    const { rows } = await t.platform.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_namespace WHERE nspname LIKE 'rebuild\\_%'",
    );
    expect(rows[0]?.n).toBe(0);
    const list = await t.as(owner).get('/api/transactions?limit=10');
    expect(list.body.data.transactions).toHaveLength(5);
  });
});
