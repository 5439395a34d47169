import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loanInput } from '../testing/fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

const CLI = fileURLToPath(new URL('./verify-export-cli.ts', import.meta.url));

/**
 * Issue 28, item 6: an export proves what it claims. `npm run verify-export` recomputes the
 * store's chain from the lines; --earlier compares line by line; a summary cannot gain a field;
 * a file that is not an export is said to be none.
 */
describe('npm run verify-export', () => {
  let t: TestApp;
  let dir: string;
  let key: string;
  const owner = randomUUID();
  /** The export before anything was edited in the database. */
  let untouched = '';

  const run = (...args: string[]) => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { encoding: 'utf8' });
    return { code: result.status, out: result.stdout, err: result.stderr };
  };
  const exportTo = async (name: string) => {
    expect(await t.caughtUp(['history'])).toBe(true);
    const text = (await t.as(owner).get('/api/export/history')).text;
    const file = path.join(dir, name);
    await writeFile(file, text);
    return { file, text };
  };

  beforeAll(async () => {
    t = await createTestApp();
    dir = await mkdtemp(path.join(tmpdir(), 'kosh-verify-'));
    key = (await t.as(owner).get('/api/export/public-key')).body.data.public_key;
    for (const [notes, amount] of [
      ['Rent for "Flat 4B"\nNovember', 25000.5],
      ['चाय और नाश्ता ₹', 120],
      ['Salary', 98765.43],
    ] as const) {
      const answer = await t.as(owner).post('/api/transactions', {
        notes,
        transaction_type: notes === 'Salary' ? 'C' : 'D',
        transaction_date: '2026-11-02',
        amount,
      });
      expect(answer.status).toBe(201);
    }
    expect((await t.as(owner).post('/api/loans', loanInput())).status).toBe(201);
  });

  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('recomputes every chain link it can from the lines of an untouched export', async () => {
    const { file, text } = await exportTo('untouched.jsonl');
    untouched = text;
    const events = text.trimEnd().split('\n').length - 2;
    const ok = run(file, '--public-key', key);
    expect(ok.code, ok.out + ok.err).toBe(0);
    // The two account events hold withheld secrets (password hash); the rest are recomputed.
    expect(ok.out).toContain(`OK: ${events} events`);
    expect(ok.out).toContain(
      `${events - 1} chain links recomputed from their lines (1 account events hold withheld secrets)`,
    );
  });

  it('finds a transaction edited in the database, by itself and against an earlier export', async () => {
    const earlier = await exportTo('earlier.jsonl');
    const { rows } = await t.platform.db.query<{ global_position: string }>(
      `SELECT e.global_position FROM events e JOIN event_chain c USING (global_position)
        WHERE c.user_id = $1 AND e.type = 'TransactionRecorded' AND e.data->>'notes' = 'Salary'`,
      [owner],
    );
    await t.platform.db.query(
      `UPDATE events SET data = jsonb_set(data, '{amount}', '1') WHERE global_position = $1`,
      [rows[0]?.global_position],
    );
    await t.platform.runner.rebuild('history');
    const later = await exportTo('later.jsonl');
    const salaryLine = later.text.split('\n').findIndex((line) => line.includes('"notes":"Salary"')) + 1;
    expect(salaryLine).toBeGreaterThan(1);

    const alone = run(later.file, '--public-key', key);
    expect(alone.code).toBe(1);
    expect(alone.out).toBe(
      `FAILED at line ${salaryLine}: line ${salaryLine} changed after it was recorded: it no longer hashes to its chain link\n`,
    );
    const compared = run(later.file, '--public-key', key, '--earlier', earlier.file);
    expect(compared.code).toBe(1);
    expect(compared.out).toContain(`line ${salaryLine}`);
    expect(compared.out).not.toContain('OK');
  });

  it('refuses a signed summary with a field added, and says a file that is not an export is none', async () => {
    const lines = untouched.trimEnd().split('\n');
    const summary = JSON.parse(lines[lines.length - 1] as string);
    lines[lines.length - 1] = JSON.stringify({ ...summary, note: 'all figures audited' });
    const noted = path.join(dir, 'noted.jsonl');
    await writeFile(noted, `${lines.join('\n')}\n`);
    const refused = run(noted, '--public-key', key);
    expect(refused.code).toBe(1);
    expect(refused.out).toBe(
      `FAILED at line ${lines.length}: the summary holds note, which the signature does not cover: altered\n`,
    );

    for (const [name, content] of [
      ['statement.csv', 'date,amount\n2026-11-02,120\n'],
      ['empty.jsonl', ''],
      ['object.json', '{"loans":[]}\n'],
    ] as const) {
      const file = path.join(dir, name);
      await writeFile(file, content);
      const answer = run(file);
      expect(answer.code).toBe(1);
      expect(answer.out).toBe(
        `FAILED: ${file} is not a Kosh history export (its first line is not an export header)\n`,
      );
      expect(answer.out).not.toContain('altered');
    }
  });
});
