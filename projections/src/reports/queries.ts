import { type EmiMark, outstandingPrincipalOn, type Paise, toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { marksOf } from '../schedules/projector';

/**
 * Reports (issue 31) read the read models the screens read; they keep no tables of their own, so
 * a report says what the ledger, the accounts and the schedules say, and a rebuild or an as-of
 * replay of those is a rebuild or replay of the report. Transfers between own accounts are
 * never income or expense: they are not ledger entries (the ledger folds transactions and loans).
 */

/** One month of money in and out, as the ledger shows that month. */
export type MonthIncomeExpense = Readonly<{
  year: number;
  month: number;
  /** Credits of the transaction book. */
  income: Paise;
  /** Debits of the transaction book (a debit matched to an EMI is counted once, as the EMI). */
  expense: Paise;
  /** EMIs, part-payments and foreclosures of the user's loans, as the ledger debits them. */
  loanPayments: Paise;
}>;

/**
 * Income and expense of each month from `from` (YYYY-MM-01) to `to` (a month's last day), the
 * same totals as the ledger's months: one grouped read of the ledger's rows.
 */
export async function incomeExpenseByMonth(
  db: Queryable,
  userId: string,
  from: string,
  to: string,
): Promise<MonthIncomeExpense[]> {
  const { rows } = await db.query<{
    year: number;
    month: number;
    income: string;
    expense: string;
    loans: string;
  }>(
    `SELECT extract(year FROM entry_date)::int AS year, extract(month FROM entry_date)::int AS month,
            coalesce(sum(amount) FILTER (WHERE side = 'C'), 0)::text AS income,
            coalesce(sum(amount) FILTER (WHERE side = 'D' AND kind = 'transaction'), 0)::text AS expense,
            coalesce(sum(amount) FILTER (WHERE side = 'D' AND kind <> 'transaction'), 0)::text AS loans
       FROM ledger_entries
      WHERE user_id = $1 AND entry_date BETWEEN $2::date AND $3::date AND matched_to IS NULL
      GROUP BY 1, 2`,
    [userId, from, to],
  );
  return rows.map((r) => ({
    year: Number(r.year),
    month: Number(r.month),
    income: toPaise(r.income),
    expense: toPaise(r.expense),
    loanPayments: toPaise(r.loans),
  }));
}

/** What the user owns and owes on a date. */
export type NetWorthPoint = Readonly<{
  date: string;
  /** The accounts' balances (a credit card's dues count against it). */
  accounts: Paise;
  /** The loans' outstanding principal under the paid-EMI model. */
  loans: Paise;
}>;

/** Running totals of `deltas` (date → paise, any order) on each of `dates` (ascending). */
function runningOn(deltas: readonly { date: string; amount: Paise }[], dates: readonly string[]): Paise[] {
  const sorted = [...deltas].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  let i = 0;
  let total = 0;
  return dates.map((date) => {
    while (i < sorted.length && (sorted[i] as { date: string }).date <= date) {
      total += (sorted[i] as { amount: Paise }).amount;
      i++;
    }
    return total;
  });
}

/**
 * The user's net worth on each of `dates` (YYYY-MM-DD, ascending): the open accounts' balances
 * (opening balances once their date has come, plus every transaction in them dated by then;
 * transfers between them cancel out) and the outstanding principal of each loan, from its
 * current schedule and its EMI marks (domain `outstandingPrincipalOn`).
 */
export async function netWorthOn(
  db: Queryable,
  userId: string,
  dates: readonly string[],
): Promise<NetWorthPoint[]> {
  const [balances, loans] = await Promise.all([
    db.query<{ day: string; amount: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(amount)::text AS amount FROM (
         SELECT opening_date AS day, opening_balance AS amount FROM accounts WHERE user_id = $1 AND NOT deleted
         UNION ALL
         SELECT t.entry_date, t.amount FROM account_transactions t
           JOIN accounts a ON a.id = t.account_id AND NOT a.deleted
          WHERE t.user_id = $1
       ) e GROUP BY day`,
      [userId],
    ),
    loanBalances(db, userId),
  ]);
  const accounts = runningOn(
    balances.rows.map((r) => ({ date: r.day, amount: toPaise(r.amount) })),
    dates,
  );
  return dates.map((date, i) => ({
    date,
    accounts: accounts[i] ?? 0,
    loans: loans.reduce((sum, loan) => sum + outstandingPrincipalOn(loan, loan.rows, loan, date), 0),
  }));
}

type LoanBalance = {
  principal: Paise;
  startDate: string;
  emisAutoDebited: boolean;
  marks: readonly EmiMark[];
  rows: {
    kind: 'emi' | 'prepayment' | 'foreclosure' | 'pre-emi-interest';
    paymentNumber: number;
    date: string;
    amount: Paise;
    principal: Paise;
  }[];
};

/** Each live loan of the user with its current schedule's rows and its marks. */
async function loanBalances(db: Queryable, userId: string): Promise<LoanBalance[]> {
  const { rows } = await db.query<{
    id: string;
    principal: string;
    start_date: string;
    auto: boolean;
    rows:
      | {
          kind: LoanBalance['rows'][number]['kind'];
          n: number;
          date: string;
          emi: string;
          principal: string;
        }[]
      | null;
  }>(
    `SELECT l.id::text AS id, l.principal_amount::text AS principal, to_char(l.start_date, 'YYYY-MM-DD') AS start_date,
            l.emis_auto_debited AS auto,
            (SELECT json_agg(json_build_object('kind', r.kind, 'n', r.payment_number,
                       'date', to_char(r.emi_date, 'YYYY-MM-DD'), 'emi', r.emi::text, 'principal', r.principal::text)
                     ORDER BY r.seq)
               FROM loan_schedule_rows r WHERE r.loan_id = l.id) AS rows
       FROM loans l WHERE l.user_id = $1`,
    [userId],
  );
  const marks = await marksOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    principal: toPaise(r.principal),
    startDate: r.start_date,
    emisAutoDebited: r.auto,
    marks: marks.get(r.id) ?? [],
    rows: (r.rows ?? []).map((row) => ({
      kind: row.kind,
      paymentNumber: Number(row.n),
      date: row.date,
      amount: toPaise(row.emi),
      principal: toPaise(row.principal),
    })),
  }));
}
