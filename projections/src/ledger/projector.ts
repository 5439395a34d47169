import { IMPORT_EVENT_TYPES, legacyMarkId, type RecordedEvent, toDecimalString, toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { defineProjection } from '../runner/define';
import { withImportedTransactions } from '../transactions/imported';
import {
  type CatalogNames,
  type EmiInstalment,
  entryChanges,
  foldLedgerBatch,
  LEDGER_EVENT_TYPES,
  type LedgerBatchResult,
  type LedgerBatchState,
  type LedgerEntry,
  type LedgerEntryKind,
  type LedgerEvent,
  type LedgerLoan,
  type LedgerPaidEmi,
  type PeriodDelta,
  periodDelta,
  touchedBy,
} from './fold';

const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const ENTRY_COLUMNS = `entry_id, user_id, to_char(entry_date, 'YYYY-MM-DD') AS entry_date, side, kind,
  particulars, amount::text AS amount, ${ISO('created_at')} AS created_at, loan_id, version, matched_to`;

type DbLedgerEntry = {
  entry_id: string;
  user_id: string;
  entry_date: string;
  side: 'C' | 'D';
  kind: LedgerEntryKind;
  particulars: string;
  amount: string;
  created_at: string;
  loan_id: string | null;
  version: number;
  matched_to: string | null;
};

function entryFromDb(r: DbLedgerEntry): LedgerEntry {
  return {
    entryId: r.entry_id,
    userId: r.user_id,
    date: r.entry_date,
    side: r.side,
    kind: r.kind,
    particulars: r.particulars,
    amount: toPaise(r.amount),
    createdAt: r.created_at,
    loanId: r.loan_id,
    version: Number(r.version),
    matchedTo: r.matched_to,
  };
}

type DbLedgerLoan = {
  loan_id: string;
  user_id: string;
  bank_id: number;
  loan_type_id: number;
  account_number: string;
  deleted: boolean;
  schedule_version: number;
  emis: EmiInstalment[];
  paid: (Omit<LedgerPaidEmi, 'markId'> & { markId?: string })[];
  generated_at: string | null;
  version: number;
};

/** The entries and loans a batch touches; a deleted loan's matched debits come with it. */
async function loadState(
  tx: Queryable,
  entryIds: Set<string>,
  loanIds: string[],
  deletedLoanIds: Set<string>,
): Promise<LedgerBatchState> {
  const loanRows =
    loanIds.length === 0
      ? { rows: [] as DbLedgerLoan[] }
      : await tx.query<DbLedgerLoan>(
          `SELECT loan_id, user_id, bank_id, loan_type_id, account_number, deleted, schedule_version, emis, paid,
                  ${ISO('generated_at')} AS generated_at, version
             FROM ledger_loans WHERE loan_id = ANY($1::text[])`,
          [loanIds],
          { prepared: true },
        );
  for (const r of loanRows.rows) {
    if (!deletedLoanIds.has(r.loan_id)) continue;
    for (const p of r.paid) if (p.transactionId !== null) entryIds.add(p.transactionId);
  }
  const entryRows =
    entryIds.size === 0
      ? { rows: [] as DbLedgerEntry[] }
      : await tx.query<DbLedgerEntry>(
          `SELECT ${ENTRY_COLUMNS} FROM ledger_entries WHERE entry_id = ANY($1::text[])`,
          [[...entryIds]],
          { prepared: true },
        );
  return {
    entries: new Map(entryRows.rows.map((r) => [r.entry_id, entryFromDb(r)])),
    loans: new Map(
      loanRows.rows.map((r) => [
        r.loan_id,
        {
          loanId: r.loan_id,
          userId: r.user_id,
          bankId: r.bank_id,
          loanTypeId: r.loan_type_id,
          accountNumber: r.account_number,
          deleted: r.deleted,
          scheduleVersion: r.schedule_version,
          emis: r.emis,
          // Payments stored before marks had ids get the id the domain's upcast gives them.
          paid: r.paid.map((p) => ({ ...p, markId: p.markId ?? legacyMarkId(r.loan_id, p.n, p.paidOn) })),
          generatedAt: r.generated_at,
          version: r.version,
        },
      ]),
    ),
  };
}

async function saveNames(tx: Queryable, kind: 'bank' | 'loan_type', names: LedgerBatchResult['banks']) {
  if (names.size === 0) return;
  const records = [...names].map(([id, n]) => ({ id, name: n.name, owner: n.ownerUserId }));
  await tx.query(
    `INSERT INTO ledger_names (kind, id, name, owner_user_id)
     SELECT $1, r."id", r."name", r."owner" FROM jsonb_to_recordset($2::jsonb) AS r("id" integer, "name" text, "owner" text)
     ON CONFLICT (kind, id) DO UPDATE SET name = EXCLUDED.name, owner_user_id = EXCLUDED.owner_user_id`,
    [kind, JSON.stringify(records)],
  );
}

async function loadNames(tx: Queryable, loans: Iterable<LedgerLoan>): Promise<CatalogNames> {
  const bankIds = new Set<number>();
  const typeIds = new Set<number>();
  for (const loan of loans) {
    bankIds.add(loan.bankId);
    typeIds.add(loan.loanTypeId);
  }
  const banks = new Map<number, string>();
  const loanTypes = new Map<number, string>();
  if (bankIds.size === 0) return { banks, loanTypes };
  const { rows } = await tx.query<{ kind: string; id: number; name: string }>(
    `SELECT kind, id, name FROM ledger_names
      WHERE (kind = 'bank' AND id = ANY($1::int[])) OR (kind = 'loan_type' AND id = ANY($2::int[]))`,
    [[...bankIds], [...typeIds]],
  );
  for (const r of rows) (r.kind === 'bank' ? banks : loanTypes).set(r.id, r.name);
  return { banks, loanTypes };
}

/** Upserts the entries in `$param` (records of `entryRecords`). */
const SAVE_ENTRIES = (param: string) => `INSERT INTO ledger_entries
       (entry_id, user_id, entry_date, side, kind, particulars, amount, created_at, loan_id, version, matched_to)
     SELECT r."entryId", r."userId", r."date", r."side", r."kind", r."particulars", r."amount", r."createdAt",
            r."loanId", r."version", r."matchedTo"
       FROM jsonb_to_recordset(${param}::jsonb) AS r("entryId" text, "userId" text, "date" date, "side" char(1),
            "kind" text, "particulars" text, "amount" numeric, "createdAt" timestamptz, "loanId" text,
            "version" integer, "matchedTo" text)
     ON CONFLICT (entry_id) DO UPDATE SET
       entry_date = EXCLUDED.entry_date, side = EXCLUDED.side, particulars = EXCLUDED.particulars,
       amount = EXCLUDED.amount, version = EXCLUDED.version, matched_to = EXCLUDED.matched_to`;

const entryRecords = (entries: readonly LedgerEntry[]) =>
  entries.map((e) => ({ ...e, amount: toDecimalString(e.amount) }));

async function saveLoans(tx: Queryable, loans: readonly LedgerLoan[]): Promise<void> {
  if (loans.length === 0) return;
  await tx.query(
    `INSERT INTO ledger_loans (loan_id, user_id, bank_id, loan_type_id, account_number, deleted, schedule_version,
                               emis, paid, generated_at, version)
     SELECT r."loanId", r."userId", r."bankId", r."loanTypeId", r."accountNumber", r."deleted",
            r."scheduleVersion", r."emis", r."paid", r."generatedAt", r."version"
       FROM jsonb_to_recordset($1::jsonb) AS r("loanId" text, "userId" text, "bankId" integer,
            "loanTypeId" integer, "accountNumber" text, "deleted" boolean, "scheduleVersion" integer,
            "emis" jsonb, "paid" jsonb, "generatedAt" timestamptz, "version" integer)
     ON CONFLICT (loan_id) DO UPDATE SET
       bank_id = EXCLUDED.bank_id, loan_type_id = EXCLUDED.loan_type_id,
       account_number = EXCLUDED.account_number, deleted = EXCLUDED.deleted,
       schedule_version = EXCLUDED.schedule_version, emis = EXCLUDED.emis, paid = EXCLUDED.paid,
       generated_at = EXCLUDED.generated_at, version = EXCLUDED.version`,
    [JSON.stringify(loans)],
  );
}

/** Adds the month counts in `$param` (records of `periodRecords`); returns the counts. */
const ADD_TO_PERIODS = (
  param: string,
) => `INSERT INTO ledger_periods AS p (user_id, year, month, transaction_count, emi_count)
     SELECT r."userId", r."year", r."month", r."transactions", r."emis"
       FROM jsonb_to_recordset(${param}::jsonb) AS r("userId" text, "year" integer, "month" integer,
            "transactions" integer, "emis" integer)
     ON CONFLICT (user_id, year, month) DO UPDATE SET
       transaction_count = p.transaction_count + EXCLUDED.transaction_count,
       emi_count = p.emi_count + EXCLUDED.emi_count
     RETURNING p.user_id, p.year, p.month, p.transaction_count, p.emi_count`;

const periodRecords = (delta: PeriodDelta) =>
  [...delta]
    .filter(([, d]) => d.transactions !== 0 || d.emis !== 0)
    .map(([key, d]) => {
      const [userId, year, month] = key.split('|');
      return { userId, year: Number(year), month: Number(month), transactions: d.transactions, emis: d.emis };
    });

/**
 * The entries and the month counts in one statement (the two tables are independent: a
 * statement each was a round trip each on every command, issue 16). A month whose counts reach
 * 0 is then removed, as a rebuild would never create it.
 */
async function saveEntriesAndPeriods(
  tx: Queryable,
  entries: readonly LedgerEntry[],
  delta: PeriodDelta,
): Promise<void> {
  const periods = periodRecords(delta);
  if (entries.length === 0 && periods.length === 0) return;
  const { rows } = await tx.query<{
    user_id: string;
    year: number;
    month: number;
    transaction_count: number;
    emi_count: number;
  }>(
    `WITH entries AS (${SAVE_ENTRIES('$1')}) ${ADD_TO_PERIODS('$2')}`,
    [JSON.stringify(entryRecords(entries)), JSON.stringify(periods)],
    { prepared: true },
  );
  const empty = rows.filter((r) => Number(r.transaction_count) === 0 && Number(r.emi_count) === 0);
  if (empty.length === 0) return;
  await tx.query(
    `DELETE FROM ledger_periods p
      USING unnest($1::text[], $2::int[], $3::int[]) AS z(user_id, year, month)
      WHERE p.user_id = z.user_id AND p.year = z.year AND p.month = z.month
        AND p.transaction_count = 0 AND p.emi_count = 0`,
    [empty.map((r) => r.user_id), empty.map((r) => r.year), empty.map((r) => r.month)],
  );
}

/**
 * The monthly ledger's rows: one read of what the batch touches, the fold (`fold.ts`), then
 * the entries, loans, names and month counts written in the same transaction.
 */
export const ledgerProjection = defineProjection({
  name: 'ledger',
  handles: [...LEDGER_EVENT_TYPES, ...IMPORT_EVENT_TYPES],
  tables: ['ledger_entries', 'ledger_loans', 'ledger_names', 'ledger_periods'],
  migrations: new URL('./migrations', import.meta.url),
  // Its writes look rows up by their keys and a loan's entries by `ledger_entries_by_loan` (kept).
  deferredIndexes: ['ledger_entries_by_date', 'ledger_entries_loan_payments', 'ledger_loans_by_user'],
  async apply(tx, batch) {
    // A statement import's rows are folded as the transactions they record (issue 30).
    const events = withImportedTransactions(batch) as RecordedEvent[] as LedgerEvent[];
    const { entryIds, loanIds, deletedLoanIds } = touchedBy(events);
    const before = await loadState(tx, entryIds, loanIds, deletedLoanIds);
    const result = foldLedgerBatch(before, events);
    await saveNames(tx, 'bank', result.banks);
    await saveNames(tx, 'loan_type', result.loanTypes);
    const names = await loadNames(tx, result.loans.values());
    const { removedEntries, addedEntries, removedIds } = entryChanges(before, result, names);
    if (result.loans.size > 0) {
      await tx.query('DELETE FROM ledger_entries WHERE loan_id = ANY($1::text[])', [
        [...result.loans.keys()],
      ]);
    }
    if (removedIds.length > 0) {
      await tx.query('DELETE FROM ledger_entries WHERE entry_id = ANY($1::text[])', [removedIds]);
    }
    await saveLoans(tx, [...result.loans.values()]);
    await saveEntriesAndPeriods(tx, addedEntries, periodDelta(removedEntries, addedEntries));
  },
});
