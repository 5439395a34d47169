import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { statementForm } from '../../testing/multipart';
import { createTestApp, type TestApp } from '../../testing/test-app';

/** A layout no preset knows: one amount column with its own Dr/Cr column. */
const HEADER = 'Txn Dt,Particulars,Amount (INR),Type,Running Bal';
const MAPPING = {
  date: 'Txn Dt',
  narration: 'Particulars',
  amount: 'Amount (INR)',
  dr_cr: 'Type',
  balance: 'Running Bal',
};
const MARCH = `${HEADER}\r\n05/03/2025,Coffee,120.00,DR,880.00\r\n06/03/2025,Refund,20.00,CR,900.00\r\n`;
const LATER = `Statement of account\r\n\r\n${HEADER}\r\n07/03/2025,Tea,30.00,DR,870.00\r\n`;

/** Issue 30 item 3: a custom column mapping is saved per account and proposed for the same header shape. */
describe.each(['postgres', 'embedded'] as const)('saved column mappings (%s)', (mode) => {
  const clock = testClock('2025-03-20T04:00:00.000Z', { step: 1000 });
  let t: TestApp;
  const owner = randomUUID();
  let accountId = '';
  let otherAccountId = '';

  const open = async (name: string) => {
    const res = await t.as(owner).post('/api/accounts', {
      name,
      kind: 'savings',
      opening_balance: '1000',
      opening_date: '2025-03-01',
    });
    expect(res.status).toBe(201);
    return res.body.data.account.id as string;
  };
  const upload = (account: string, text: string, fields: Record<string, string> = {}) => {
    const body = statementForm('statement.csv', text, { account_id: account, ...fields });
    return t.as(owner).post('/api/imports', body.payload, { headers: body.headers });
  };
  const savedEvents = async () => {
    const { rows } = await t.platform.db.query<{ data: { headerKey: string; mapping: object } }>(
      "SELECT data FROM events WHERE type = 'AccountImportMappingSaved' AND stream_id = $1",
      [`account-${accountId}`],
    );
    return rows.map((r) => r.data);
  };

  beforeAll(async () => {
    t = await createTestApp({ mode, clock });
    accountId = await open('Co-op Bank Savings');
    otherAccountId = await open('Wallet');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a layout it does not know until the columns are chosen', async () => {
    const res = await upload(accountId, MARCH);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe('file');
  });

  it('remembers the columns chosen for the account when the import is committed', async () => {
    const res = await upload(accountId, MARCH, { mapping: JSON.stringify(MAPPING) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.import).toMatchObject({ mapping_source: 'custom', preset: null });
    expect(res.body.data.import.counts.new).toBe(2);
    const committed = await t.as(owner).post(`/api/imports/${res.body.data.id}/commit`, {});
    expect(committed.status, JSON.stringify(committed.body)).toBe(200);
    expect(committed.body.message).toBe(
      '2 transactions imported; the column mapping is remembered for this account',
    );
    expect(await savedEvents()).toEqual([
      expect.objectContaining({
        headerKey: 'txndt|particulars|amountinr|type|runningbal',
        mapping: {
          date: 'Txn Dt',
          narration: 'Particulars',
          amount: 'Amount (INR)',
          drCr: 'Type',
          balance: 'Running Bal',
        },
      }),
    ]);
    expect(await t.caughtUp(['history'])).toBe(true);
    const history = await t.as(owner).get(`/api/history?stream=account:${accountId}`);
    const entry = (history.body.data.entries as { type: string; summary: string; changes: object[] }[]).find(
      (e) => e.type === 'AccountImportMappingSaved',
    );
    expect(entry?.summary).toBe('Statement columns remembered for Co-op Bank Savings');
    expect(entry?.changes).toContainEqual({ field: 'Dr/Cr Column', from: null, to: 'Type' });
  });

  it('proposes them for the next file of the same header shape, for that account only', async () => {
    const next = await upload(accountId, LATER);
    expect(next.status, JSON.stringify(next.body)).toBe(201);
    expect(next.body.data.import).toMatchObject({
      mapping_source: 'saved',
      header_line: 3,
      mapping: expect.objectContaining({ date: 'Txn Dt', amount: 'Amount (INR)', dr_cr: 'Type' }),
    });
    const rows = (await t.as(owner).get(`/api/imports/${next.body.data.id}`)).body.data.import.rows;
    expect(rows.map((r: { date: string; amount: number }) => [r.date, r.amount])).toEqual([
      ['2025-03-07', -30],
    ]);
    expect(next.body.data.import.balance_check.status).toBe('ok');
    // Committing with the saved mapping saves nothing again.
    const committed = await t.as(owner).post(`/api/imports/${next.body.data.id}/commit`, {});
    expect(committed.body.message).toBe('1 transaction imported');
    expect(await savedEvents()).toHaveLength(1);

    expect((await upload(otherAccountId, LATER)).status).toBe(422);
    const otherShape = LATER.replace(HEADER, `${HEADER},Branch`).replace('870.00', '870.00,Pune');
    expect((await upload(accountId, otherShape)).status).toBe(422);
    // A preset asked for explicitly is not overridden by the saved mapping.
    expect((await upload(accountId, LATER, { preset: 'hdfc' })).status).toBe(422);
  });

  it('remembers the mapping as edited in the preview', async () => {
    const third = await open('Joint account');
    const { balance: _, ...withoutBalance } = MAPPING;
    const res = await upload(third, MARCH, { mapping: JSON.stringify(withoutBalance) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const edited = await t.as(owner).put(`/api/imports/${res.body.data.id}`, { mapping: MAPPING });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.import).toMatchObject({
      mapping_source: 'custom',
      balance_check: { status: 'ok' },
    });
    expect((await t.as(owner).post(`/api/imports/${res.body.data.id}/commit`, {})).status).toBe(200);
    const { rows } = await t.platform.db.query<{ data: { mapping: Record<string, string> } }>(
      "SELECT data FROM events WHERE type = 'AccountImportMappingSaved' AND stream_id = $1",
      [`account-${third}`],
    );
    expect(rows.map((r) => r.data.mapping.balance)).toEqual(['Running Bal']);
    const next = await upload(third, LATER);
    expect(next.body.data.import).toMatchObject({ mapping_source: 'saved', balance_check: { status: 'ok' } });
  });

  it('keeps the account editable with the ETag the read model answers after the save', async () => {
    const got = await t.as(owner).get(`/api/accounts/${accountId}`);
    const etag = String(got.headers.etag);
    const edited = await t
      .as(owner)
      .put(
        `/api/accounts/${accountId}`,
        { name: 'Co-op Savings', kind: 'savings', opening_balance: '1000', opening_date: '2025-03-01' },
        { headers: { 'if-match': etag } },
      );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  });
});
