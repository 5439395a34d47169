import type { Paise } from '@kosh/domain';
import { toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import {
  ACCOUNT_COLUMNS,
  type AccountRow,
  accountFromDb,
  type DbAccountRow,
  type DbTransfer,
  TRANSFER_COLUMNS,
  type TransferRow,
  transferFromDb,
} from './projector';

export type { AccountRow, TransferRow } from './projector';

/**
 * An account with its balance (on a date, or over everything), how many entries it holds, and
 * the name of its bank (the catalog's, else the one typed).
 */
export type AccountWithBalance = AccountRow & {
  balance: Paise;
  entryCount: number;
  shownBankName: string | null;
};

/** Signed amounts of account `a`'s register (transactions, transfer legs), each with its date `d`. */
const ENTRIES_OF = (account: string) => `SELECT amount, entry_date AS d FROM account_transactions
     WHERE account_id = ${account}
   UNION ALL SELECT -amount, transfer_date FROM account_transfers WHERE from_account_id = ${account} AND NOT deleted
   UNION ALL SELECT amount, transfer_date FROM account_transfers WHERE to_account_id = ${account} AND NOT deleted`;

/**
 * The balance on `$2` (a date; null: over every entry): the opening balance once its date has
 * come, plus every entry dated on or before.
 */
const BALANCE = `(CASE WHEN $2::date IS NULL OR a.opening_date <= $2::date THEN a.opening_balance ELSE 0 END)
   + COALESCE((SELECT sum(e.amount) FROM (${ENTRIES_OF('a.id')}) e WHERE $2::date IS NULL OR e.d <= $2::date), 0)`;

const WITH_BALANCE = `${ACCOUNT_COLUMNS}, (${BALANCE})::text AS balance,
   (SELECT count(*)::int FROM (${ENTRIES_OF('a.id')}) e) AS entry_count,
   COALESCE((SELECT b.bank_name FROM catalog_banks b WHERE b.id = a.bank_id), a.bank_name) AS shown_bank_name`;

type DbAccountWithBalance = DbAccountRow & {
  balance: string;
  entry_count: number;
  shown_bank_name: string | null;
};

const withBalanceFromDb = (r: DbAccountWithBalance): AccountWithBalance => ({
  ...accountFromDb(r),
  balance: toPaise(r.balance),
  entryCount: Number(r.entry_count),
  shownBankName: r.shown_bank_name,
});

/** The user's accounts by name, each with its balance on `onDate` (null: today's, every entry). */
export async function listAccounts(
  db: Queryable,
  userId: string,
  onDate: string | null,
): Promise<AccountWithBalance[]> {
  const { rows } = await db.query<DbAccountWithBalance>(
    `SELECT ${WITH_BALANCE} FROM accounts a WHERE a.user_id = $1 AND NOT a.deleted ORDER BY a.name, a.id`,
    [userId, onDate],
  );
  return rows.map(withBalanceFromDb);
}

/** The user's own open account with its balance, or null (also for another user's id). */
export async function getAccount(
  db: Queryable,
  userId: string,
  id: string,
  onDate: string | null = null,
): Promise<AccountWithBalance | null> {
  const { rows } = await db.query<DbAccountWithBalance>(
    `SELECT ${WITH_BALANCE} FROM accounts a WHERE a.user_id = $1 AND a.id = $3::uuid AND NOT a.deleted`,
    [userId, onDate, id],
  );
  const row = rows[0];
  return row ? withBalanceFromDb(row) : null;
}

export type RegisterEntryKind = 'opening' | 'transaction' | 'transfer_in' | 'transfer_out';

/** One row of an account's register; `amount` signed, `balance` the running balance after it. */
export type RegisterEntry = Readonly<{
  kind: RegisterEntryKind;
  /** The transaction's or transfer's id; null for the opening row. */
  id: string | null;
  date: string;
  notes: string;
  amount: Paise;
  balance: Paise;
  /** The other account of a transfer leg. */
  counterpartAccountId: string | null;
  counterpartAccountName: string | null;
}>;

export type RegisterQuery = { page: number; limit: number | null; sortOrder: 'ASC' | 'DESC' };

type DbRegisterEntry = {
  kind: RegisterEntryKind;
  id: string | null;
  entry_date: string;
  notes: string;
  amount: string;
  balance: string;
  counterpart_id: string | null;
  counterpart_name: string | null;
  total: number;
};

/**
 * One page of account `accountId`'s register: the opening row first, then its entries by date
 * (then by when recorded), each with the running balance after it; DESC shows the same rows and
 * balances newest first. `limit` null: every row (the CSV export). Null when the account is not
 * the user's own open account.
 */
export async function accountRegister(
  db: Queryable,
  userId: string,
  accountId: string,
  query: RegisterQuery,
): Promise<{ entries: RegisterEntry[]; totalItems: number } | null> {
  const direction = query.sortOrder === 'DESC' ? 'DESC' : 'ASC';
  const page = query.limit === null ? '' : `LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`;
  const { rows } = await db.query<DbRegisterEntry>(
    `WITH account AS (SELECT * FROM accounts WHERE id = $2::uuid AND user_id = $1 AND NOT deleted),
     entries AS (
       SELECT 0 AS rank, 'opening' AS kind, NULL::uuid AS id, opening_date AS entry_date, opening_balance AS amount,
              'Opening balance' AS notes, NULL::uuid AS counterpart_id, created_at FROM account
       UNION ALL
       SELECT 1, 'transaction', t.id, t.entry_date, t.amount, t.notes, NULL, t.created_at
         FROM account_transactions t JOIN account ON t.account_id = account.id
       UNION ALL
       SELECT 1, 'transfer_out', x.id, x.transfer_date, -x.amount, x.notes, x.to_account_id, x.created_at
         FROM account_transfers x JOIN account ON x.from_account_id = account.id WHERE NOT x.deleted
       UNION ALL
       SELECT 1, 'transfer_in', x.id, x.transfer_date, x.amount, x.notes, x.from_account_id, x.created_at
         FROM account_transfers x JOIN account ON x.to_account_id = account.id WHERE NOT x.deleted
     ),
     running AS (
       SELECT e.*, sum(e.amount) OVER w AS balance, row_number() OVER w AS n, count(*) OVER () AS total
         FROM entries e
       WINDOW w AS (ORDER BY e.rank, e.entry_date, e.created_at, e.id ROWS UNBOUNDED PRECEDING)
     )
     SELECT r.kind, r.id::text AS id, to_char(r.entry_date, 'YYYY-MM-DD') AS entry_date, r.notes,
            r.amount::text AS amount, r.balance::text AS balance, r.counterpart_id::text AS counterpart_id,
            c.name AS counterpart_name, r.total::int AS total
       FROM running r LEFT JOIN accounts c ON c.id = r.counterpart_id
      ORDER BY r.n ${direction} ${page}`,
    [userId, accountId],
  );
  if (rows.length === 0 && !(await getAccount(db, userId, accountId))) return null;
  return {
    totalItems: rows[0]?.total ?? 0,
    entries: rows.map((r) => ({
      kind: r.kind,
      id: r.id,
      date: r.entry_date,
      notes: r.notes,
      amount: toPaise(r.amount),
      balance: toPaise(r.balance),
      counterpartAccountId: r.counterpart_id,
      counterpartAccountName: r.counterpart_name,
    })),
  };
}

/** One page of the user's transfers, newest first. */
export async function listTransfers(
  db: Queryable,
  userId: string,
  query: { page: number; limit: number },
): Promise<{ rows: TransferRow[]; totalItems: number }> {
  const { rows } = await db.query<DbTransfer & { total: number }>(
    `SELECT ${TRANSFER_COLUMNS}, count(*) OVER ()::int AS total FROM account_transfers
      WHERE user_id = $1 AND NOT deleted
      ORDER BY transfer_date DESC, created_at DESC, id DESC
      LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`,
    [userId],
  );
  return { rows: rows.map(transferFromDb), totalItems: rows[0]?.total ?? 0 };
}

/** The user's own live transfer, or null. */
export async function getTransfer(db: Queryable, userId: string, id: string): Promise<TransferRow | null> {
  const { rows } = await db.query<DbTransfer>(
    `SELECT ${TRANSFER_COLUMNS} FROM account_transfers WHERE user_id = $1 AND id = $2::uuid AND NOT deleted`,
    [userId, id],
  );
  const row = rows[0];
  return row ? transferFromDb(row) : null;
}
