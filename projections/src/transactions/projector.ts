import {
  assertNever,
  CATEGORY_MOVE_EVENT_TYPES,
  type CategoriesSeeded,
  type CategoryDeleted,
  type CategoryMerged,
  type EmiMarkedPaid,
  type EmiMatched,
  type EmiMatchReleased,
  IMPORT_EVENT_TYPES,
  type ImportCommitted,
  LOAN_EMI_KEY,
  type Paise,
  pickFields,
  type RecordedEvent,
  type RuleApplied,
  TRANSACTION_EVENT_TYPES,
  TRANSACTION_FIELDS,
  type TransactionEvent,
  type TransactionFields,
  toDecimalString,
  withAbsent,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { columnsOf } from '../runner/columns';
import { defineProjection } from '../runner/define';
import { foldRows, type RowChange, splitChanges } from '../runner/row-projection';
import { withImportedTransactions } from './imported';
import { ADD_TO_MONTHS, dropEmptyMonths, monthRecords, monthsDeltaOf, recategorise } from './months';
import { cutNotes, type NotesDelta } from './note-cuts';

export type { NotesDelta } from './note-cuts';

/** One row of `transactions`. Money in paise; instants ISO-8601 UTC. */
export type TransactionRow = TransactionFields &
  Readonly<{
    id: string;
    userId: string;
    /** A statement row's narration as the bank wrote it (searchable), and its import; null when typed. */
    rawNarration: string | null;
    importId: string | null;
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
        // A field added later reads as its `absent` value in events stored before it.
        ...pickFields(TRANSACTION_FIELDS, withAbsent(TRANSACTION_FIELDS, d)),
        id: d.transactionId,
        userId: d.userId,
        rawNarration: d.rawNarration ?? null,
        importId: d.importId ?? null,
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

/** The columns of the transaction's declared fields (`TRANSACTION_FIELDS`). */
const FIELD_COLUMNS = columnsOf(TRANSACTION_FIELDS);

/** `TRANSACTION_COLUMNS` of the table under `alias` (for a statement that joins it to others). */
export const transactionColumnsOf = (alias?: string) => {
  const a = alias === undefined ? '' : `${alias}.`;
  return `${a}id::text AS id, ${a}user_id, ${FIELD_COLUMNS.select(alias)},
  ${a}raw_narration, ${a}import_id::text AS import_id,
  to_char(${a}created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(${a}updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at, ${a}version`;
};

export const TRANSACTION_COLUMNS = transactionColumnsOf();

/** A row as `TRANSACTION_COLUMNS` reads it: the fields' columns (see `columnsOf`) and the row's own. */
export type DbTransactionRow = Readonly<Record<string, unknown>> & {
  id: string;
  user_id: string;
  raw_narration: string | null;
  import_id: string | null;
  created_at: string;
  updated_at: string;
  version: number;
};

export function fromDb(r: DbTransactionRow): TransactionRow {
  // The fields' record, fresh, completed in place: a spread of it copied every property again
  // (every row of every page goes through here).
  const row = FIELD_COLUMNS.fromSql(r) as Record<string, unknown>;
  row.id = r.id;
  row.userId = r.user_id;
  row.rawNarration = r.raw_narration;
  row.importId = r.import_id;
  row.createdAt = r.created_at;
  row.updatedAt = r.updated_at;
  row.version = Number(r.version);
  return row as TransactionRow;
}

async function loadRows(
  tx: Queryable,
  ids: readonly string[],
  importIds: readonly string[] = [],
): Promise<Map<string, TransactionRow>> {
  const { rows } =
    importIds.length === 0
      ? await tx.query<DbTransactionRow>(
          `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = ANY($1::uuid[])`,
          [ids],
          { prepared: true },
        )
      : await tx.query<DbTransactionRow>(
          `SELECT ${TRANSACTION_COLUMNS} FROM transactions
            WHERE id = ANY($1::uuid[]) OR (import_id = ANY($2::uuid[]))`,
          [ids, importIds],
        );
  return new Map(rows.map((r) => [r.id, fromDb(r)]));
}

/**
 * The rows a batch touches: a statement commit's rows are looked up by their import (the ids
 * are the commit's own, so only its rows can hold them; one index range instead of 50,000
 * look-ups), every other transaction by id.
 */
function touchedKeys(batch: readonly RecordedEvent[], events: readonly VersionedTransactionEvent[]) {
  const commits = batch.filter(
    (event) => event.type === 'ImportCommitted',
  ) as RecordedEvent<ImportCommitted>[];
  if (commits.length === 0) return { ids: [...new Set(events.map(transactionIdOf))], importIds: [] };
  const recorded = new Set(commits.flatMap((event) => event.data.rows.map((row) => row.transactionId)));
  const ids = new Set<string>();
  for (const event of events) if (!recorded.has(event.data.transactionId)) ids.add(event.data.transactionId);
  return { ids: [...ids], importIds: commits.map((event) => event.data.importId) };
}

/**
 * Upserts the rows in `$param` (records of `rowRecords`). Read as json, not jsonb: the records
 * are read once, and a 50,000-row import's 25 MB parsed a third faster so (no jsonb built).
 */
const SAVE_ROWS = (param: string) => `INSERT INTO transactions
       (id, user_id, ${FIELD_COLUMNS.insert}, raw_narration, import_id, created_at, updated_at, version)
     SELECT r."id", r."userId", ${FIELD_COLUMNS.values}, r."rawNarration", r."importId", r."createdAt",
            r."updatedAt", r."version"
       FROM json_to_recordset(${param}::json) AS r("id" uuid, "userId" text, ${FIELD_COLUMNS.recordset},
            "rawNarration" text, "importId" uuid, "createdAt" timestamptz, "updatedAt" timestamptz, "version" integer)
     ON CONFLICT (id) DO UPDATE SET ${FIELD_COLUMNS.update},
       updated_at = EXCLUDED.updated_at, version = EXCLUDED.version`;

const rowRecords = (rows: readonly TransactionRow[]) =>
  rows.map((r) => ({ ...r, ...FIELD_COLUMNS.toRecord(r) }));

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
 * Notes that leave (-1) and notes that arrive (+1) per owner and transaction: a row whose notes
 * and sort key (date and instant recorded: its postings carry them, migration 015) did not change
 * adds nothing; one whose date alone moved leaves and arrives with the same notes, so only its
 * postings move. The grams and words themselves are cut in SQL, with PostgreSQL's lower(), the
 * very case-folding ILIKE compares with.
 */
export function notesDeltaOf(changes: readonly RowChange<TransactionRow>[]): NotesDelta[] {
  const delta: NotesDelta[] = [];
  for (const { before, after } of changes) {
    if (
      before &&
      after &&
      searchText(before) === searchText(after) &&
      before.userId === after.userId &&
      before.transactionDate === after.transactionDate &&
      before.createdAt === after.createdAt
    )
      continue;
    if (before) delta.push(noteOf(before, -1));
    if (after) delta.push(noteOf(after, 1));
  }
  return delta;
}

const noteOf = (row: TransactionRow, sign: 1 | -1): NotesDelta => ({
  userId: row.userId,
  id: row.id,
  date: row.transactionDate,
  createdAt: row.createdAt,
  notes: searchText(row),
  sign,
});

/**
 * What a search reads of a row: its notes, and an imported row's raw narration after a line
 * break (no search term holds one, so no gram or word spans the two; queries.ts SEARCHED).
 */
export function searchText(row: TransactionRow): string {
  return row.rawNarration === null ? row.notes : `${row.notes}\n${row.rawNarration}`;
}

/** Every one- and two-character piece of lower(notes), each once per note (003_note_grams.sql). */
const NOTE_GRAMS = `SELECT DISTINCT substr(lower(r."notes"), i, k) AS gram
      FROM generate_series(1, char_length(lower(r."notes"))) AS i, (VALUES (1), (2)) AS len(k)
     WHERE i + k - 1 <= char_length(lower(r."notes"))`;

/**
 * The distinct words of lower(r."notes"), cut at white space by the same class that
 * `searchByWords` (queries.ts) uses to send a term with white space elsewhere, that no longer
 * word of the note holds (note-cuts.ts `maximalWords`, migration 013).
 */
const NOTE_WORDS = `SELECT DISTINCT w.word FROM regexp_split_to_table(lower(r."notes"), '[[:space:]]+') AS w(word)
     WHERE w.word <> '' AND NOT EXISTS (
       SELECT 1 FROM regexp_split_to_table(lower(r."notes"), '[[:space:]]+') AS o(word)
        WHERE char_length(o.word) > char_length(w.word) AND strpos(o.word, w.word) > 0)`;

/** The records of a `notesDeltaOf` in `$param`. */
const NOTES_DELTA = (param: string) =>
  `jsonb_to_recordset(${param}::jsonb) AS r("userId" text, "id" uuid, "date" date, "createdAt" timestamptz,
     "notes" text, "sign" integer)`;

/**
 * Adds each note's pieces and words to its owner's counts, dictionary and postings
 * (004_note_words.sql); the rows of both counts that reached 0 are returned (`kind` 'gram' or
 * 'word'), and only they. The pieces and words come cut (`cutNotes`, note-cuts.ts) as arrays in
 * the parameters `p` names; notes JS cannot cut come as records of a `notesDeltaOf` in
 * `p.notes`, and are cut here with the database's lower() (`mixed`: only then does the
 * statement group what both cuts give).
 */
const ADD_TO_NOTE_INDEXES = (p: Record<NoteParam, string>, mixed: boolean) => {
  const postings = `SELECT * FROM unnest(${p.wordUsers}::text[], ${p.words}::text[], ${p.wordDates}::date[],
       ${p.wordCreatedAts}::timestamptz[], ${p.wordIds}::uuid[], ${p.wordSigns}::int[])`;
  const grams = `SELECT * FROM unnest(${p.gramUsers}::text[], ${p.grams}::text[], ${p.gramCounts}::int[])`;
  return `word_delta AS (
       ${
         mixed
           ? `SELECT user_id, word, transaction_date, created_at, transaction_id, sum(sign)::int AS sign FROM (
         SELECT r."userId" AS user_id, w.word, r."date" AS transaction_date, r."createdAt" AS created_at,
                r."id" AS transaction_id, r."sign"
           FROM ${NOTES_DELTA(p.notes)}
           CROSS JOIN LATERAL (${NOTE_WORDS}) w
         UNION ALL ${postings}
       ) cut
        GROUP BY 1, 2, 3, 4, 5`
           : `SELECT * FROM (${postings}) AS d(user_id, word, transaction_date, created_at, transaction_id, sign)`
       }
     ),
     postings_gone AS (
       DELETE FROM transaction_note_word_rows p USING word_delta d
        WHERE d.sign < 0 AND p.user_id = d.user_id AND p.word = d.word AND p.transaction_date = d.transaction_date
          AND p.created_at = d.created_at AND p.transaction_id = d.transaction_id
     ),
     postings_new AS (
       INSERT INTO transaction_note_word_rows (user_id, word, transaction_date, created_at, transaction_id)
       SELECT user_id, word, transaction_date, created_at, transaction_id FROM word_delta WHERE sign > 0
       ON CONFLICT DO NOTHING
     ),
     words AS (
       INSERT INTO transaction_note_words AS w (user_id, word, n)
       ${
         mixed
           ? 'SELECT user_id, word, sum(sign) FROM word_delta GROUP BY user_id, word HAVING sum(sign) <> 0'
           : `SELECT * FROM unnest(${p.wordCountUsers}::text[], ${p.wordCountWords}::text[], ${p.wordCounts}::int[])`
       }
       ON CONFLICT (user_id, word) DO UPDATE SET n = w.n + EXCLUDED.n
       RETURNING w.user_id, w.word AS key, w.n
     ),
     grams AS (
       INSERT INTO transaction_note_grams AS g (user_id, gram, n)
       ${
         mixed
           ? `SELECT user_id, gram, sum(n) FROM (
         SELECT r."userId" AS user_id, s.gram, r."sign" AS n
           FROM ${NOTES_DELTA(p.notes)}
           CROSS JOIN LATERAL (${NOTE_GRAMS}) s
         UNION ALL ${grams}
       ) cut
        GROUP BY user_id, gram`
           : grams
       }
       ON CONFLICT (user_id, gram) DO UPDATE SET n = g.n + EXCLUDED.n
       RETURNING g.user_id, g.gram AS key, g.n
     )
     SELECT 'gram' AS kind, user_id, key FROM grams WHERE n <= 0
     UNION ALL SELECT 'word', user_id, key FROM words WHERE n <= 0`;
};

type NoteParam =
  | 'notes'
  | 'gramUsers'
  | 'grams'
  | 'gramCounts'
  | 'wordUsers'
  | 'words'
  | 'wordDates'
  | 'wordCreatedAts'
  | 'wordIds'
  | 'wordSigns'
  | 'wordCountUsers'
  | 'wordCountWords'
  | 'wordCounts';

/** The note indexes' statement (`ADD_TO_NOTE_INDEXES`) with its parameters numbered from `first`, and their values. */
function noteIndexParams(delta: readonly NotesDelta[], first: number) {
  const cuts = cutNotes(delta);
  const mixed = cuts.inSql.length > 0;
  const values: Partial<Record<NoteParam, unknown>> = {
    ...(mixed && { notes: JSON.stringify(cuts.inSql) }),
    gramUsers: cuts.grams.userIds,
    grams: cuts.grams.grams,
    gramCounts: cuts.grams.n,
    wordUsers: cuts.words.userIds,
    words: cuts.words.words,
    wordDates: cuts.words.dates,
    wordCreatedAts: cuts.words.createdAts,
    wordIds: cuts.words.ids,
    wordSigns: cuts.words.signs,
    ...(!mixed && {
      wordCountUsers: cuts.wordCounts.userIds,
      wordCountWords: cuts.wordCounts.words,
      wordCounts: cuts.wordCounts.n,
    }),
  };
  const names = Object.keys(values) as NoteParam[];
  const params = Object.fromEntries(names.map((name, i) => [name, `$${first + i}`])) as Record<
    NoteParam,
    string
  >;
  return { sql: ADD_TO_NOTE_INDEXES(params, mixed), values: names.map((name) => values[name]) };
}

type EmptyCount = { kind: 'gram' | 'word' | 'month'; user_id: string; key: string };

/**
 * A count that reached 0 is removed, so the tables hold what a rebuild of the same log holds (a
 * rebuild folds a record and its later edit into one change and never counts the old notes'
 * pieces or words).
 */
async function dropEmptyCounts(tx: Queryable, counts: readonly EmptyCount[]): Promise<void> {
  for (const [kind, table, column] of [
    ['gram', 'transaction_note_grams', 'gram'],
    ['word', 'transaction_note_words', 'word'],
  ] as const) {
    const gone = counts.filter((r) => r.kind === kind);
    if (gone.length === 0) continue;
    await tx.query(
      `DELETE FROM ${table} g
        USING unnest($1::text[], $2::text[]) AS z(user_id, key)
        WHERE g.user_id = z.user_id AND g.${column} = z.key AND g.n <= 0`,
      [gone.map((r) => r.user_id), gone.map((r) => r.key)],
    );
  }
}

/** Adds each note's pieces and words to (or, sign -1, takes them from) its owner's indexes. */
export async function addToNoteIndexes(tx: Queryable, delta: readonly NotesDelta[]): Promise<void> {
  if (delta.length === 0) return;
  const { sql, values } = noteIndexParams(delta, 1);
  const { rows } = await tx.query<EmptyCount>(`WITH ${sql}`, values);
  await dropEmptyCounts(tx, rows);
}

/**
 * The rows, the totals, the month cells, the note grams and words in one statement: the tables
 * are independent (no part reads what another writes), and a statement per table was a round
 * trip each on every command (issue 16: POST /api/transactions). An empty list writes nothing.
 */
async function saveBatch(
  tx: Queryable,
  changes: readonly RowChange<TransactionRow>[],
  saved: readonly TransactionRow[],
  withNotes: boolean,
) {
  const notes = noteIndexParams(withNotes ? notesDeltaOf(changes) : [], 4);
  const { rows } = await tx.query<EmptyCount>(
    `WITH saved AS (${SAVE_ROWS('$1')}), totals AS (${ADD_TO_STATS('$2')}),
     months AS (${ADD_TO_MONTHS({ param: '$3' })}), ${notes.sql}
     UNION ALL SELECT 'month', emptied_user_id, '' FROM months WHERE emptied`,
    [
      JSON.stringify(rowRecords(saved)),
      JSON.stringify(statsRecords(statsDeltaOf(changes))),
      JSON.stringify(monthRecords(monthsDeltaOf(changes))),
      ...notes.values,
    ],
    { prepared: true },
  );
  await dropEmptyCounts(tx, rows);
  await dropEmptyMonths(
    tx,
    rows.filter((r) => r.kind === 'month').map((r) => r.user_id),
  );
}

/**
 * Events of other streams that re-categorise transactions (issue 31): a category's merge or
 * delete, a rule's application, and an EMI matched to a debit (into the system's Loan EMI) or
 * released from it; the seed names the user's system categories for those.
 */
type CategorisingEvent =
  | CategoryMerged
  | CategoryDeleted
  | RuleApplied
  | CategoriesSeeded
  | EmiMatched
  | EmiMarkedPaid
  | EmiMatchReleased;
const CATEGORISING_EVENT_TYPES = [
  ...CATEGORY_MOVE_EVENT_TYPES,
  'RuleApplied',
  'CategoriesSeeded',
  'EmiMatched',
  'EmiMarkedPaid',
  'EmiMatchReleased',
] as const satisfies readonly CategorisingEvent['type'][];
const CATEGORISING_TYPES = new Set<string>(CATEGORISING_EVENT_TYPES);
const isCategorising = (event: RecordedEvent): event is RecordedEvent<CategorisingEvent> =>
  CATEGORISING_TYPES.has(event.type);

/**
 * A category's merge or delete moves every transaction of the user still in it; a rule's
 * application sets the category and payee of the transactions it lists. Neither touches the
 * row's version (the transaction's own stream is unchanged) nor the totals or the notes' indexes;
 * each moves the month cells of the rows it moved.
 */
async function categorise(tx: Queryable, event: RecordedEvent<CategorisingEvent>): Promise<void> {
  if (event.type === 'CategoriesSeeded') {
    const system = event.data.categories.filter((c) => c.systemKey === LOAN_EMI_KEY);
    for (const c of system)
      await tx.query(
        `INSERT INTO transaction_system_categories (user_id, key, category_id) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING`,
        [event.data.userId, c.systemKey, c.categoryId],
      );
    return;
  }
  if (event.type === 'EmiMatched' || event.type === 'EmiMarkedPaid') {
    // A debit matched to an EMI (an old EmiMarkedPaid with a transaction reads as a match) goes
    // into the user's Loan EMI category, unless the user put it in another.
    if (!event.data.transactionId) return;
    await recategorise(
      tx,
      `UPDATE transactions t SET category_id = s.category_id FROM transactions o, transaction_system_categories s
        WHERE t.id = $1 AND t.user_id = $2 AND s.user_id = t.user_id AND s.key = $3 AND t.category_id IS NULL
          AND o.id = t.id
       RETURNING ${MOVED}`,
      [event.data.transactionId, event.data.userId, LOAN_EMI_KEY],
      event.position,
    );
    return;
  }
  if (event.type === 'EmiMatchReleased') {
    await recategorise(
      tx,
      `UPDATE transactions t SET category_id = NULL FROM transactions o, transaction_system_categories s
        WHERE t.id = $1 AND t.user_id = $2 AND s.user_id = t.user_id AND s.key = $3
          AND t.category_id = s.category_id AND o.id = t.id
       RETURNING ${MOVED}`,
      [event.data.transactionId, event.data.userId, LOAN_EMI_KEY],
      event.position,
    );
    return;
  }
  if (event.type === 'RuleApplied') {
    const { userId, changes } = event.data;
    if (changes.length === 0) return;
    await recategorise(
      tx,
      `UPDATE transactions t SET category_id = r."categoryId", payee = r."payee"
         FROM jsonb_to_recordset($2::jsonb) AS r("transactionId" uuid, "categoryId" uuid, "payee" text), transactions o
        WHERE t.id = r."transactionId" AND t.user_id = $1 AND o.id = t.id
       RETURNING ${MOVED}`,
      [userId, JSON.stringify(changes)],
      event.position,
    );
    return;
  }
  const to = event.type === 'CategoryMerged' ? event.data.intoId : event.data.moveTo;
  await recategorise(
    tx,
    `UPDATE transactions t SET category_id = $3 FROM transactions o
      WHERE t.user_id = $1 AND t.category_id = $2 AND o.id = t.id
     RETURNING ${MOVED}`,
    [event.data.userId, event.data.categoryId, to],
    event.position,
  );
}

/**
 * What a re-categorising UPDATE answers for the month cells (months.ts `recategorise`): `o` is
 * the row joined to itself, as it was before the statement.
 */
const MOVED = `t.id, t.user_id, t.transaction_date, t.transaction_type, t.amount, o.category_id AS before,
       t.category_id AS after`;

/** The transactions' own events (and imports' rows) of a batch, folded and saved together. */
async function applyTransactionEvents(
  tx: Queryable,
  batch: readonly RecordedEvent[],
  withNotes = true,
): Promise<void> {
  // A statement import's rows are folded as the transactions they record (issue 30).
  const events = withImportedTransactions(batch) as VersionedTransactionEvent[];
  const { ids, importIds } = touchedKeys(batch, events);
  const before = await loadRows(tx, ids, importIds);
  const changes = foldRows(before, events, transactionIdOf, evolveTransactionRow);
  if (changes.length === 0) return;
  const { removed, saved } = splitChanges(changes);
  if (removed.length > 0) await tx.query('DELETE FROM transactions WHERE id = ANY($1::uuid[])', [removed]);
  await saveBatch(tx, changes, saved, withNotes);
}

/** The note indexes' tables: a rebuild's bulk path fills them once, from the rows (`deriveNoteIndexes`). */
const NOTE_TABLES = ['transaction_note_grams', 'transaction_note_words', 'transaction_note_word_rows'];
/** Owners whose rows `deriveNoteIndexes` cuts in one statement (each owner's counts written once). */
const DERIVE_USERS = 200;

/**
 * The note grams, words and postings of every row of `transactions`, replacing what the tables
 * held: what the batches would have added and taken away, netted over the whole log (a rebuild
 * otherwise upserts each owner's pieces again in every batch that holds one of their rows). The
 * same cut as a batch's (`addToNoteIndexes`), a group of owners at a time.
 */
export async function deriveNoteIndexes(tx: Queryable): Promise<void> {
  await tx.query(`TRUNCATE ${NOTE_TABLES.join(', ')}`);
  const { rows: owners } = await tx.query<{ user_id: string }>(
    'SELECT DISTINCT user_id FROM transactions ORDER BY user_id',
  );
  for (let i = 0; i < owners.length; i += DERIVE_USERS) {
    const users = owners.slice(i, i + DERIVE_USERS).map((r) => r.user_id);
    const { rows } = await tx.query<{
      user_id: string;
      id: string;
      date: string;
      created_at: string;
      notes: string;
      raw_narration: string | null;
    }>(
      `SELECT user_id, id, transaction_date::text AS date, created_at::text AS created_at, notes, raw_narration
         FROM transactions WHERE user_id = ANY($1::text[])`,
      [users],
    );
    const cuts = cutNotes(
      rows.map((r) => ({
        userId: r.user_id,
        id: r.id,
        date: r.date,
        createdAt: r.created_at,
        notes: r.raw_narration === null ? r.notes : `${r.notes}\n${r.raw_narration}`,
        sign: 1,
      })),
    );
    // These owners have no row yet: plain inserts of what JS cut (every sign and count > 0)...
    await tx.query(
      `WITH grams AS (
         INSERT INTO transaction_note_grams (user_id, gram, n) SELECT * FROM unnest($1::text[], $2::text[], $3::int[])
       ), words AS (
         INSERT INTO transaction_note_words (user_id, word, n) SELECT * FROM unnest($4::text[], $5::text[], $6::int[])
       )
       INSERT INTO transaction_note_word_rows (user_id, word, transaction_date, created_at, transaction_id)
       SELECT * FROM unnest($7::text[], $8::text[], $9::date[], $10::timestamptz[], $11::uuid[])`,
      [
        cuts.grams.userIds,
        cuts.grams.grams,
        cuts.grams.n,
        cuts.wordCounts.userIds,
        cuts.wordCounts.words,
        cuts.wordCounts.n,
        cuts.words.userIds,
        cuts.words.words,
        cuts.words.dates,
        cuts.words.createdAts,
        cuts.words.ids,
      ],
    );
    // ...then the notes JS cannot cut like PostgreSQL, added to them as a batch adds them.
    await addToNoteIndexes(tx, cuts.inSql);
  }
}

/**
 * A batch in order around its re-categorising events (below); `withNotes` false leaves the note
 * indexes to a rebuild's `deriveNoteIndexes`.
 */
async function applyBatch(tx: Queryable, batch: readonly RecordedEvent[], withNotes: boolean): Promise<void> {
  let run: RecordedEvent[] = [];
  for (const event of batch) {
    if (!isCategorising(event)) {
      run.push(event);
      continue;
    }
    if (run.length > 0) await applyTransactionEvents(tx, run, withNotes);
    run = [];
    await categorise(tx, event);
  }
  if (run.length > 0) await applyTransactionEvents(tx, run, withNotes);
}

/**
 * The transaction list, each user's totals, note grams and note words: one read and one write
 * per batch (a removal, or a count gone to 0, adds one). A batch holding a category's merge or
 * delete or a rule's application is applied in order around it: the rows before it are saved,
 * then it moves what they hold, then the rest follows.
 */
export const transactionsProjection = defineProjection({
  name: 'transactions',
  handles: [...TRANSACTION_EVENT_TYPES, ...IMPORT_EVENT_TYPES, ...CATEGORISING_EVENT_TYPES],
  tables: [
    'transactions',
    'transaction_stats',
    'transaction_note_grams',
    'transaction_note_words',
    'transaction_note_word_rows',
    'transaction_system_categories',
    'transaction_months',
    'transaction_category_moves',
  ],
  migrations: new URL('./migrations', import.meta.url),
  // Its writes look rows up by id, by import (`transactions_by_import`) and by category (a
  // category's merge or delete: `transactions_by_category`); the list's other orders wait.
  deferredIndexes: [
    'transactions_by_account',
    'transactions_by_amount',
    'transactions_by_created',
    'transactions_by_date',
    'transactions_by_notes',
    'transactions_debits_by_date',
  ],
  apply: (tx, batch) => applyBatch(tx, batch, true),
  // A rebuild leaves the note indexes out of its batches and derives them once at the end.
  bulk: {
    apply: (tx, batch) => applyBatch(tx, batch, false),
    finish: deriveNoteIndexes,
  },
});
