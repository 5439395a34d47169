import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareExports, verifyExport } from '@kosh/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Method } from '../testing/client';
import { testClock } from '../testing/clock';
import { loanInput } from '../testing/fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { nodeExportCrypto } from './verify-export';

/** A clock the test moves by hand: a command and the reads right after it share one instant. */
const clock = testClock('2026-01-10T04:00:00.000Z');
const tick = (minutes = 1) => clock.advance(minutes * 60_000).toISOString();

const CLI = fileURLToPath(new URL('./verify-export-cli.ts', import.meta.url));

let t: TestApp;
const alice = randomUUID();
const bob = randomUUID();

type Entry = {
  position: string;
  recorded_at: string;
  stream: string;
  type: string;
  summary: string;
  changes: { field: string; from: unknown; to: unknown }[];
  correlation_id: string;
};
type Page = { entries: Entry[]; next_cursor: string | null };

/** Waits until the history read model holds every event written so far. */
async function settle() {
  expect(await t.caughtUp(['history'])).toBe(true);
}

async function timeline(userId: string, query = '') {
  await settle();
  const answer = await t.as(userId).get(`/api/history${query}`);
  expect(answer.status).toBe(200);
  return answer.body.data as Page;
}

// Sent without an end date, which the server derives: loans made from it move their start and tenure.
const homeLoan = loanInput({ end_date: undefined });

beforeAll(async () => {
  t = await createTestApp({ clock });
  await t.signedInHeader(alice);
  await t.signedInHeader(bob);
});

afterAll(async () => {
  await t?.close();
});

describe('the timeline', () => {
  let txnId = '';
  let loanId = '';

  it('shows a recorded, edited (C→D) and deleted transaction with exact diffs, newest first', async () => {
    tick();
    const created = await t.as(alice).post('/api/transactions', {
      notes: 'Salary',
      transaction_type: 'C',
      transaction_date: '2026-01-05',
      amount: 1500.5,
    });
    expect(created.status).toBe(201);
    txnId = created.body.data.transaction.id;
    const at = tick();
    expect(
      (
        await t.as(alice).put(`/api/transactions/${txnId}`, {
          notes: 'Salary',
          transaction_type: 'D',
          transaction_date: '2026-01-05',
          amount: 200,
        })
      ).status,
    ).toBe(200);
    tick();
    expect((await t.as(alice).delete(`/api/transactions/${txnId}`)).status).toBe(200);

    const { entries } = await timeline(alice, `?stream=transaction:${txnId}`);
    expect(entries.map((e) => [e.type, e.summary, e.changes])).toEqual([
      [
        'TransactionDeleted',
        'Debit of ₹200.00 deleted',
        [
          { field: 'Type', from: 'Debit', to: null },
          { field: 'Date', from: '2026-01-05', to: null },
          { field: 'Amount', from: 200, to: null },
          { field: 'Notes', from: 'Salary', to: null },
        ],
      ],
      [
        'TransactionUpdated',
        'Transaction edited (Type, Amount)',
        [
          { field: 'Type', from: 'Credit', to: 'Debit' },
          { field: 'Amount', from: 1500.5, to: 200 },
        ],
      ],
      [
        'TransactionRecorded',
        'Credit of ₹1,500.50 recorded',
        [
          { field: 'Type', from: null, to: 'Credit' },
          { field: 'Date', from: null, to: '2026-01-05' },
          { field: 'Amount', from: null, to: 1500.5 },
          { field: 'Notes', from: null, to: 'Salary' },
        ],
      ],
    ]);
    expect(entries[1]).toMatchObject({ stream: `transaction:${txnId}`, recorded_at: at });
    expect(entries[1]?.correlation_id).toMatch(/^[0-9a-f-]{36}$/);
    // The item route answers the same, deleted or not.
    const item = await t.as(alice).get(`/api/transactions/${txnId}/history`);
    expect(item.status).toBe(200);
    expect(item.body.data.entries).toEqual(entries);
  });

  it('shows a loan created, edited, regenerated and deleted, schedule figures diffed version to version', async () => {
    tick();
    const created = await t.as(alice).post('/api/loans', homeLoan);
    expect(created.status).toBe(201);
    loanId = created.body.data.loan.id;
    tick();
    expect((await t.as(alice).put(`/api/loans/${loanId}`, { ...homeLoan, interest_rate: 9 })).status).toBe(
      200,
    );
    tick();
    expect((await t.as(alice).post(`/api/loans/${loanId}/amortization/regenerate`)).status).toBe(200);
    tick();
    expect((await t.as(alice).delete(`/api/loans/${loanId}`)).status).toBe(200);

    const { entries } = await timeline(alice, `?stream=loan:${loanId}&limit=100`);
    // The loan as the screens name it: account number · bank - branch.
    const loan = 'HL00012345 · State Bank of India - Head Office, Mumbai';
    expect(entries.map((e) => e.summary)).toEqual([
      `Loan ${loan} deleted`,
      `Schedule version 3 of loan ${loan}: Schedule regenerated`,
      `Schedule version 2 of loan ${loan}: Terms edited`,
      `Loan ${loan} edited (Interest Rate)`,
      `Schedule version 1 of loan ${loan}: Loan created`,
      `Loan ${loan} created`,
    ]);
    const [deleted, v3, v2, edited, v1, createdEntry] = entries as [Entry, Entry, Entry, Entry, Entry, Entry];
    expect(deleted.changes).toEqual([]);
    expect(edited.changes).toEqual([{ field: 'Interest Rate', from: 8.5, to: 9 }]);
    expect(v3.changes).toEqual([{ field: 'Schedule Version', from: 2, to: 3 }]);
    // 25 lakh over 240 months: EMI ₹21,695.58 at 8.5%, ₹22,493.15 at 9%.
    expect(v2.changes.map((c: { field: string }) => c.field)).toEqual([
      'Schedule Version',
      'EMI',
      'Interest',
      'Total EMI',
    ]);
    expect(v2.changes[0]).toEqual({ field: 'Schedule Version', from: 1, to: 2 });
    expect(v2.changes[1]).toEqual({ field: 'EMI', from: 21695.58, to: 22493.15 });
    expect(v1.changes[0]).toEqual({ field: 'Schedule Version', from: null, to: 1 });
    expect(createdEntry.changes).toEqual([
      { field: 'Bank', from: null, to: expect.any(String) },
      { field: 'Loan Type', from: null, to: expect.any(String) },
      { field: 'Account Number', from: null, to: 'HL00012345' },
      { field: 'Short Description', from: null, to: 'Flat in Pune' },
      { field: 'Principal Amount', from: null, to: 2500000 },
      { field: 'Processing Fee', from: null, to: 10000 },
      { field: 'Interest Rate', from: null, to: 8.5 },
      { field: 'Interest rate is', from: null, to: 'Yearly' },
      { field: 'Duration', from: null, to: 20 },
      { field: 'Duration in', from: null, to: 'Years' },
      { field: 'Start Date', from: null, to: '2025-03-15' },
      { field: 'End Date', from: null, to: '2045-03-15' },
      { field: 'GST applies to the interest', from: null, to: false },
      { field: 'GST Percentage', from: null, to: 0 },
      { field: 'EMIs are auto-debited from my bank account', from: null, to: true },
      { field: 'GST (18%) is charged on top of the processing fee', from: null, to: true },
    ]);
    const item = await t.as(alice).get(`/api/loans/${loanId}/history?limit=100`);
    expect(item.body.data.entries).toEqual(entries);
  });

  it('lists every schedule version of the loan (deleted or not) and diffs two of them', async () => {
    const versions = await t.as(alice).get(`/api/loans/${loanId}/amortization/versions`);
    expect(versions.status).toBe(200);
    expect(
      versions.body.data.versions.map((v: { version: number; reason: string; emi: number }) => [
        v.version,
        v.reason,
        v.emi,
      ]),
    ).toEqual([
      [1, 'created', 21695.58],
      [2, 'updated', 22493.15],
      [3, 'regenerated', 22493.15],
    ]);
    const diff = await t.as(alice).get(`/api/loans/${loanId}/amortization/diff?from=1&to=2`);
    expect(diff.status).toBe(200);
    const { changes, rows, from, to } = diff.body.data;
    expect([from.version, to.version]).toEqual([1, 2]);
    expect(changes.emi).toEqual({ from: 21695.58, to: 22493.15, difference: 797.57 });
    expect(changes.tenure).toEqual({ from: 240, to: 240, difference: 0 });
    expect(changes.total_interest.difference).toBeCloseTo(to.total_interest - from.total_interest, 2);
    expect(changes.total_outflow.from).toBe(from.total_outflow);
    // A new rate changes every instalment's split.
    expect(rows).toHaveLength(240);
    expect(rows[0]).toMatchObject({
      payment_number: 1,
      from: { emi: 21695.58, emi_date: '2025-04-15' },
      to: { emi: 22493.15, emi_date: '2025-04-15' },
    });
    const same = await t.as(alice).get(`/api/loans/${loanId}/amortization/diff?from=2&to=3`);
    expect(same.body.data.rows).toEqual([]);
    expect(same.body.data.changes.emi.difference).toBe(0);
    const bad = await t.as(alice).get(`/api/loans/${loanId}/amortization/diff?from=9&to=x`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { field: 'from', message: 'Must be a schedule version of this loan' },
      { field: 'to', message: 'Must be a schedule version of this loan' },
    ]);
    expect((await t.as(bob).get(`/api/loans/${loanId}/amortization/versions`)).status).toBe(404);
    expect((await t.as(bob).get(`/api/loans/${loanId}/amortization/diff?from=1&to=2`)).status).toBe(404);
  });

  it('shows profile edits and never a secret', async () => {
    tick();
    const edited = await t.as(alice).put('/api/auth/profile', {
      first_name: 'Alice',
      last_name: 'Rao',
      email: `${alice}@example.test`,
    });
    expect(edited.status).toBe(200);
    const { entries } = await timeline(alice, '?stream=profile');
    expect(entries[0]).toMatchObject({
      type: 'ProfileUpdated',
      stream: 'profile',
      changes: [
        { field: 'First Name', from: 'Test', to: 'Alice' },
        { field: 'Last Name', from: 'User', to: 'Rao' },
      ],
    });
    const everything = JSON.stringify((await timeline(alice, '?limit=100')).entries);
    expect(everything).not.toMatch(/passwordHash|tokenHash|sealedToken|not-a-password/);
    const exported = await t.as(alice).get('/api/export/history');
    expect(exported.text).not.toMatch(/passwordHash|tokenHash|sealedToken|not-a-password/);
  });

  it('shows a lender and a loan type the user added, to that user only', async () => {
    tick();
    expect(
      (await t.as(alice).post('/api/banks', { bank_name: 'Kosh Co-op Bank', branch_name: 'Pune' })).status,
    ).toBe(201);
    tick();
    expect((await t.as(alice).post('/api/banks/loan-types', { type_name: 'Gold Loan' })).status).toBe(201);
    const added = (await timeline(alice, '?limit=2')).entries;
    expect(added.map((e) => [e.type, e.summary, e.changes])).toEqual([
      ['LoanTypeAdded', 'Loan type Gold Loan added', [{ field: 'Loan Type', from: null, to: 'Gold Loan' }]],
      [
        'BankAdded',
        'Bank Kosh Co-op Bank added',
        [
          { field: 'Bank Name', from: null, to: 'Kosh Co-op Bank' },
          { field: 'Branch Name', from: null, to: 'Pune' },
        ],
      ],
    ]);
    expect(added[0]?.stream).toMatch(/^loan_type:\d+$/);
    const bobSees = JSON.stringify((await timeline(bob, '?limit=100')).entries);
    expect(bobSees).not.toContain('Kosh Co-op Bank');
  });

  it('pages newest first with a cursor and filters by type and time', async () => {
    const all = (await timeline(alice, '?limit=100')).entries;
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: Page = await timeline(alice, `?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.entries.length).toBeLessThanOrEqual(4);
      seen.push(...page.entries.map((e) => e.position));
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(all.map((e) => e.position));
    expect([...seen].sort().reverse()).toEqual(seen);
    const updates = (await timeline(alice, '?type=LoanUpdated')).entries;
    expect(updates.map((e) => e.type)).toEqual(['LoanUpdated']);
    const first = all[all.length - 1] as Entry;
    const upTo = (await timeline(alice, `?to=${encodeURIComponent(first.recorded_at)}`)).entries;
    expect(upTo.every((e) => e.recorded_at <= first.recorded_at)).toBe(true);
    expect((await timeline(alice, '?from=2027-01-01')).entries).toEqual([]);
  });

  it("answers 422 with per-field messages for bad filters, and 404 for another user's item", async () => {
    const bad = await t.as(alice).get('/api/history?stream=loans:1&limit=0&from=yesterday&type=Nope');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'from',
      'limit',
      'stream',
      'type',
    ]);
    expect((await t.as(bob).get(`/api/loans/${loanId}/history`)).status).toBe(404);
    expect((await t.as(bob).get(`/api/transactions/${txnId}/history`)).status).toBe(404);
    expect((await t.as(bob).get('/api/loans/not-a-uuid/history')).status).toBe(404);
    const bobs = (await timeline(bob, `?stream=loan:${loanId}`)).entries;
    expect(bobs).toEqual([]);
    const bobAll = JSON.stringify((await timeline(bob, '?limit=100')).entries);
    expect(bobAll).not.toContain(loanId);
    expect(bobAll).not.toContain(txnId);
    expect((await t.anonymous.get('/api/history')).status).toBe(401);
  });
});

/** Every as-of route, as the screens call them. */
function reads(loanIds: readonly string[]): string[] {
  return [
    '/api/ledger?month=1&year=2026',
    '/api/ledger?month=4&year=2025',
    '/api/ledger',
    '/api/ledger/periods',
    '/api/loans',
    '/api/loans?sortBy=principal_amount&sortOrder=ASC&search=HL',
    '/api/loans/stats',
    '/api/transactions',
    '/api/transactions?transaction_type=D&sort_by=amount',
    '/api/transactions/stats',
    ...loanIds.flatMap((id) => [`/api/loans/${id}`, `/api/loans/${id}/amortization`]),
  ];
}

type LiveAnswer = { status: number; body: unknown };

/** Error answers carry the wall-clock time they were sent. */
const withoutTimestamp = (body: { timestamp?: string }) => ({ ...body, timestamp: undefined });

const withAsOf = (url: string, asOf: string) =>
  `${url}${url.includes('?') ? '&' : '?'}as_of=${encodeURIComponent(asOf)}`;

describe('as of any instant', () => {
  const carol = randomUUID();

  it('answers exactly what each route answered live at every step of a long history', async () => {
    await t.signedInHeader(carol);
    const loanIds: string[] = [];
    const txnIds: string[] = [];
    const steps: { at: string; answers: Map<string, LiveAnswer> }[] = [];
    const capture = async () => {
      const at = clock().toISOString();
      const answers = new Map<string, LiveAnswer>();
      for (const url of reads(loanIds)) {
        const live = await t.as(carol).get(url);
        answers.set(url, { status: live.status, body: withoutTimestamp(live.body) });
      }
      steps.push({ at, answers });
    };
    const step = async (method: Method, url: string, body?: unknown) => {
      tick(7);
      const answer = await t.as(carol).send(method, url, body);
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
      await capture();
      return answer;
    };

    await capture();
    const first = await step('POST', '/api/loans', homeLoan);
    loanIds.push(first.body.data.loan.id);
    const second = await step('POST', '/api/loans', {
      ...homeLoan,
      account_number: 'CAR77',
      principal_amount: 800000,
      duration: 5,
      start_date: '2025-11-01',
    });
    loanIds.push(second.body.data.loan.id);
    for (const [i, amount] of [1200, 99.99, 45000].entries()) {
      const t1 = await step('POST', '/api/transactions', {
        notes: `entry ${i}`,
        transaction_type: i % 2 === 0 ? 'C' : 'D',
        transaction_date: `2026-01-0${i + 1}`,
        amount,
      });
      txnIds.push(t1.body.data.transaction.id);
    }
    await step('PUT', `/api/loans/${loanIds[0]}`, {
      ...homeLoan,
      interest_rate: 7.95,
      account_number: 'HLNEW',
    });
    await step('POST', `/api/loans/${loanIds[1]}/amortization/regenerate`);
    await step('PUT', `/api/transactions/${txnIds[0]}`, {
      notes: 'entry 0',
      transaction_type: 'D',
      transaction_date: '2025-12-31',
      amount: 1200,
    });
    await step('DELETE', `/api/transactions/${txnIds[1]}`);
    await step('DELETE', `/api/loans/${loanIds[1]}`);
    tick(60 * 24 * 40); // into February: "today" moves for the live answers
    await step('POST', '/api/transactions', {
      notes: 'Feb',
      transaction_type: 'C',
      transaction_date: '2026-02-14',
      amount: 10,
    });

    await settle();
    for (const { at, answers } of steps) {
      for (const [url, live] of answers) {
        const past = await t.as(carol).get(withAsOf(url, at));
        expect({ url, at, status: past.status, body: withoutTimestamp(past.body) }).toEqual({
          url,
          at,
          status: live.status,
          body: live.body,
        });
      }
    }
  });

  it('is empty before the account existed, 422 in the future or malformed, and never shows another user', async () => {
    const before = await t.as(carol).get('/api/loans?as_of=2020-01-01');
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual([]);
    const ledger = await t.as(carol).get('/api/transactions/stats?as_of=2020-01-01T10:00');
    expect(ledger.body.data.stats.total_transactions).toBe(0);
    const future = await t.as(carol).get('/api/ledger?as_of=2099-01-01');
    expect(future.status).toBe(422);
    expect(future.body.errors).toEqual([{ field: 'as_of', message: 'As of cannot be in the future' }]);
    const bad = await t.as(carol).get('/api/loans/stats?as_of=2026-02-30');
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('as_of');
    const bobsView = await t.as(bob).get(`/api/loans?as_of=${encodeURIComponent(clock().toISOString())}`);
    expect(bobsView.body.data).toEqual([]);
  });
});

describe('the export', () => {
  it('verifies, and altering, removing or swapping any line fails at that line', async () => {
    await settle();
    const key = (await t.as(alice).get('/api/export/public-key')).body.data.public_key as string;
    const exported = await t.as(alice).get('/api/export/history');
    expect(exported.status).toBe(200);
    expect(exported.headers['content-type']).toContain('application/x-ndjson');
    const text = exported.text;
    const ok = await verifyExport(text, nodeExportCrypto, key);
    const lines = text.trimEnd().split('\n');
    const events = lines.length - 2;
    expect(ok).toMatchObject({ ok: true, count: events, publicKey: key, userId: alice });
    expect(events).toBe((await timeline(alice, '?limit=100')).entries.length);

    const check = (changed: string[]) => verifyExport(`${changed.join('\n')}\n`, nodeExportCrypto, key);
    for (let i = 0; i < lines.length; i++) {
      const line = i + 1;
      const altered = [...lines];
      altered[i] = (lines[i] as string).replace(/"(exported_at|recorded_at)":"2/, '"$1":"3');
      expect(altered[i]).not.toBe(lines[i]);
      expect(await check(altered), `altered line ${line}`).toMatchObject({ ok: false, line });
      const removed = lines.filter((_, j) => j !== i);
      expect(await check(removed), `removed line ${line}`).toMatchObject({ ok: false, line });
      if (i + 1 < lines.length) {
        const swapped = [...lines];
        [swapped[i], swapped[i + 1]] = [lines[i + 1] as string, lines[i] as string];
        expect(await check(swapped), `swapped lines ${line}, ${line + 1}`).toMatchObject({ ok: false, line });
      }
    }
    // Signed by another key than the server's: refused even though the chain holds.
    expect(await verifyExport(text, nodeExportCrypto, 'AAAA'.repeat(11))).toMatchObject({ ok: false });
  });

  it('is checked by `npm run verify-export`: OK, or the first bad line', async () => {
    await settle();
    const key = (await t.as(alice).get('/api/export/public-key')).body.data.public_key as string;
    const text = (await t.as(alice).get('/api/export/history')).text;
    const dir = await mkdtemp(path.join(tmpdir(), 'kosh-export-'));
    try {
      const good = path.join(dir, 'good.jsonl');
      const bad = path.join(dir, 'bad.jsonl');
      await writeFile(good, text);
      const lines = text.trimEnd().split('\n');
      lines[2] = (lines[2] as string).replace('"kind":"event"', '"kind":"event","extra":1');
      await writeFile(bad, `${lines.join('\n')}\n`);
      const run = (file: string) =>
        spawnSync(process.execPath, ['--import', 'tsx', CLI, file, '--public-key', key], {
          encoding: 'utf8',
        });
      const ok = run(good);
      expect(ok.stdout).toMatch(/^OK: \d+ events, head [0-9a-f]{64}/);
      expect(ok.status).toBe(0);
      const failed = run(bad);
      expect(failed.stdout).toBe('FAILED at line 3: line 3 was altered\n');
      expect(failed.status).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("holds only the caller's events", async () => {
    const bobs = (await t.as(bob).get('/api/export/history')).text;
    const lines = bobs
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(
      lines
        .filter((l) => l.kind === 'event')
        .every((l) => l.event.metadata.userId === bob || l.event.data.userId === bob),
    ).toBe(true);
    expect(bobs).not.toContain(alice);
  });

  it("carries each event's link in the store's per-user chain, and a later export shows a rewritten chain", async () => {
    const dave = randomUUID();
    await t.signedInHeader(dave);
    const exportOf = async () => {
      await settle();
      const text = (await t.as(dave).get('/api/export/history')).text;
      const result = await verifyExport(text, nodeExportCrypto);
      if (!result.ok) throw new Error(`export fails at line ${result.line}: ${result.reason}`);
      return { text, result };
    };
    for (const amount of [10, 20]) {
      tick();
      await t.as(dave).post('/api/transactions', {
        notes: 'x',
        transaction_type: 'C',
        transaction_date: '2026-01-02',
        amount,
      });
    }
    const earlier = await exportOf();
    const links = earlier.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((l) => l.kind === 'event')
      .map((l) => l.chain.seq);
    expect(links).toEqual(links.map((_: number, i: number) => i + 1));
    expect(earlier.result.chainHead?.seq).toBe(links.length);

    tick();
    await t.as(dave).post('/api/transactions', {
      notes: 'y',
      transaction_type: 'D',
      transaction_date: '2026-01-03',
      amount: 5,
    });
    const later = await exportOf();
    expect(compareExports(earlier.result, earlier.text, later.text, later.result)).toBeNull();

    // The history read model and the store's chain agree on whose every event is.
    const { rows: disagreements } = await t.platform.db.query(
      `SELECT h.event_id FROM history_events h
         LEFT JOIN event_chain c ON c.global_position = split_part(h.position, ':', 2)::bigint
        WHERE c.user_id IS DISTINCT FROM h.user_id`,
    );
    expect(disagreements).toEqual([]);

    // Someone with the database edits dave's first transaction (after registration, verification and
    // his fixture session) and recomputes his whole chain.
    const db = t.platform.db;
    const verifyChain = async () =>
      (await db.query<{ broken: number | null }>('SELECT kosh_chain_verify($1) AS broken', [dave])).rows[0]
        ?.broken;
    expect(await verifyChain()).toBeNull();
    await db.query(
      `UPDATE events SET data = jsonb_set(data, '{amount}', '1') WHERE global_position =
         (SELECT global_position FROM event_chain WHERE user_id = $1 AND seq = 4)`,
      [dave],
    );
    expect(await verifyChain()).toBe(4);
    await db.query(
      `DO $$ DECLARE r record; v_prev text := repeat('0', 64); BEGIN
         FOR r IN SELECT c.global_position, e.event_id, e.stream_id, e.stream_version, e.type, e.data, e.metadata
                    FROM event_chain c JOIN events e USING (global_position)
                   WHERE c.user_id = '${dave}' ORDER BY c.seq LOOP
           v_prev := kosh_chain_hash(v_prev, r.event_id, r.stream_id, r.stream_version, r.type, r.data, r.metadata);
           UPDATE event_chain SET hash = v_prev WHERE global_position = r.global_position;
         END LOOP;
       END $$`,
    );
    expect(await verifyChain()).toBeNull();
    // The timeline still shows the event as recorded: it no longer hashes to the rewritten link.
    await settle();
    const stale = (await t.as(dave).get('/api/export/history')).text;
    expect(await verifyExport(stale, nodeExportCrypto)).toMatchObject({
      ok: false,
      line: 5,
      reason: 'line 5 changed after it was recorded: it no longer hashes to its chain link',
    });
    // Rebuilt from the edited log, the export holds together; only the earlier one shows the edit.
    await t.platform.runner.rebuild('history');
    const rewritten = await exportOf();
    expect(compareExports(earlier.result, earlier.text, rewritten.text, rewritten.result)).toMatch(
      /^line \d+ \(chain link 4, TransactionRecorded\) differs from line \d+ of the earlier export: its content changed/,
    );
  });
});
