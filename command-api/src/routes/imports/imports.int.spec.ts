import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { loanInput } from '../../testing/fixtures';
import { statementForm } from '../../testing/multipart';
import { createTestApp, type TestApp } from '../../testing/test-app';

const clock = testClock('2025-03-20T04:00:00.000Z', { step: 1000 });

let t: TestApp;
const alice = randomUUID();
const bob = randomUUID();

type Row = {
  index: number;
  line: number;
  status: string;
  reason: string | null;
  date: string;
  amount: number;
  notes: string;
  narration: string;
  decision: string | null;
  emi: { loan_id: string; emi_number: number } | null;
  transaction_id: string | null;
};
type Preview = {
  id: string;
  status: string;
  format: string;
  preset: { id: string; bank: string } | null;
  counts: Record<string, number>;
  balance_check: {
    status: string;
    first_mismatch: { line: number; difference: number; message: string } | null;
  };
  rows: Row[];
};

async function upload(
  userId: string,
  accountId: string,
  fileName: string,
  bytes: Buffer | string,
  extra = {},
) {
  const body = statementForm(fileName, bytes, { account_id: accountId, ...extra });
  return t.as(userId).post('/api/imports', body.payload, { headers: body.headers });
}

async function previewOf(userId: string, id: string): Promise<Preview> {
  const res = await t.as(userId).get(`/api/imports/${id}`);
  expect(res.status).toBe(200);
  return res.body.data.import as Preview;
}

async function uploaded(
  userId: string,
  accountId: string,
  fileName: string,
  bytes: string,
): Promise<Preview> {
  const res = await upload(userId, accountId, fileName, bytes);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return previewOf(userId, res.body.data.id);
}

async function openAccount(userId: string, opening = '10000.50', openingDate = '2025-02-01') {
  const res = await t.as(userId).post('/api/accounts', {
    name: `Savings ${randomUUID().slice(0, 6)}`,
    kind: 'savings',
    bank_name: 'HDFC Bank',
    last_four: '1234',
    opening_balance: opening,
    opening_date: openingDate,
  });
  expect(res.status).toBe(201);
  return res.body.data.account.id as string;
}

async function eventCount(): Promise<number> {
  const { rows } = await t.platform.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
  return rows[0]?.n ?? 0;
}

async function book(userId: string, query = '') {
  const res = await t.as(userId).get(`/api/transactions?limit=100${query}`);
  expect(res.status).toBe(200);
  return res.body.data.transactions as {
    id: string;
    notes: string;
    amount: number;
    account_id: string | null;
  }[];
}

const HDFC_HEADER = 'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance';
const PREAMBLE = 'HDFC BANK Ltd.\r\nStatement of account\r\nAccount No :50100012345678\r\n\r\n';

/** An HDFC statement of `rows` (date, narration, ref, debit, credit), balances from `opening`. */
function hdfc(rows: [string, string, string, string, string][], opening = 1000050, trailer = true): string {
  let balance = opening;
  const lines = rows.map(([date, narration, ref, debit, credit]) => {
    const paise = (cell: string) => Math.round(Number(cell.replace(/,/g, '') || 0) * 100);
    balance += paise(credit) - paise(debit);
    const cell = (text: string) => (text.includes(',') ? `"${text}"` : text);
    return `${date},${cell(narration)},${ref},${date},${cell(debit)},${cell(credit)},${(balance / 100).toFixed(2)}`;
  });
  return `${PREAMBLE}${HDFC_HEADER}\r\n${lines.join('\r\n')}\r\n${trailer ? '\r\nSTATEMENT SUMMARY :-\r\n' : ''}`;
}

const MARCH: [string, string, string, string, string][] = [
  [
    '01/03/25',
    'UPI-SWIGGY-swiggy@axisbank-UTIB0000000-527411112222-Dinner',
    '0000527411112222',
    '527.00',
    '',
  ],
  ['02/03/25', 'NEFT CR-HDFC0000001-ACME PAYROLL LTD-SALARY MAR', 'HDFCN52025030200001', '', '85000.00'],
  ['03/03/25', 'POS 416021XXXXXX1234 BIG BAZAAR', '0000000000000301', '2,340.50', ''],
  ['04/03/25', 'ATW-416021XXXXXX1234-S1ANPN12-PUNE', '0000000000000302', '5000.00', ''],
];

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => {
  await t?.close();
});

describe('statement import', () => {
  it('previews an HDFC statement (preamble, trailer) and commits it into the account', async () => {
    const account = await openAccount(alice);
    const before = await eventCount();
    const preview = await uploaded(alice, account, 'march.csv', hdfc(MARCH));
    expect(await eventCount()).toBe(before);
    expect(preview).toMatchObject({
      status: 'preview',
      format: 'csv',
      preset: { id: 'hdfc', bank: 'HDFC Bank' },
    });
    expect(preview.counts).toEqual({ new: 4, duplicate: 0, possible_duplicate: 0, emi_match: 0, error: 0 });
    expect(preview.balance_check.status).toBe('ok');
    expect(preview.rows.map((r) => r.amount)).toEqual([-527, 85000, -2340.5, -5000]);
    expect(preview.rows[0]!.notes).toBe('UPI · Swiggy · 527411112222');

    const commit = await t.as(alice).post(`/api/imports/${preview.id}/commit`, {});
    expect(commit.status, JSON.stringify(commit.body)).toBe(200);
    expect(commit.body.message).toBe('4 transactions imported');

    const rows = await book(alice, `&account_id=${account}`);
    expect(rows).toHaveLength(4);
    expect(rows.map((r) => r.notes)).toContain('UPI · Swiggy · 527411112222');
    // The raw narration is kept and searchable: the VPA is only in the raw text.
    const found = await book(alice, '&search=swiggy%40axisbank');
    expect(found.map((r) => r.notes)).toEqual(['UPI · Swiggy · 527411112222']);
    const register = await t.as(alice).get(`/api/accounts/${account}/register`);
    expect(register.body.data.account.balance).toBe(10000.5 - 527 + 85000 - 2340.5 - 5000);
  });

  it('adds nothing when the same file or an overlapping period is imported again', async () => {
    const account = await openAccount(alice);
    const first = await uploaded(alice, account, 'march.csv', hdfc(MARCH));
    const firstCommit = await t.as(alice).post(`/api/imports/${first.id}/commit`, {});
    expect(firstCommit.status, JSON.stringify(firstCommit.body)).toBe(200);

    const again = await uploaded(alice, account, 'march.csv', hdfc(MARCH));
    expect(again.counts).toMatchObject({ new: 0, duplicate: 4 });
    expect(again.rows.every((r) => r.decision === 'skip')).toBe(true);
    const none = await t.as(alice).post(`/api/imports/${again.id}/commit`, {});
    expect(none.body.message).toBe('0 transactions imported');

    // An overlapping statement: the last two rows of March and two new ones.
    const after = 1000050 - 52700 + 8500000;
    const overlap = hdfc(
      [
        MARCH[2]!,
        MARCH[3]!,
        [
          '05/03/25',
          'UPI-ZOMATO-zomato@hdfcbank-HDFC0000001-527499990000-Lunch',
          '0000527499990000',
          '310.00',
          '',
        ],
        ['06/03/25', 'IMPS-506512345678-RAVI KUMAR-HDFC-XXXX1234-rent share', '506512345678', '', '12000.00'],
      ],
      after,
    );
    const overlapping = await uploaded(alice, account, 'overlap.csv', overlap);
    expect(overlapping.counts).toMatchObject({ new: 2, duplicate: 2 });
    expect(overlapping.balance_check.status).toBe('ok');
    expect((await t.as(alice).post(`/api/imports/${overlapping.id}/commit`, {})).body.message).toBe(
      '2 transactions imported',
    );
    expect(await book(alice, `&account_id=${account}`)).toHaveLength(6);
  });

  it('imports two genuine identical rows, and finds both on the next import', async () => {
    const account = await openAccount(alice);
    const tea: [string, string, string, string, string] = [
      '07/03/25',
      'UPI-CHAIWALA-chai@ybl-YESB0000001-TEA',
      '',
      '20.00',
      '',
    ];
    const file = hdfc([tea, tea, ['07/03/25', 'UPI-CHAIWALA-chai@ybl-YESB0000001-TEA', '', '20.00', '']]);
    const preview = await uploaded(alice, account, 'tea.csv', file);
    expect(preview.counts).toMatchObject({ new: 3, duplicate: 0 });
    expect((await t.as(alice).post(`/api/imports/${preview.id}/commit`, {})).body.message).toBe(
      '3 transactions imported',
    );
    expect(await book(alice, `&account_id=${account}`)).toHaveLength(3);
    const again = await uploaded(alice, account, 'tea.csv', file);
    expect(again.counts).toMatchObject({ new: 0, duplicate: 3 });
  });

  it('reads an OFX file and finds its FITIDs on a second import', async () => {
    const account = await openAccount(alice);
    const ofx = `OFXHEADER:100
DATA:OFXSGML
VERSION:102

<OFX>
<BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>INR
<BANKTRANLIST>
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250310<TRNAMT>-450.00<FITID>FIT0001<NAME>AMAZON PAY<MEMO>UPI/510912345678/Order/amazon@apl/Axis</STMTTRN>
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250310<TRNAMT>-450.00<FITID>FIT0002<NAME>AMAZON PAY<MEMO>UPI/510912345678/Order/amazon@apl/Axis</STMTTRN>
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20250311<TRNAMT>1200.00<FITID>FIT0003<NAME>REFUND</STMTTRN>
</BANKTRANLIST>
</STMTRS></STMTTRNRS></BANKMSGSRSV1>
</OFX>
`;
    const first = await uploaded(alice, account, 'card.ofx', ofx);
    expect(first.format).toBe('ofx');
    expect(first.counts).toMatchObject({ new: 3 });
    expect((await t.as(alice).post(`/api/imports/${first.id}/commit`, {})).body.message).toBe(
      '3 transactions imported',
    );
    const again = await uploaded(alice, account, 'card.ofx', ofx);
    expect(again.counts).toMatchObject({ new: 0, duplicate: 3 });
    expect(again.rows[0]!.reason).toContain('FIT0001');
  });

  it('shows a balance mismatch with the first row and the amount, and commits it only when confirmed', async () => {
    const account = await openAccount(alice);
    // The file's balances start from ₹10,100.50, the account holds ₹10,000.50: ₹100 apart.
    const preview = await uploaded(alice, account, 'off.csv', hdfc(MARCH.slice(0, 2), 1010050));
    expect(preview.balance_check.status).toBe('mismatch');
    expect(preview.balance_check.first_mismatch).toMatchObject({ line: 6, difference: 100 });
    const before = await eventCount();
    const refused = await t.as(alice).post(`/api/imports/${preview.id}/commit`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.errorCode).toBe('BALANCE_MISMATCH');
    expect(refused.body.message).toContain('line 6');
    expect(refused.body.message).toContain('₹100.00');
    expect(await eventCount()).toBe(before);
    const confirmed = await t
      .as(alice)
      .post(`/api/imports/${preview.id}/commit`, { confirm_balance_mismatch: true });
    expect(confirmed.status).toBe(200);
    expect(await book(alice, `&account_id=${account}`)).toHaveLength(2);
  });

  it('offers a hand-entered transaction an imported row repeats as a possible duplicate for the user to decide', async () => {
    const account = await openAccount(alice);
    const typed = await t.as(alice).post('/api/transactions', {
      notes: 'Swiggy dinner',
      transaction_type: 'D',
      transaction_date: '2025-03-02',
      amount: 527,
      account_id: account,
    });
    expect(typed.status).toBe(201);
    // Same amount, a different date 4 days away: not the same payment.
    const far = await t.as(alice).post('/api/transactions', {
      notes: 'Big Bazaar groceries',
      transaction_type: 'D',
      transaction_date: '2025-03-08',
      amount: 2340.5,
      account_id: account,
    });
    expect(far.status).toBe(201);
    const preview = await uploaded(alice, account, 'march.csv', hdfc(MARCH));
    expect(preview.counts).toMatchObject({ new: 3, possible_duplicate: 1 });
    const repeat = preview.rows.find((r) => r.status === 'possible_duplicate')!;
    expect(repeat).toMatchObject({ line: 6, decision: null });
    expect(repeat.reason).toContain('Swiggy dinner');

    const undecided = await t.as(alice).post(`/api/imports/${preview.id}/commit`, {});
    expect(undecided.status).toBe(422);
    expect(undecided.body.errors[0].message).toContain('Line 6');

    const decided = await t.as(alice).put(`/api/imports/${preview.id}`, {
      decisions: [{ index: repeat.index, decision: 'skip' }],
    });
    expect(decided.status).toBe(200);
    const commit = await t.as(alice).post(`/api/imports/${preview.id}/commit`, {});
    expect(commit.body.message).toBe('3 transactions imported');
    expect(await book(alice, `&account_id=${account}`)).toHaveLength(5);
  });

  it('proposes a debit of the EMI amount as the EMI and matches it on commit, so the ledger counts it once', async () => {
    const account = await openAccount(alice, '100000', '2025-01-01');
    const loan = await t
      .as(alice)
      .post(
        '/api/loans',
        loanInput({ start_date: '2025-01-05', end_date: '2045-01-05', emis_auto_debited: 0 }),
      );
    expect(loan.status).toBe(201);
    const loanId = loan.body.data.loan.id as string;
    const schedule = await t.as(alice).get(`/api/loans/${loanId}/amortization`);
    const rows = schedule.body.data.schedule as { payment_number: number; emi_date: string; emi: number }[];
    const second = rows.find((r) => r.payment_number === 2)!;
    expect(second.emi_date).toBe('2025-03-05');
    const emi = second.emi.toFixed(2);
    const file = `${HDFC_HEADER}\r\n06/03/25,ACH D- SBI HOME LOAN-HL00012345,,06/03/25,${emi},,\r\n07/03/25,UPI-CHAIWALA-chai@ybl-YESB0000001-SAMOSA,,07/03/25,21.75,,\r\n`;
    const preview = await uploaded(alice, account, 'emi.csv', file);
    expect(preview.counts).toMatchObject({ emi_match: 1, new: 1 });
    const match = preview.rows.find((r) => r.status === 'emi_match')!;
    expect(match.emi).toMatchObject({ loan_id: loanId, emi_number: 2 });

    const commit = await t.as(alice).post(`/api/imports/${preview.id}/commit`, {});
    expect(commit.status, JSON.stringify(commit.body)).toBe(200);
    expect(commit.body.message).toBe('2 transactions imported, 1 EMI matched');
    const committed = await previewOf(alice, preview.id);
    const transactionId = committed.rows.find((r) => r.status === 'emi_match')!.transaction_id!;
    const debit = await t.as(alice).get(`/api/loans/debit-matches/${transactionId}`);
    expect(debit.body.data.match).toMatchObject({ loan_id: loanId, payment_number: 2 });

    // The ledger of March shows the EMI once: the matched debit hides behind it.
    const ledger = await t.as(alice).get('/api/ledger?month=3&year=2025');
    expect(ledger.status).toBe(200);
    const entries = ledger.body.data.debit.transactions as {
      type: string;
      amount: number;
      particulars: string;
    }[];
    expect(entries.filter((e) => e.amount === second.emi).map((e) => e.type)).toEqual(['emi']);
    expect(entries.filter((e) => e.type === 'transaction' && e.amount === 21.75)).toHaveLength(1);

    // Undo releases the match and removes both transactions.
    const undo = await t.as(alice).post(`/api/imports/${preview.id}/undo`);
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    const released = await t.as(alice).get(`/api/loans/debit-matches/${transactionId}`);
    expect(released.body.data.match).toBeNull();
    expect(await book(alice, `&account_id=${account}`)).toHaveLength(0);
  });

  it('undoes a committed batch as an event: gone from the book and the register, History shows both', async () => {
    const account = await openAccount(alice);
    const preview = await uploaded(alice, account, 'march.csv', hdfc(MARCH));
    expect((await t.as(alice).post(`/api/imports/${preview.id}/commit`, {})).status).toBe(200);
    expect(await book(alice, `&account_id=${account}`)).toHaveLength(4);
    const before = await eventCount();
    const undo = await t.as(alice).post(`/api/imports/${preview.id}/undo`);
    expect(undo.status).toBe(200);
    expect(undo.body.message).toBe('Import undone: 4 transactions removed');
    expect(await eventCount()).toBe(before + 1);
    expect(await book(alice, `&account_id=${account}`)).toHaveLength(0);
    const register = await t.as(alice).get(`/api/accounts/${account}/register`);
    expect(register.body.data.account.balance).toBe(10000.5);
    expect((await t.as(alice).post(`/api/imports/${preview.id}/undo`)).status).toBe(409);

    expect(await t.caughtUp(['history'])).toBe(true);
    const history = await t.as(alice).get(`/api/history?stream=import:${preview.id}`);
    expect(history.status).toBe(200);
    const summaries = (history.body.data.entries as { summary: string }[]).map((e) => e.summary);
    expect(summaries).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Statement march\.csv imported into Savings [0-9a-f]{6}: 4 transactions/),
        expect.stringMatching(/^Statement import undone: 4 transactions removed from Savings [0-9a-f]{6}$/),
      ]),
    );
    // Undone rows are not "already imported": the file imports again.
    const again = await uploaded(alice, account, 'march.csv', hdfc(MARCH));
    expect(again.counts).toMatchObject({ new: 4, duplicate: 0 });

    const list = await t.as(alice).get('/api/imports');
    const listed = (list.body.data.imports as { id: string; status: string }[]).find(
      (i) => i.id === preview.id,
    );
    expect(listed?.status).toBe('undone');
  });

  it('re-reads a preview with another mapping, and discards a preview', async () => {
    const account = await openAccount(alice);
    const custom = 'When,What,Out,In\r\n08/03/25,Chemist,150.00,\r\n09/03/25,Cashback,,25.00\r\n';
    const refused = await upload(alice, account, 'custom.csv', custom);
    expect(refused.status).toBe(422);
    const mapped = await upload(alice, account, 'custom.csv', custom, {
      mapping: JSON.stringify({ date: 'When', narration: 'What', debit: 'Out', credit: 'In' }),
    });
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(201);
    const id = mapped.body.data.id as string;
    expect((await previewOf(alice, id)).rows.map((r) => r.amount)).toEqual([-150, 25]);
    const swapped = await t.as(alice).put(`/api/imports/${id}`, {
      mapping: { date: 'When', narration: 'What', debit: 'In', credit: 'Out' },
    });
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);
    expect((swapped.body.data.import.rows as Row[]).map((r) => r.amount)).toEqual([150, -25]);
    const before = await eventCount();
    expect((await t.as(alice).delete(`/api/imports/${id}`)).status).toBe(200);
    expect((await t.as(alice).get(`/api/imports/${id}`)).status).toBe(404);
    expect(await eventCount()).toBe(before);
  });

  it("answers 404 for another user's import and account", async () => {
    const account = await openAccount(alice);
    const preview = await uploaded(alice, account, 'march.csv', hdfc(MARCH));
    expect((await t.as(bob).get(`/api/imports/${preview.id}`)).status).toBe(404);
    expect((await t.as(bob).put(`/api/imports/${preview.id}`, { decisions: [] })).status).toBe(404);
    expect((await t.as(bob).post(`/api/imports/${preview.id}/commit`, {})).status).toBe(404);
    expect((await t.as(bob).delete(`/api/imports/${preview.id}`)).status).toBe(404);
    expect((await t.as(bob).post(`/api/imports/${preview.id}/undo`)).status).toBe(404);
    expect((await upload(bob, account, 'march.csv', hdfc(MARCH))).status).toBe(404);
    const list = await t.as(bob).get('/api/imports');
    expect(list.body.data.imports).toEqual([]);
  });

  describe('bad input: a clear 4xx naming line and column, nothing recorded', () => {
    let account: string;
    let events: number;
    let previews: number;
    const previewCount = async () =>
      (await t.platform.db.query<{ n: number }>('SELECT count(*)::int AS n FROM import_previews')).rows[0]!.n;
    beforeAll(async () => {
      account = await openAccount(alice);
      events = await eventCount();
      previews = await previewCount();
    });
    afterAll(async () => {
      expect(await eventCount()).toBe(events);
      expect(await previewCount()).toBe(previews);
    });

    it('refuses an empty (0-byte) file', async () => {
      const res = await upload(alice, account, 'empty.csv', '');
      expect(res.status).toBe(422);
      expect(res.body.errors[0].field).toBe('file');
      expect(res.body.message).toMatch(/empty/i);
    });

    it('refuses a file over 10 MB', async () => {
      const big = Buffer.alloc(10 * 1024 * 1024 + 10, 'a');
      const res = await upload(alice, account, 'big.csv', big);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('The file is larger than 10 MB');
    });

    it('refuses binary data', async () => {
      const res = await upload(
        alice,
        account,
        'photo.csv',
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 1, 2, 3, 0, 0]),
      );
      expect(res.status).toBe(422);
      expect(res.body.errors[0].field).toBe('file');
    });

    it('refuses a CSV with a broken quote, naming its line', async () => {
      const res = await upload(
        alice,
        account,
        'quote.csv',
        `${HDFC_HEADER}\r\n01/03/25,"UPI-OPEN QUOTE,,01/03/25,10.00,,100.00\r\n`,
      );
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/line 2/i);
    });

    it('refuses a file whose dates cannot be read, naming line and column', async () => {
      const res = await upload(
        alice,
        account,
        'dates.csv',
        `${HDFC_HEADER}\r\n2025-31-12,Coffee,,,10.00,,100.00\r\n`,
      );
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/Line 2, column 1/);
    });

    it('refuses an account that is not an id or a preset that does not exist', async () => {
      expect((await upload(alice, 'nope', 'march.csv', hdfc(MARCH))).status).toBe(404);
      const preset = await upload(alice, account, 'march.csv', hdfc(MARCH), { preset: 'nobank' });
      expect(preset.status).toBe(422);
      expect(preset.body.errors[0].field).toBe('preset');
    });
  });

  it('rebuilds the read models after imports and undos to the same rows', async () => {
    const snapshot = async () => {
      const q = async (sql: string) => (await t.platform.db.query(sql)).rows;
      return {
        transactions: await q(
          'SELECT id, notes, amount::text, account_id, raw_narration, import_id FROM transactions ORDER BY id',
        ),
        stats: await q('SELECT * FROM transaction_stats ORDER BY user_id'),
        register: await q(
          'SELECT id, account_id, amount::text, entry_date FROM account_transactions ORDER BY id',
        ),
        batches: await q('SELECT id, status, row_count FROM import_batches ORDER BY id'),
        fingerprints: await q(
          'SELECT account_id, digest, import_id FROM import_fingerprints ORDER BY account_id, digest',
        ),
        ledger: await q('SELECT entry_id, amount::text FROM ledger_entries ORDER BY entry_id'),
      };
    };
    const before = await snapshot();
    expect(before.batches.length).toBeGreaterThan(3);
    for (const name of ['transactions', 'accounts', 'imports', 'ledger'])
      await t.platform.runner.rebuild(name);
    expect(await snapshot()).toEqual(before);
  });
});
