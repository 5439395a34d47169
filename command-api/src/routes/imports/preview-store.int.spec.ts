import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { accountInput } from '../../testing/fixtures';
import { statementForm } from '../../testing/multipart';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { decodePreviewRows } from './preview-store';

/**
 * Issue 30 item 11: a preview's rows are stored apart from its summary, packed and deflated
 * (preview-store.ts). The answers are the same as before; a preview stored before, its rows
 * inside the `preview` JSON, is still read, listed and committed.
 */
const HEADER = 'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance';

function statement(count: number): string {
  let balance = 1_000_050;
  const lines = Array.from({ length: count }, (_, i) => {
    const paise = 10_000 + i * 100;
    balance -= paise;
    const day = String(1 + (i % 28)).padStart(2, '0');
    // Two spaces: the stored notes (spaces collapsed) differ from the narration.
    return `${day}/03/25,UPI-SHOP${i}  shop@ybl-UTIB0000000-5274${String(i).padStart(8, '0')}-Pay,${i},${day}/03/25,${(paise / 100).toFixed(2)},,${(balance / 100).toFixed(2)}`;
  });
  return `HDFC BANK Ltd.\r\n\r\n${HEADER}\r\n${lines.join('\r\n')}\r\n`;
}

describe('import preview storage', () => {
  let t: TestApp;
  const alice = randomUUID();

  beforeAll(async () => {
    t = await createTestApp({ clock: testClock('2025-03-20T04:00:00.000Z', { step: 1000 }) });
  });
  afterAll(() => t?.close());

  async function upload(): Promise<{ accountId: string; id: string }> {
    const account = await t.as(alice).post('/api/accounts', accountInput());
    expect(account.status).toBe(201);
    const accountId = account.body.data.account.id as string;
    const body = statementForm('march.csv', statement(30), { account_id: accountId });
    const res = await t.as(alice).post('/api/imports', body.payload, { headers: body.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { accountId, id: res.body.data.id as string };
  }

  it('keeps the rows apart, compact, and answers every row with its notes, status and reason', async () => {
    const { id } = await upload();
    const { rows } = await t.platform.db.query<{ preview: string; rows: Buffer }>(
      'SELECT preview, rows FROM import_previews WHERE id = $1',
      [id],
    );
    expect(JSON.parse(rows[0]!.preview)).not.toHaveProperty('rows');
    expect(rows[0]!.rows.length).toBeGreaterThan(0);
    const res = await t.as(alice).get(`/api/imports/${id}`);
    expect(res.status).toBe(200);
    const got = res.body.data.import;
    expect(got.total_rows).toBe(30);
    expect(got.rows).toHaveLength(30);
    expect(got.rows[3]).toMatchObject({
      index: 3,
      status: 'new',
      reason: 'Not in the account yet',
      amount: -103,
      narration: 'UPI-SHOP3  shop@ybl-UTIB0000000-527400000003-Pay',
      decision: 'import',
      match_emi: false,
    });
    expect(got.rows[3].notes).not.toContain('  ');
    const list = await t.as(alice).get('/api/imports');
    expect(list.body.data.imports.find((i: { id: string }) => i.id === id).total_rows).toBe(30);
  });

  it('reads, lists and commits a preview stored before, with its rows in the preview JSON', async () => {
    const { id } = await upload();
    const fresh = await t.as(alice).get(`/api/imports/${id}`);
    // Turn the stored preview back into the former layout: one JSON document, no `rows` column.
    const { rows } = await t.platform.db.query<{ preview: string }>(
      'SELECT preview FROM import_previews WHERE id = $1',
      [id],
    );
    const wire = fresh.body.data.import.rows as Record<string, unknown>[];
    const put = await t.as(alice).put(`/api/imports/${id}`, {
      decisions: [{ index: 0, decision: 'skip' }],
    });
    expect(put.status).toBe(200);
    const stored = await t.platform.db.query<{ rows: Buffer }>(
      'SELECT rows FROM import_previews WHERE id = $1',
      [id],
    );
    const legacyRows = await decodePreviewRows(stored.rows[0]!.rows);
    const { totalRows: _n, ...summary } = JSON.parse(rows[0]!.preview);
    await t.platform.db.query('UPDATE import_previews SET preview = $2, rows = NULL WHERE id = $1', [
      id,
      JSON.stringify({ ...summary, rows: legacyRows }),
    ]);
    const again = await t.as(alice).get(`/api/imports/${id}`);
    expect(again.status).toBe(200);
    expect(again.body.data.import.rows[0].decision).toBe('skip');
    expect(again.body.data.import.rows.slice(1)).toEqual(wire.slice(1));
    const list = await t.as(alice).get('/api/imports');
    expect(list.body.data.imports.find((i: { id: string }) => i.id === id).total_rows).toBe(30);
    const commit = await t.as(alice).post(`/api/imports/${id}/commit`, {});
    expect(commit.status, JSON.stringify(commit.body)).toBe(200);
    const after = await t.as(alice).get(`/api/imports/${id}`);
    const recorded = after.body.data.import.rows.filter(
      (r: { transaction_id: string | null }) => r.transaction_id,
    );
    expect(recorded).toHaveLength(29);
  });
});
