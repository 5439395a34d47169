import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { accountInput } from '../../testing/fixtures';
import { statementForm } from '../../testing/multipart';
import { createTestApp, type TestApp } from '../../testing/test-app';

/**
 * Issue 30, after the import's first cut: an imported row is edited and deleted like any
 * transaction (its events go to its import's stream), an undo removes what is left of the
 * batch, edited rows included, and commits into one account are serialised (no row twice).
 * On PostgreSQL and on the embedded store.
 */
const HEADER = 'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance';

/** An HDFC statement of `count` debits from 01/03/25 (balances from ₹10,000.50). */
function statement(count: number, tag: string): string {
  let balance = 1_000_050;
  const lines = Array.from({ length: count }, (_, i) => {
    const paise = 10_000 + i * 100;
    balance -= paise;
    const day = String(1 + (i % 28)).padStart(2, '0');
    return `${day}/03/25,UPI-${tag}${i}-shop@ybl-UTIB0000000-5274${String(i).padStart(8, '0')}-Pay,${i},${day}/03/25,${(paise / 100).toFixed(2)},,${(balance / 100).toFixed(2)}`;
  });
  return `HDFC BANK Ltd.\r\n\r\n${HEADER}\r\n${lines.join('\r\n')}\r\n`;
}

describe.each(['postgres', 'embedded'] as const)('imported rows and commits (%s)', (mode) => {
  let t: TestApp;
  const alice = randomUUID();
  const bob = randomUUID();

  beforeAll(async () => {
    t = await createTestApp({ mode, clock: testClock('2025-03-20T04:00:00.000Z', { step: 1000 }) });
  });
  afterAll(() => t?.close());

  async function openAccount(userId: string): Promise<string> {
    const res = await t.as(userId).post('/api/accounts', accountInput());
    expect(res.status).toBe(201);
    return res.body.data.account.id as string;
  }

  async function preview(userId: string, accountId: string, text: string): Promise<string> {
    const body = statementForm('march.csv', text, { account_id: accountId });
    const res = await t.as(userId).post('/api/imports', body.payload, { headers: body.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  }

  async function rowsOf(userId: string, accountId: string) {
    const res = await t.as(userId).get(`/api/transactions?limit=100&account_id=${accountId}`);
    expect(res.status).toBe(200);
    return res.body.data.transactions as { id: string; notes: string; amount: number }[];
  }

  async function committedIds(userId: string, id: string): Promise<string[]> {
    const res = await t.as(userId).get(`/api/imports/${id}`);
    return (res.body.data.import.rows as { transaction_id: string | null }[])
      .map((row) => row.transaction_id)
      .filter((x): x is string => x !== null);
  }

  it('edits and deletes an imported row like any transaction; an undo then removes the rest, edited included', async () => {
    const account = await openAccount(alice);
    const id = await preview(alice, account, statement(4, 'A'));
    const commit = await t.as(alice).post(`/api/imports/${id}/commit`, {});
    expect(commit.status, JSON.stringify(commit.body)).toBe(200);
    const [first, second, third] = await committedIds(alice, id);

    const got = await t.as(alice).get(`/api/transactions/${first}`);
    expect(got.status).toBe(200);
    const etag = got.headers.etag as string;
    const edited = await t.as(alice).put(
      `/api/transactions/${first}`,
      {
        notes: 'Groceries, corrected',
        transaction_type: 'D',
        transaction_date: '2025-03-02',
        amount: '123.45',
      },
      { headers: { 'if-match': etag } },
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.transaction).toMatchObject({ notes: 'Groceries, corrected', amount: 123.45 });
    expect(edited.headers.etag).not.toBe(etag);
    // The version the client saw moved: 409, and nothing recorded.
    const stale = await t
      .as(alice)
      .put(
        `/api/transactions/${first}`,
        { notes: 'Again', transaction_type: 'D', transaction_date: '2025-03-02', amount: '1.00' },
        { headers: { 'if-match': etag } },
      );
    expect(stale.status).toBe(409);
    // Another row of the same import is edited with its own version (the import's moved, not its own).
    const secondEtag = (await t.as(alice).get(`/api/transactions/${second}`)).headers.etag as string;
    const other = await t.as(alice).put(
      `/api/transactions/${second}`,
      {
        notes: 'Second, corrected',
        transaction_type: 'D',
        transaction_date: '2025-03-02',
        amount: '101.00',
      },
      { headers: { 'if-match': secondEtag } },
    );
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    // Someone else's imported row is not found.
    expect(
      (
        await t.as(bob).put(`/api/transactions/${first}`, {
          notes: 'Mine',
          transaction_type: 'D',
          transaction_date: '2025-03-02',
          amount: '1.00',
        })
      ).status,
    ).toBe(404);
    expect((await t.as(bob).delete(`/api/transactions/${third}`)).status).toBe(404);

    const deleted = await t.as(alice).delete(`/api/transactions/${third}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect((await t.as(alice).get(`/api/transactions/${third}`)).status).toBe(404);
    expect((await t.as(alice).delete(`/api/transactions/${third}`)).status).toBe(404);

    const book = await rowsOf(alice, account);
    expect(book).toHaveLength(3);
    expect(book.find((row) => row.id === first)).toMatchObject({
      notes: 'Groceries, corrected',
      amount: 123.45,
    });
    const register = await t.as(alice).get(`/api/accounts/${account}/register`);
    expect(register.status).toBe(200);
    expect(JSON.stringify(register.body)).toContain('Groceries, corrected');

    expect(await t.caughtUp(['history'])).toBe(true);
    const history = await t.as(alice).get(`/api/history?stream=import:${id}`);
    expect(history.status).toBe(200);
    const summaries = (history.body.data.entries as { summary: string }[]).map((e) => e.summary);
    expect(summaries).toEqual(
      expect.arrayContaining([
        'Imported transaction edited (Date, Amount, Notes)',
        expect.stringMatching(/^Imported debit of ₹[\d,.]+ deleted$/),
      ]),
    );

    // Rebuilt from the log, the read models hold the same rows, and the same note postings, each
    // with its row's date and instant recorded (transactions migration 015; one row's date moved).
    const snapshot = async () => ({
      rows: (
        await t.platform.db.query(
          `SELECT id, notes, amount::text, version FROM transactions WHERE import_id = $1::uuid ORDER BY id`,
          [id],
        )
      ).rows,
      postings: (
        await t.platform.db.query(
          `SELECT p.word, p.transaction_id::text AS id, p.transaction_date::text AS date, p.created_at,
                  p.transaction_date = t.transaction_date AND p.created_at = t.created_at AS keyed
             FROM transaction_note_word_rows p JOIN transactions t ON t.id = p.transaction_id
            WHERE t.import_id = $1::uuid ORDER BY p.transaction_id, p.word`,
          [id],
        )
      ).rows,
    });
    const live = await snapshot();
    expect(live.postings.length).toBeGreaterThan(live.rows.length);
    expect(live.postings.filter((p) => !p.keyed)).toEqual([]);
    for (const name of ['transactions', 'accounts', 'ledger']) await t.platform.runner.rebuild(name);
    expect(await snapshot()).toEqual(live);

    // The undo removes every row still in the book, the edited ones too; the deleted one was gone.
    const undo = await t.as(alice).post(`/api/imports/${id}/undo`, {});
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect(undo.body.data.removed).toBe(3);
    expect(await rowsOf(alice, account)).toEqual([]);
    expect((await t.as(alice).get(`/api/transactions/${first}`)).status).toBe(404);
    const afterUndo = await t.as(alice).put(`/api/transactions/${first}`, {
      notes: 'Back?',
      transaction_type: 'D',
      transaction_date: '2025-03-02',
      amount: '1.00',
    });
    expect(afterUndo.status).toBe(404);
  });

  it('records a preview committed twice at once, and two previews of one file committed at once, once', async () => {
    const account = await openAccount(alice);
    const text = statement(30, 'B');
    const id = await preview(alice, account, text);
    const [a, b] = await Promise.all([
      t.as(alice).post(`/api/imports/${id}/commit`, {}),
      t.as(alice).post(`/api/imports/${id}/commit`, {}),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await rowsOf(alice, account)).toHaveLength(30);

    // Two previews of an overlapping statement, each made before either commit: both say new.
    const other = await openAccount(alice);
    const [p1, p2] = [await preview(alice, other, text), await preview(alice, other, statement(40, 'B'))];
    const [c1, c2] = await Promise.all([
      t.as(alice).post(`/api/imports/${p1}/commit`, {}),
      t.as(alice).post(`/api/imports/${p2}/commit`, {}),
    ]);
    expect([c1.status, c2.status]).toEqual([200, 200]);
    const imported = [c1, c2].map((c) => Number(/^(\d+)/.exec(c.body.message)?.[1]));
    expect(imported.reduce((x, y) => x + y)).toBe(40);
    const rows = await rowsOf(alice, other);
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((row) => row.notes)).size).toBe(40);
  });
});
