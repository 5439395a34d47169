import { randomBytes, randomUUID } from 'node:crypto';
import { categoriesAndSpending } from '@kosh/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { loanInput } from '../../testing/fixtures';
import { rebuildEverything } from '../../testing/round-trip';
import { createTestApp, type TestApp } from '../../testing/test-app';

/**
 * Issue 31: the spending report sums a range's whole months from `transaction_months` (kept by
 * the transactions projection) and reads the book's rows only for the days at its edges. Held
 * against the plain grouped query of the book, for ranges of whole and partial months, after
 * edits, deletes, a rule applied, a merge, a category deleted, imports (a row edited, a row
 * deleted, an import undone), an EMI matched to a debit, and a rebuild of every read model.
 */
const HEADER = 'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance';

/** An HDFC statement of `count` debits in March 2025 (and one deposit). */
function statement(count: number, tag: string): string {
  let balance = 5_000_000;
  const lines = Array.from({ length: count }, (_, i) => {
    const paise = 10_000 + i * 137;
    balance -= paise;
    const day = String(1 + ((i * 3) % 28)).padStart(2, '0');
    return `${day}/03/25,UPI-${tag}${i}-shop@ybl-Pay,${i},${day}/03/25,${(paise / 100).toFixed(2)},,${(balance / 100).toFixed(2)}`;
  });
  lines.push(`31/03/25,NEFT-${tag}-SALARY,99,31/03/25,,500.00,${((balance + 50_000) / 100).toFixed(2)}`);
  return `HDFC BANK Ltd.\r\n\r\n${HEADER}\r\n${lines.join('\r\n')}\r\n`;
}

function form(text: string, accountId: string) {
  const boundary = `----kosh${randomBytes(8).toString('hex')}`;
  return {
    payload: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="account_id"\r\n\r\n${accountId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="march.csv"\r\nContent-Type: text/csv\r\n\r\n${text}\r\n--${boundary}--\r\n`,
    ),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The period's debits by category straight from the book, as the report read them before the cells. */
const PLAIN = `SELECT t.category_id::text AS category_id, sum(t.amount)::text AS amount, count(*)::int AS count
   FROM transactions t
  WHERE t.user_id = $1 AND t.transaction_type = 'D' AND t.transaction_date BETWEEN $2::date AND $3::date
    AND NOT EXISTS (SELECT 1 FROM loan_emi_marks m WHERE m.user_id = $1 AND m.transaction_id = t.id::text)
  GROUP BY 1`;

/** Every cell as the book's rows sum it. */
const CELLS_OF_ROWS = `SELECT user_id, to_char(date_trunc('month', transaction_date), 'YYYY-MM-DD') AS month,
       transaction_type, category_id::text AS category_id, sum(amount)::text AS amount, count(*)::int AS count
  FROM transactions GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;
const CELLS = `SELECT user_id, to_char(month, 'YYYY-MM-DD') AS month, transaction_type, category_id::text AS category_id,
       amount::text AS amount, count::int AS count
  FROM transaction_months ORDER BY 1, 2, 3, 4`;

const RANGES = [
  ['2025-01-01', '2026-12-31'],
  ['2026-02-01', '2026-02-28'],
  ['2025-04-01', '2026-03-31'],
  ['2026-01-15', '2026-03-10'],
  ['2026-02-06', '2026-02-09'],
  ['2025-03-02', '2026-02-28'],
  ['2025-03-01', '2025-03-15'],
] as const;

describe.each(['postgres', 'embedded'] as const)('spending from the month cells (%s)', (mode) => {
  const clock = testClock('2026-04-20T04:00:00.000Z', { step: 1000 });
  let t: TestApp;
  const alice = randomUUID();
  const bob = randomUUID();
  const ids = new Map<string, string>();

  const record = async (
    user: string,
    notes: string,
    type: 'C' | 'D',
    date: string,
    amount: number,
    category: string | null,
  ) => {
    const res = await t.as(user).post('/api/transactions', {
      notes,
      transaction_type: type,
      transaction_date: date,
      amount,
      category_id: category === null ? null : ids.get(category),
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.transaction.id as string;
  };

  const edit = async (id: string, body: Record<string, unknown>) => {
    const got = await t.as(alice).get(`/api/transactions/${id}`);
    const res = await t.as(alice).put(`/api/transactions/${id}`, body, {
      headers: { 'if-match': got.headers.etag as string },
    });
    expect(res.status, res.text).toBe(200);
  };

  const sorted = (rows: { categoryId: string | null; amount: number; count: number }[]) =>
    [...rows].sort((a, b) => String(a.categoryId).localeCompare(String(b.categoryId)));

  /** The report's debits of each range against the plain grouped query, and the cells against the rows. */
  async function expectSameAsTheBook() {
    // Transaction commands answer before their read models catch up (ARCHITECTURE.md "Read your
    // own writes"); the tables are read directly here, so wait for them.
    await t.caughtUp(['transactions']);
    for (const [from, to] of RANGES) {
      const plain = await t.platform.db.query<{ category_id: string | null; amount: string; count: number }>(
        PLAIN,
        [alice, from, to],
      );
      const expected = plain.rows.map((r) => ({
        categoryId: r.category_id,
        amount: Math.round(Number(r.amount) * 100),
        count: Number(r.count),
      }));
      const { categories } = await categoriesAndSpending(t.platform.db, alice, from, to);
      expect(sorted(categories), `${from} to ${to}`).toEqual(sorted(expected));
    }
    const cells = await t.platform.db.query(CELLS);
    expect(cells.rows).toEqual((await t.platform.db.query(CELLS_OF_ROWS)).rows);
  }

  beforeAll(async () => {
    t = await createTestApp({ mode, clock });
    for (const c of (await t.as(alice).get('/api/categories')).body.data.categories as {
      id: string;
      name: string;
    }[])
      ids.set(c.name, c.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sums the same as the book after edits, deletes, a rule, a merge, a category deleted, imports and a match', async () => {
    const debits = [];
    for (const [i, date] of [
      '2026-01-10',
      '2026-01-20',
      '2026-02-03',
      '2026-02-07',
      '2026-02-28',
      '2026-03-05',
      '2026-03-25',
    ].entries()) {
      debits.push(await record(alice, `Swiggy order ${i}`, 'D', date, 100 + i, i % 2 ? 'Groceries' : null));
      debits.push(await record(alice, `Petrol ${i}`, 'D', date, 1000.5 + i, 'Fuel'));
      debits.push(await record(alice, `Dinner ${i}`, 'D', date, 700 + i, 'Dining out'));
    }
    const salary = await record(alice, 'Salary', 'C', '2026-02-01', 90000, 'Salary');
    await record(bob, 'Bob', 'D', '2026-02-03', 5, null);
    await expectSameAsTheBook();

    // An edit that moves a debit to another month and category; a credit made a debit; a delete.
    await edit(debits[0] as string, {
      notes: 'Moved',
      transaction_type: 'D',
      transaction_date: '2026-03-31',
      amount: 250,
      category_id: ids.get('Rent'),
    });
    await edit(salary, {
      notes: 'Salary',
      transaction_type: 'D',
      transaction_date: '2026-02-01',
      amount: 90000,
    });
    expect((await t.as(alice).delete(`/api/transactions/${debits[4]}`)).status).toBe(200);
    await expectSameAsTheBook();

    // A rule applied to existing entries, a merge, a category deleted into another.
    const rule = await t.as(alice).post('/api/rules', {
      name: 'Swiggy',
      match_pattern: 'swiggy',
      transaction_type: 'D',
      category_id: ids.get('Dining out'),
      payee: 'Swiggy',
    });
    expect(rule.status, rule.text).toBe(201);
    const applied = await t.as(alice).post(`/api/rules/${rule.body.data.rule.id}/apply`, {});
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.data.changed).toBeGreaterThan(0);
    await expectSameAsTheBook();
    const merged = await t
      .as(alice)
      .post(`/api/categories/${ids.get('Dining out')}/merge`, { into_id: ids.get('Groceries') });
    expect(merged.status, merged.text).toBe(200);
    const deleted = await t.as(alice).delete(`/api/categories/${ids.get('Fuel')}?move_to=${ids.get('Rent')}`);
    expect(deleted.status, deleted.text).toBe(200);
    await expectSameAsTheBook();

    // Imports: one committed with a row edited and a row deleted, another committed and undone.
    const account = await t.as(alice).post('/api/accounts', {
      name: 'Savings',
      kind: 'savings',
      bank_name: 'HDFC Bank',
      opening_balance: '50000.00',
      opening_date: '2025-02-01',
    });
    expect(account.status, account.text).toBe(201);
    const accountId = account.body.data.account.id as string;
    const commit = async (tag: string) => {
      const { payload, headers } = form(statement(6, tag), accountId);
      const uploaded = await t.as(alice).post('/api/imports', payload, { headers });
      expect(uploaded.status, uploaded.text).toBe(201);
      const id = uploaded.body.data.id as string;
      const committed = await t.as(alice).post(`/api/imports/${id}/commit`, {});
      expect(committed.status, committed.text).toBe(200);
      return id;
    };
    const kept = await commit('A');
    const rows = (
      (await t.as(alice).get(`/api/imports/${kept}`)).body.data.import.rows as {
        transaction_id: string | null;
      }[]
    ).flatMap((r) => (r.transaction_id ? [r.transaction_id] : []));
    await edit(rows[0] as string, {
      notes: 'Groceries, corrected',
      transaction_type: 'D',
      transaction_date: '2025-04-02',
      amount: '123.45',
      category_id: ids.get('Groceries'),
    });
    expect((await t.as(alice).delete(`/api/transactions/${rows[1]}`)).status).toBe(200);
    const undone = await commit('B');
    await expectSameAsTheBook();
    const undo = await t.as(alice).post(`/api/imports/${undone}/undo`, {});
    expect(undo.status, undo.text).toBe(200);
    await expectSameAsTheBook();

    // A debit matched to an EMI: counted once, as the EMI (and moved into Loan EMI).
    const loan = await t.as(alice).post(
      '/api/loans',
      loanInput({
        principal_amount: 120000,
        interest_rate: 12,
        duration: 12,
        is_duration_yearly: 0,
        start_date: '2026-01-05',
        end_date: '2027-01-05',
      }),
    );
    const loanId = loan.body.data.loan.id as string;
    const emi = (await t.as(alice).get(`/api/loans/${loanId}/amortization`)).body.data.schedule[0].emi;
    const paid = await record(alice, 'EMI debit', 'D', '2026-02-05', emi, null);
    const match = await t.as(alice).post(`/api/loans/${loanId}/emis/1/payment`, { transaction_id: paid });
    expect(match.status, match.text).toBe(201);
    await expectSameAsTheBook();
    // Some 40 commands and 8 comparisons of every range: a minute or more on a loaded machine.
  }, 240_000);

  it('reads the same after every read model is rebuilt', async () => {
    const reports = async () => {
      const out = [];
      for (const [from, to] of RANGES) {
        const res = await t.as(alice).get(`/api/reports/spending?from=${from}&to=${to}`);
        expect(res.status, res.text).toBe(200);
        out.push(res.body.data);
      }
      return out;
    };
    const before = await reports();
    const cells = (await t.platform.db.query(CELLS)).rows;
    await rebuildEverything(t);
    expect((await t.platform.db.query(CELLS)).rows).toEqual(cells);
    expect(await reports()).toEqual(before);
    await expectSameAsTheBook();
  });
});
