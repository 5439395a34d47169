import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { repoRoot } from '@kosh/command-api';
import { createTestApp, type TestApp } from '@kosh/command-api/testing';
import { allProjections } from '@kosh/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;

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
    const headers = await t.signedInHeader(randomUUID());
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
    expect(resumed.err).toContain(
      'Resuming an unfinished run: audit-grants, history, ledger, loans, schedules, transactions (already swapped in: users, catalog)',
    );
    const swapped = resumed.err.split('\n').filter((line) => line.endsWith('(swapped in)'));
    expect(swapped.map((line) => line.split(' ')[0]).sort()).toEqual([
      'audit-grants',
      'history',
      'ledger',
      'loans',
      'schedules',
      'transactions',
    ]);
    const lines = resumed.err.split('\n').filter(Boolean);
    expect(new Set(lines).size).toBe(lines.length);
    expect(resumed.err).not.toContain('\r');
    expect(await t.platform.runner.pendingRebuilds()).toEqual([]);

    const full = rebuildCli('--restart');
    expect(full.code, full.err).toBe(0);
    expect(full.err.split('\n').filter((line) => line.endsWith('(swapped in)'))).toHaveLength(names.length);
  });
});
