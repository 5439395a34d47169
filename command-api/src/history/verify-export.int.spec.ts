import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loanInput } from '../testing/fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { waitUntil } from '../testing/wait-until';

const CLI = fileURLToPath(new URL('./verify-export-cli.ts', import.meta.url));

/** A multipart body of a statement file and the form fields. */
function form(fileName: string, text: string, fields: Record<string, string>) {
  const boundary = `----kosh${randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n${text}\r\n--${boundary}--\r\n`,
  );
  return {
    payload: Buffer.from(parts.join('')),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** An HDFC statement of `rows` withdrawals of ₹1.00 .. in April 2026, each its own narration. */
function statement(rows: number): string {
  const lines = ['Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance'];
  let balance = 1_000_000_00;
  for (let i = 0; i < rows; i++) {
    const amount = 100 + (i % 97);
    balance -= amount;
    const day = String(1 + (i % 28)).padStart(2, '0');
    const rupees = (paise: number) => `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;
    lines.push(
      `${day}/04/26,UPI-SHOP ${i} "CHAI",${String(400000 + i).padStart(16, '0')},${day}/04/26,${rupees(amount)},,${rupees(balance)}`,
    );
  }
  return lines.join('\r\n');
}

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

  it('verifies in full a user with bank accounts, a transfer and a statement import (its rows as recorded)', async () => {
    const banker = randomUUID();
    const opened: string[] = [];
    for (const name of ['HDFC Savings', 'Wallet']) {
      const answer = await t.as(banker).post('/api/accounts', {
        name,
        kind: name === 'Wallet' ? 'wallet' : 'savings',
        opening_balance: '1000000',
        opening_date: '2026-03-01',
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      opened.push(answer.body.data.account.id);
    }
    const moved = await t.as(banker).post('/api/transfers', {
      from_account_id: opened[0],
      to_account_id: opened[1],
      amount: 500,
      transfer_date: '2026-03-06',
      notes: 'Top up',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    const rows = 2000;
    const file = form('april.csv', statement(rows), { account_id: opened[0] as string });
    const upload = await t.as(banker).post('/api/imports', file.payload, { headers: file.headers });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const committed = await t
      .as(banker)
      .post(`/api/imports/${upload.body.data.id}/commit`, { confirm_balance_mismatch: true });
    expect(committed.status, JSON.stringify(committed.body)).toBe(200);

    // A 2,000-row import is a big batch for the projections on a busy machine: wait past the bound.
    expect(await waitUntil(() => t.caughtUp(['history']), { timeout: 60_000, interval: 250 })).toBe(true);
    const text = (await t.as(banker).get('/api/export/history')).text;
    const exported = path.join(dir, 'banker.jsonl');
    await writeFile(exported, text);
    const lines = text.trimEnd().split('\n');
    const events = lines.length - 2;
    const ok = run(exported, '--public-key', key);
    expect(ok.code, ok.out + ok.err).toBe(0);
    expect(ok.out).toContain(`OK: ${events} events`);
    expect(ok.out).toContain(
      `${events - 1} chain links recomputed from their lines (1 account events hold withheld secrets)`,
    );
    const types = lines.map((l) => JSON.parse(l).event?.type);
    expect(types).toEqual(expect.arrayContaining(['AccountOpened', 'TransferRecorded', 'ImportCommitted']));
    // The import's line carries its rows as the log holds them (History's screen keeps a summary).
    const importLine = types.indexOf('ImportCommitted') + 1;
    expect(JSON.parse(lines[importLine - 1] as string).event.data.rows).toHaveLength(rows);
    const screen = await t.as(banker).get('/api/history?type=ImportCommitted');
    expect(screen.status).toBe(200);
    expect(JSON.stringify(screen.body)).not.toContain('UPI-SHOP 1999');

    // A row of the import edited in the database: the export fails at the import's line.
    await t.platform.db.query(
      `UPDATE events SET data = jsonb_set(data, '{rows,0,amount}', '1')
        WHERE type = 'ImportCommitted' AND metadata->>'userId' = $1`,
      [banker],
    );
    const edited = path.join(dir, 'banker-edited.jsonl');
    await writeFile(edited, (await t.as(banker).get('/api/export/history')).text);
    const refused = run(edited, '--public-key', key);
    expect(refused.code).toBe(1);
    expect(refused.out).toBe(
      `FAILED at line ${importLine}: line ${importLine} changed after it was recorded: it no longer hashes to its chain link\n`,
    );
  }, 120_000);

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
