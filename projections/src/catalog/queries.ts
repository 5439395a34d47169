import type { Queryable } from '@kosh/event-store';
import type { BankRow, LoanTypeRow } from './projector';

export type { BankRow, LoanTypeRow } from './projector';

export const BANK_SORT_KEYS = ['bank_name', 'branch_name', 'id', 'created_at'] as const;
export type BankSortKey = (typeof BANK_SORT_KEYS)[number];

export type BankListQuery = { page: number; limit: number; sortBy: BankSortKey; sortOrder: 'ASC' | 'DESC' };

const BANK_COLUMNS = `id, user_id, bank_name, branch_name,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;
const LOAN_TYPE_COLUMNS = `id, user_id, type_name,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;

type DbBank = {
  id: number;
  user_id: string | null;
  bank_name: string;
  branch_name: string | null;
  created_at: string;
};
type DbLoanType = { id: number; user_id: string | null; type_name: string; created_at: string };

const bankOf = (r: DbBank): BankRow => ({
  id: Number(r.id),
  userId: r.user_id,
  bankName: r.bank_name,
  branchName: r.branch_name,
  createdAt: r.created_at,
});
const loanTypeOf = (r: DbLoanType): LoanTypeRow => ({
  id: Number(r.id),
  userId: r.user_id,
  typeName: r.type_name,
  createdAt: r.created_at,
});

/** Visible to the user: the shared catalog plus what they added. */
const VISIBLE = '(user_id IS NULL OR user_id = $1)';

/** One page of the banks the user can choose from; the sort column comes from a fixed list. */
export async function listBanks(
  db: Queryable,
  userId: string,
  query: BankListQuery,
): Promise<{ rows: BankRow[]; totalItems: number }> {
  const column = { bank_name: 'bank_name', branch_name: 'branch_name', id: 'id', created_at: 'created_at' }[
    query.sortBy
  ];
  const direction = query.sortOrder === 'DESC' ? 'DESC' : 'ASC';
  const order = column === 'id' ? `id ${direction}` : `${column} ${direction} NULLS LAST, id ${direction}`;
  const [page, count] = await Promise.all([
    db.query<DbBank>(
      `SELECT ${BANK_COLUMNS} FROM catalog_banks WHERE ${VISIBLE}
       ORDER BY ${order} LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`,
      [userId],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM catalog_banks WHERE ${VISIBLE}`, [userId]),
  ]);
  return { rows: page.rows.map(bankOf), totalItems: Number(count.rows[0]?.n ?? 0) };
}

/** The bank if the user can see it, else null. */
export async function getBank(db: Queryable, userId: string, bankId: number): Promise<BankRow | null> {
  const { rows } = await db.query<DbBank>(
    `SELECT ${BANK_COLUMNS} FROM catalog_banks WHERE ${VISIBLE} AND id = $2`,
    [userId, bankId],
  );
  return rows[0] ? bankOf(rows[0]) : null;
}

/** Every loan type the user can see, by name. */
export async function listLoanTypes(db: Queryable, userId: string): Promise<LoanTypeRow[]> {
  const { rows } = await db.query<DbLoanType>(
    `SELECT ${LOAN_TYPE_COLUMNS} FROM catalog_loan_types WHERE ${VISIBLE} ORDER BY type_name, id`,
    [userId],
  );
  return rows.map(loanTypeOf);
}

export async function getLoanType(
  db: Queryable,
  userId: string,
  loanTypeId: number,
): Promise<LoanTypeRow | null> {
  const { rows } = await db.query<DbLoanType>(
    `SELECT ${LOAN_TYPE_COLUMNS} FROM catalog_loan_types WHERE ${VISIBLE} AND id = $2`,
    [userId, loanTypeId],
  );
  return rows[0] ? loanTypeOf(rows[0]) : null;
}

/** The next id for a user-added bank or loan type. */
export async function nextCatalogId(db: Queryable, kind: 'bank' | 'loan_type'): Promise<number> {
  const sequence = kind === 'bank' ? 'catalog_bank_id_seq' : 'catalog_loan_type_id_seq';
  const { rows } = await db.query<{ id: number }>(`SELECT nextval('${sequence}')::int AS id`);
  return Number(rows[0]?.id);
}
