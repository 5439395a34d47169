import { type Paise, toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import {
  type DbPresentParts,
  type PresentParts,
  presentPartsFromDb,
  presentPartsSql,
} from '../schedules/present';
import {
  type LoanStanding,
  loanStandings,
  STANDING_COLUMNS,
  type StandingRow,
  standingsOf,
} from '../schedules/queries';
import { type DbLoanRow, LOAN_COLUMNS, type LoanRow, loanFromDb } from './projector';

export type { LoanRow } from './projector';

export const LOAN_SORT_KEYS = [
  'created_at',
  'principal_amount',
  'interest_rate',
  'start_date',
  'end_date',
  'account_number',
  'bank_name',
] as const;
export type LoanSortKey = (typeof LOAN_SORT_KEYS)[number];
export const LOAN_PAGE_SIZES = [5, 10, 25, 50] as const;

/** Already validated: page ≥ 1, limit one of the page sizes, sort key from the list. */
export type LoanListQuery = {
  page: number;
  limit: number;
  sortBy: LoanSortKey;
  sortOrder: 'ASC' | 'DESC';
  search: string | null;
  bankId: number | null;
  loanTypeId: number | null;
};

/** A loan with the names of its bank and loan type. */
export type LoanView = LoanRow &
  Readonly<{ bank: { bankName: string; branchName: string | null }; loanType: { typeName: string } }>;

type DbLoanView = DbLoanRow & {
  bank_name: string | null;
  branch_name: string | null;
  type_name: string | null;
};

const VIEW_COLUMNS = `${LOAN_COLUMNS}, b.bank_name, b.branch_name, t.type_name`;
const VIEW_FROM = `loans l
  LEFT JOIN catalog_banks b ON b.id = l.bank_id
  LEFT JOIN catalog_loan_types t ON t.id = l.loan_type_id`;

function viewOf(r: DbLoanView): LoanView {
  // Completed in place: `loanFromDb`'s record is fresh (a spread copied it again, per row).
  const view = loanFromDb(r) as LoanRow & { bank?: LoanView['bank']; loanType?: LoanView['loanType'] };
  view.bank = { bankName: r.bank_name ?? '', branchName: r.branch_name };
  view.loanType = { typeName: r.type_name ?? '' };
  return view as LoanView;
}

/** `%`, `_` and the escape character match literally in a LIKE pattern. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of the user's loans. Search matches account number, loan type, bank name (substring,
 * any case) and principal amount (its digits, so "25,00,000" finds 2500000.00). The sort column
 * comes from a fixed map, never from request text; ties break by created_at then id.
 */
export async function listLoans(
  db: Queryable,
  userId: string,
  query: LoanListQuery,
): Promise<{ rows: LoanView[]; totalItems: number }> {
  const { rows, totalItems } = await listLoansOn(db, userId, query, null);
  return { rows: rows.map((r) => r.loan), totalItems };
}

/** A loan of the list with where it stands on the day asked (none: it has no schedule yet). */
export type LoanListEntry = Readonly<{
  loan: LoanView;
  standing: LoanStanding | undefined;
  present: PresentParts | undefined;
}>;

/**
 * `listLoans` with each loan's standing and present parts on `today` (YYYY-MM-DD), in the same
 * statement (issue 33: the list made three round trips, the page, the standings and the present):
 * the page is a subquery, its schedule header, flags and present parts joined to each of its
 * rows. Only loans whose EMIs are judged (not auto-debited, or marked) take one more round trip.
 */
export async function listLoansWithFigures(
  db: Queryable,
  userId: string,
  query: LoanListQuery,
  today: string,
): Promise<{ rows: LoanListEntry[]; totalItems: number }> {
  const { rows, totalItems, standingRows } = await listLoansOn(db, userId, query, today);
  const standings = await standingsOf(db, standingRows, today);
  return {
    rows: rows.map((r) => ({ ...r, standing: standings.get(r.loan.id) })),
    totalItems,
  };
}

type DbListedLoan = DbLoanView & {
  total: number;
  scheduled?: boolean;
} & Partial<Omit<StandingRow, 'loan_id'> & Omit<DbPresentParts, 'loan_id'>>;

async function listLoansOn(
  db: Queryable,
  userId: string,
  query: LoanListQuery,
  today: string | null,
): Promise<{
  rows: { loan: LoanView; present: PresentParts | undefined }[];
  totalItems: number;
  standingRows: StandingRow[];
}> {
  const params: unknown[] = [userId];
  const where = ['l.user_id = $1'];
  if (query.bankId !== null) {
    params.push(query.bankId);
    where.push(`l.bank_id = $${params.length}`);
  }
  if (query.loanTypeId !== null) {
    params.push(query.loanTypeId);
    where.push(`l.loan_type_id = $${params.length}`);
  }
  const search = query.search?.trim();
  if (search) {
    params.push(likePattern(search));
    const text = `$${params.length}`;
    const alternatives = [
      `l.account_number ILIKE ${text} ESCAPE '\\'`,
      `b.bank_name ILIKE ${text} ESCAPE '\\'`,
      `t.type_name ILIKE ${text} ESCAPE '\\'`,
    ];
    const digits = search.replace(/[₹,\s]/g, '');
    if (/^\d+(\.\d*)?$/.test(digits)) {
      params.push(`%${digits}%`);
      alternatives.push(`l.principal_amount::text LIKE $${params.length}`);
    }
    where.push(`(${alternatives.join(' OR ')})`);
  }
  const column = {
    created_at: 'l.created_at',
    principal_amount: 'l.principal_amount',
    interest_rate: 'l.interest_rate',
    start_date: 'l.start_date',
    end_date: 'l.end_date',
    account_number: 'l.account_number',
    bank_name: 'b.bank_name',
  }[query.sortBy];
  const direction = query.sortOrder === 'ASC' ? 'ASC' : 'DESC';
  const order = [column, 'l.created_at', 'l.id']
    .filter((c, i, all) => all.indexOf(c) === i)
    .map((c) => `${c} ${direction}`)
    .join(', ');
  const filter = where.join(' AND ');
  const needsJoin = Boolean(search);
  const counted = `SELECT count(*)::int AS n FROM ${needsJoin ? VIEW_FROM : 'loans l'} WHERE ${filter}`;
  const page = `SELECT ${VIEW_COLUMNS}, (${counted}) AS total FROM ${VIEW_FROM} WHERE ${filter}
     ORDER BY ${order} LIMIT (SELECT $${params.length + 1}::int) OFFSET (SELECT $${params.length + 2}::bigint)`;
  const values = [...params, query.limit, (query.page - 1) * query.limit];
  // One round trip: the count is an uncorrelated subquery, run once; an empty page (past the
  // end) asks for it on its own. The page is a parameter, so the text is one of a few hundred
  // (sort, order, filters) and planned once per connection.
  let dbRows: DbListedLoan[];
  if (today === null) {
    dbRows = (await db.query<DbListedLoan>(page, values, { prepared: true })).rows;
  } else {
    // The page's rows in its order (`ordinal`), each with its schedule header `h`, the flags its
    // standing is judged by and its present parts (schedules/present.ts), all by index probes.
    const present = presentPartsSql(`$${values.length + 1}`);
    dbRows = (
      await db.query<DbListedLoan>(
        `SELECT l.*, h.loan_id IS NOT NULL AS scheduled, ${STANDING_COLUMNS}, ${present.columns}
           FROM (SELECT p.*, row_number() OVER () AS ordinal FROM (${page}) p) l
           LEFT JOIN loan_schedules h ON h.loan_id = l.id::uuid AND h.user_id = $1
           ${present.joins}
          ORDER BY l.ordinal`,
        [...values, today],
        { prepared: true },
      )
    ).rows;
  }
  const total = dbRows[0]
    ? dbRows[0].total
    : ((await db.query<{ n: number }>(counted, params)).rows[0]?.n ?? 0);
  const standingRows: StandingRow[] = [];
  const rows = dbRows.map((r) => {
    const loan = viewOf(r);
    if (!r.scheduled) return { loan, present: undefined };
    standingRows.push({
      loan_id: loan.id,
      closed_on: r.closed_on ?? null,
      judged: Boolean(r.judged),
      auto: Boolean(r.auto),
    });
    return { loan, present: presentPartsFromDb(r as unknown as DbPresentParts) };
  });
  return { rows, totalItems: Number(total), standingRows };
}

/** The user's own loan with its names, or null (also for another user's id). */
export async function getLoan(db: Queryable, userId: string, loanId: string): Promise<LoanView | null> {
  const { rows } = await db.query<DbLoanView>(
    `SELECT ${VIEW_COLUMNS} FROM ${VIEW_FROM} WHERE l.user_id = $1 AND l.id = $2::uuid`,
    [userId, loanId],
    { prepared: true },
  );
  return rows[0] ? viewOf(rows[0]) : null;
}

export type LoanStats = Readonly<{
  totalLoans: number;
  activeLoans: number;
  totalAmount: Paise;
  remainingAmount: Paise;
  /** Loans with an EMI due before today not marked paid (once any of its EMIs was marked paid). */
  overdueLoans: number;
  overdueEmis: number;
}>;

/**
 * Totals over the user's loans on `today` (YYYY-MM-DD): active = its last payment (last EMI or
 * foreclosure, of the current schedule) is today or later; remaining = per loan, the balance
 * after the last schedule row (EMI or prepayment) dated on or before today, the full principal
 * before the first, read from the current schedule.
 */
export async function getLoanStats(db: Queryable, userId: string, today: string): Promise<LoanStats> {
  const { rows } = await db.query<{
    total: number;
    active: number;
    amount: string;
    remaining: string;
    ids: string[];
  }>(
    `WITH own AS (
       SELECT l.id, l.principal_amount, coalesce(h.closed_on, l.end_date) AS closed_on
         FROM loans l LEFT JOIN loan_schedules h ON h.loan_id = l.id
        WHERE l.user_id = $1)
     SELECT count(*)::int AS total,
            count(*) FILTER (WHERE o.closed_on >= $2::date)::int AS active,
            coalesce(sum(o.principal_amount), 0)::text AS amount,
            coalesce(sum(CASE
              -- The last payment (EMI or foreclosure) is past: nothing is left after it.
              WHEN o.closed_on <= $2::date THEN 0
              ELSE coalesce(
                (SELECT r.remaining_principal FROM loan_schedule_rows r
                  WHERE r.loan_id = o.id AND r.emi_date <= $2::date
                  ORDER BY r.emi_date DESC, r.seq DESC LIMIT 1),
                o.principal_amount)
            END), 0)::text AS remaining,
            coalesce(array_agg(o.id::text), '{}') AS ids
       FROM own o`,
    [userId, today],
  );
  const r = rows[0];
  // Overdue EMIs are judged by the domain (auto-debit, marks): see `loanStandings`.
  const standings = [...(await loanStandings(db, userId, r?.ids ?? [], today)).values()];
  const overdue = standings.filter((s) => s.overdueEmis > 0);
  return {
    totalLoans: Number(r?.total ?? 0),
    activeLoans: Number(r?.active ?? 0),
    totalAmount: toPaise(r?.amount ?? '0'),
    remainingAmount: toPaise(r?.remaining ?? '0'),
    overdueLoans: overdue.length,
    overdueEmis: overdue.reduce((sum, s) => sum + s.overdueEmis, 0),
  };
}
