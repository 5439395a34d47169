import {
  assertNever,
  type Paise,
  type RecordedEvent,
  TRANSACTION_EVENT_TYPES,
  type TransactionEvent,
  type TransactionType,
  toDecimalString,
  toPaise,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { foldRows, type RowChange, rowProjection, splitChanges } from '../runner/row-projection';

/** One row of `transactions`. Money in paise; instants ISO-8601 UTC. */
export type TransactionRow = Readonly<{
  id: string;
  userId: string;
  notes: string;
  transactionType: TransactionType;
  transactionDate: string;
  amount: Paise;
  createdAt: string;
  updatedAt: string;
  /** Stream version of the last event folded in. */
  version: number;
}>;

type Versioned = Pick<RecordedEvent, 'streamVersion'>;
export type VersionedTransactionEvent = TransactionEvent & Versioned;

/** Pure fold of one transaction's events into its row (null before it is recorded and once deleted). */
export function evolveTransactionRow(
  row: TransactionRow | null,
  event: VersionedTransactionEvent,
): TransactionRow | null {
  if (row && event.streamVersion <= row.version) return row;
  const version = event.streamVersion;
  switch (event.type) {
    case 'TransactionRecorded': {
      const d = event.data;
      return {
        id: d.transactionId,
        userId: d.userId,
        notes: d.notes,
        transactionType: d.transactionType,
        transactionDate: d.transactionDate,
        amount: d.amount,
        createdAt: d.recordedAt,
        updatedAt: d.recordedAt,
        version,
      };
    }
    case 'TransactionUpdated':
      return row ? { ...row, ...event.data.changes, updatedAt: event.data.updatedAt, version } : null;
    case 'TransactionDeleted':
      return null;
    default:
      return assertNever(event);
  }
}

/** The user's totals; amounts in paise. */
export type TransactionStats = Readonly<{
  totalTransactions: number;
  creditCount: number;
  debitCount: number;
  creditAmount: Paise;
  debitAmount: Paise;
}>;

export const EMPTY_STATS: TransactionStats = {
  totalTransactions: 0,
  creditCount: 0,
  debitCount: 0,
  creditAmount: 0,
  debitAmount: 0,
};

/** What one row adds to its owner's totals (nothing for a missing row). */
export function statsOf(row: TransactionRow | null): TransactionStats {
  if (!row) return EMPTY_STATS;
  const credit = row.transactionType === 'C';
  return {
    totalTransactions: 1,
    creditCount: credit ? 1 : 0,
    debitCount: credit ? 0 : 1,
    creditAmount: credit ? row.amount : 0,
    debitAmount: credit ? 0 : row.amount,
  };
}

export function addStats(a: TransactionStats, b: TransactionStats, sign: 1 | -1 = 1): TransactionStats {
  return {
    totalTransactions: a.totalTransactions + sign * b.totalTransactions,
    creditCount: a.creditCount + sign * b.creditCount,
    debitCount: a.debitCount + sign * b.debitCount,
    creditAmount: a.creditAmount + sign * b.creditAmount,
    debitAmount: a.debitAmount + sign * b.debitAmount,
  };
}

/** Each owner's change of totals: the totals of the rows after minus those of the rows before. */
export function statsDeltaOf(changes: readonly RowChange<TransactionRow>[]): Map<string, TransactionStats> {
  const statsDelta = new Map<string, TransactionStats>();
  for (const { before, after } of changes) {
    for (const [row, sign] of [
      [before, -1],
      [after, 1],
    ] as const) {
      if (!row) continue;
      statsDelta.set(row.userId, addStats(statsDelta.get(row.userId) ?? EMPTY_STATS, statsOf(row), sign));
    }
  }
  return statsDelta;
}

const transactionIdOf = (event: VersionedTransactionEvent) => event.data.transactionId;

/**
 * The batch's effect: the rows whose fold changed (null = remove) and each owner's change of
 * totals, so an event delivered twice (a no-op for its row) changes no total either.
 */
export function foldBatch(
  before: ReadonlyMap<string, TransactionRow>,
  events: readonly VersionedTransactionEvent[],
): { changed: Map<string, TransactionRow | null>; statsDelta: Map<string, TransactionStats> } {
  const changes = foldRows(before, events, transactionIdOf, evolveTransactionRow);
  return {
    changed: new Map(changes.map(({ key, after }) => [key, after])),
    statsDelta: statsDeltaOf(changes),
  };
}

export const TRANSACTION_COLUMNS = `id::text AS id, user_id, notes, transaction_type,
  to_char(transaction_date, 'YYYY-MM-DD') AS transaction_date, amount::text AS amount,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at, version`;

export type DbTransactionRow = {
  id: string;
  user_id: string;
  notes: string;
  transaction_type: TransactionType;
  transaction_date: string;
  amount: string;
  created_at: string;
  updated_at: string;
  version: number;
};

export function fromDb(r: DbTransactionRow): TransactionRow {
  return {
    id: r.id,
    userId: r.user_id,
    notes: r.notes,
    transactionType: r.transaction_type,
    transactionDate: r.transaction_date,
    amount: toPaise(r.amount),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: Number(r.version),
  };
}

async function loadRows(tx: Queryable, ids: readonly string[]): Promise<Map<string, TransactionRow>> {
  const { rows } = await tx.query<DbTransactionRow>(
    `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, fromDb(r)]));
}

/** Upserts the rows in `$param` (records of `rowRecords`). */
const SAVE_ROWS = (param: string) => `INSERT INTO transactions
       (id, user_id, notes, transaction_type, transaction_date, amount, created_at, updated_at, version)
     SELECT r."id", r."userId", r."notes", r."transactionType", r."transactionDate", r."amount",
            r."createdAt", r."updatedAt", r."version"
       FROM jsonb_to_recordset(${param}::jsonb) AS r("id" uuid, "userId" text, "notes" text,
            "transactionType" char(1), "transactionDate" date, "amount" numeric, "createdAt" timestamptz,
            "updatedAt" timestamptz, "version" integer)
     ON CONFLICT (id) DO UPDATE SET
       notes = EXCLUDED.notes, transaction_type = EXCLUDED.transaction_type,
       transaction_date = EXCLUDED.transaction_date, amount = EXCLUDED.amount,
       updated_at = EXCLUDED.updated_at, version = EXCLUDED.version`;

const rowRecords = (rows: readonly TransactionRow[]) =>
  rows.map((r) => ({ ...r, amount: toDecimalString(r.amount) }));

/** Adds the owners' changes of totals in `$param` (records of `statsRecords`). */
const ADD_TO_STATS = (param: string) => `INSERT INTO transaction_stats AS s
       (user_id, total_transactions, credit_count, debit_count, credit_amount, debit_amount)
     SELECT r."userId", r."total", r."creditCount", r."debitCount", r."credit", r."debit"
       FROM jsonb_to_recordset(${param}::jsonb) AS r("userId" text, "total" bigint, "creditCount" bigint,
            "debitCount" bigint, "credit" numeric, "debit" numeric)
     ON CONFLICT (user_id) DO UPDATE SET
       total_transactions = s.total_transactions + EXCLUDED.total_transactions,
       credit_count = s.credit_count + EXCLUDED.credit_count,
       debit_count = s.debit_count + EXCLUDED.debit_count,
       credit_amount = s.credit_amount + EXCLUDED.credit_amount,
       debit_amount = s.debit_amount + EXCLUDED.debit_amount`;

const statsRecords = (deltas: ReadonlyMap<string, TransactionStats>) =>
  [...deltas].map(([userId, d]) => ({
    userId,
    total: d.totalTransactions,
    creditCount: d.creditCount,
    debitCount: d.debitCount,
    credit: toDecimalString(d.creditAmount),
    debit: toDecimalString(d.debitAmount),
  }));

/**
 * Notes that leave (-1) and notes that arrive (+1) per owner: a row whose notes did not change
 * adds nothing. The grams themselves are cut in SQL, with PostgreSQL's lower(), the very
 * case-folding ILIKE compares with.
 */
export function notesDeltaOf(
  changes: readonly RowChange<TransactionRow>[],
): { userId: string; notes: string; sign: 1 | -1 }[] {
  const delta: { userId: string; notes: string; sign: 1 | -1 }[] = [];
  for (const { before, after } of changes) {
    if (before && after && before.notes === after.notes && before.userId === after.userId) continue;
    if (before) delta.push({ userId: before.userId, notes: before.notes, sign: -1 });
    if (after) delta.push({ userId: after.userId, notes: after.notes, sign: 1 });
  }
  return delta;
}

/** Every one- and two-character piece of lower(notes), each once per note (003_note_grams.sql). */
const NOTE_GRAMS = `SELECT DISTINCT substr(lower(r."notes"), i, k) AS gram
      FROM generate_series(1, char_length(lower(r."notes"))) AS i, (VALUES (1), (2)) AS len(k)
     WHERE i + k - 1 <= char_length(lower(r."notes"))`;

/** Adds each note's pieces in `$param` (a `notesDeltaOf`) to its owner's counts; returns the counts. */
const ADD_TO_NOTE_GRAMS = (param: string) => `INSERT INTO transaction_note_grams AS g (user_id, gram, n)
     SELECT r."userId", s.gram, sum(r."sign")
       FROM jsonb_to_recordset(${param}::jsonb) AS r("userId" text, "notes" text, "sign" integer)
       CROSS JOIN LATERAL (${NOTE_GRAMS}) s
      GROUP BY r."userId", s.gram
     ON CONFLICT (user_id, gram) DO UPDATE SET n = g.n + EXCLUDED.n
     RETURNING g.user_id, g.gram, g.n`;

type GramCount = { user_id: string; gram: string; n: number };

/**
 * A count that reached 0 is removed, so the table holds what a rebuild of the same log holds (a
 * rebuild folds a record and its later edit into one change and never counts the old notes'
 * pieces).
 */
async function dropEmptyGrams(tx: Queryable, counts: readonly GramCount[]): Promise<void> {
  const gone = counts.filter((r) => Number(r.n) <= 0);
  if (gone.length === 0) return;
  await tx.query(
    `DELETE FROM transaction_note_grams g
      USING unnest($1::text[], $2::text[]) AS z(user_id, gram)
      WHERE g.user_id = z.user_id AND g.gram = z.gram AND g.n <= 0`,
    [gone.map((r) => r.user_id), gone.map((r) => r.gram)],
  );
}

/** Adds each note's pieces to (or, sign -1, takes them from) its owner's counts. */
export async function addToNoteGrams(tx: Queryable, delta: ReturnType<typeof notesDeltaOf>): Promise<void> {
  if (delta.length === 0) return;
  const { rows } = await tx.query<GramCount>(ADD_TO_NOTE_GRAMS('$1'), [JSON.stringify(delta)]);
  await dropEmptyGrams(tx, rows);
}

/**
 * The rows, the totals and the note grams in one statement: the three tables are independent
 * (no part reads what another writes), and a statement per table was a round trip each on
 * every command (issue 16: POST /api/transactions). An empty list writes nothing.
 */
async function saveBatch(
  tx: Queryable,
  changes: readonly RowChange<TransactionRow>[],
  saved: readonly TransactionRow[],
) {
  const { rows } = await tx.query<GramCount>(
    `WITH saved AS (${SAVE_ROWS('$1')}), totals AS (${ADD_TO_STATS('$2')})
     ${ADD_TO_NOTE_GRAMS('$3')}`,
    [
      JSON.stringify(rowRecords(saved)),
      JSON.stringify(statsRecords(statsDeltaOf(changes))),
      JSON.stringify(notesDeltaOf(changes)),
    ],
  );
  await dropEmptyGrams(tx, rows);
}

/**
 * The transaction list, each user's totals and note grams: one read and one write per batch (a
 * removal, or a count gone to 0, adds one).
 */
export const transactionsProjection = rowProjection({
  name: 'transactions',
  handles: TRANSACTION_EVENT_TYPES,
  tables: ['transactions', 'transaction_stats', 'transaction_note_grams'],
  migrations: new URL('./migrations', import.meta.url),
  keyOf: transactionIdOf,
  evolve: evolveTransactionRow,
  load: loadRows,
  async write(tx, changes) {
    const { removed, saved } = splitChanges(changes);
    if (removed.length > 0) await tx.query('DELETE FROM transactions WHERE id = ANY($1::uuid[])', [removed]);
    await saveBatch(tx, changes, saved);
  },
});
