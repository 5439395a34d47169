import { type Paise, type TransactionType, toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import {
  type DbTransactionRow,
  fromDb,
  TRANSACTION_COLUMNS,
  type TransactionRow,
  type TransactionStats,
  transactionColumnsOf,
} from './projector';

export type { TransactionRow, TransactionStats } from './projector';

export const TRANSACTION_SORT_KEYS = ['transaction_date', 'amount', 'created_at', 'notes'] as const;
export type TransactionSortKey = (typeof TRANSACTION_SORT_KEYS)[number];
export type SortOrder = 'ASC' | 'DESC';

/** Already validated: dates are real `YYYY-MM-DD`, page and limit positive. */
export type TransactionListQuery = {
  page: number;
  limit: number;
  search: string | null;
  transactionType: TransactionType | null;
  dateFrom: string | null;
  dateTo: string | null;
  /** An account's id, 'none' (the transactions in no account) or null (all). */
  accountId?: string | null;
  /** Issue 31: a category's id, 'none' (the uncategorised) or null (all). */
  categoryId?: string | null;
  sortBy: TransactionSortKey;
  sortOrder: SortOrder;
};

export type TransactionPage = { rows: TransactionRow[]; totalItems: number };

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Any character some locale's `[[:space:]]` may hold (JS's `\s`, and U+0085, U+180E). */
const ANY_SPACE = /[\s\u0085\u180e]/;
/** A white space of `ANY_SPACE` other than ASCII's (which PostgreSQL's `[[:space:]]` holds in every locale). */
const NON_ASCII_SPACE = /[^\S \t\n\v\f\r]|[\u0085\u180e]/;

/** Notes, and an imported row's raw narration (issue 30), as ILIKE reads them: no index for the narration. */
const plainSearch = (p: string) => `(notes ILIKE ${p} ESCAPE '\\' OR raw_narration ILIKE ${p} ESCAPE '\\')`;

/** The user's rows one of whose words (notes or raw narration) matches the LIKE pattern `pattern`. */
const postedRows = (pattern: string) => `id IN (SELECT r.transaction_id FROM transaction_note_word_rows r
                    WHERE r.user_id = $1 AND r.word IN (
                      SELECT w.word FROM transaction_note_words w
                       WHERE w.user_id = $1 AND w.word LIKE lower(${pattern}) ESCAPE '\\'))`;

/**
 * Which rows hold the search `search` (LIKE pattern in parameter `p`, the user in `$1`) in their
 * notes or raw narration, written so an index serves each part (plain ILIKE's answer):
 * - a term without white space: it lies inside one word of the notes or the narration, so the
 *   rows are the postings of the user's words that hold it (004_note_words.sql; `searchText`
 *   cuts both);
 * - a term with ASCII white space only: each piece between its spaces holds no white space, so
 *   it too lies inside one word of every row that holds the term; the rows are the postings of
 *   the words holding its longest piece, filtered by plain ILIKE (migration 014: no trigram
 *   index over the notes or the narration);
 * - a term of white space alone, or with a white space some locale may not split words at:
 *   plain ILIKE.
 */
export function searchCondition(search: string, p: string): string {
  if (!ANY_SPACE.test(search)) return postedRows(p);
  if (search.trim() !== '' && !NON_ASCII_SPACE.test(search)) {
    // The pieces of the escaped pattern (no escape pairs a white space, so none is split); the
    // first and last keep the pattern's own `%`, which is harmless doubled.
    const piece = `(SELECT '%' || s.piece || '%' FROM regexp_split_to_table(${p}, '[[:space:]]+') AS s(piece)
                      ORDER BY char_length(s.piece) DESC LIMIT 1)`;
    return `(${postedRows(piece)} AND ${plainSearch(p)})`;
  }
  return plainSearch(p);
}

/**
 * One page of the user's transactions. The sort column is chosen from a fixed list (never from
 * the request text); ties are broken by created_at then id in the same direction, so pages are
 * stable and each is a range scan of the matching index.
 */
export async function listTransactions(
  db: Queryable,
  userId: string,
  query: TransactionListQuery,
): Promise<TransactionPage> {
  const params: unknown[] = [userId];
  const where = ['user_id = $1'];
  if (query.transactionType) {
    params.push(query.transactionType);
    where.push(`transaction_type = $${params.length}`);
  }
  if (query.dateFrom) {
    params.push(query.dateFrom);
    where.push(`transaction_date >= $${params.length}::date`);
  }
  if (query.dateTo) {
    params.push(query.dateTo);
    where.push(`transaction_date <= $${params.length}::date`);
  }
  if (query.search) {
    params.push(likePattern(query.search));
    where.push(searchCondition(query.search, `$${params.length}`));
  }
  if (query.accountId === 'none') where.push('account_id IS NULL');
  else if (query.accountId) {
    params.push(query.accountId);
    where.push(`account_id = $${params.length}::uuid`);
  }
  if (query.categoryId === 'none') where.push('category_id IS NULL');
  else if (query.categoryId) {
    params.push(query.categoryId);
    where.push(`category_id = $${params.length}::uuid`);
  }
  const column = {
    transaction_date: 'transaction_date',
    amount: 'amount',
    created_at: 'created_at',
    notes: 'notes',
  }[query.sortBy];
  const direction = query.sortOrder === 'ASC' ? 'ASC' : 'DESC';
  // Qualified: the select list has text columns of the same names, which ORDER BY would prefer.
  const order = [column, 'created_at', 'id']
    .filter((c, i, all) => all.indexOf(c) === i)
    .map((c) => `t.${c} ${direction}`)
    .join(', ');
  const filter = where.join(' AND ');
  const offset = (query.page - 1) * query.limit;
  /** The page by itself, when its count comes from elsewhere. */
  const page = async () =>
    (
      await db.query<DbTransactionRow>(
        `SELECT ${TRANSACTION_COLUMNS} FROM transactions t WHERE ${filter}
          ORDER BY ${order} LIMIT ${query.limit} OFFSET ${offset}`,
        params,
      )
    ).rows.map(fromDb);
  if (
    query.search &&
    !query.transactionType &&
    !query.dateFrom &&
    !query.dateTo &&
    !query.accountId &&
    !query.categoryId
  ) {
    // The window of the sort order's index is filtered row by row: plain ILIKE, no index.
    const windowFilter = filter.replace(
      searchCondition(query.search, `$${params.length}`),
      plainSearch(`$${params.length}`),
    );
    const sql = { filter: windowFilter, params, order, offset };
    const short = await shortSearch(db, userId, query.search, query, sql, () => page());
    if (short) return short;
    const found = await searchByWords(db, userId, query.search, query, sql);
    if (found) return found;
  }
  if (query.search) {
    // The matching rows are found first, on their own (the trigram index serves that), counted,
    // and only then sorted for the page: an index walk in sort order that filters on the
    // notes would read every row of the user before the count is known.
    const { rows } = await db.query<DbTransactionRow & { total: number }>(
      `WITH matched AS MATERIALIZED (
         SELECT ${[...new Set(['id', column, 'created_at'])].map((c) => `t.${c}`).join(', ')}
           FROM transactions t WHERE ${filter}
       )
       SELECT ${TRANSACTION_COLUMNS}, (SELECT count(*)::int FROM matched) AS total
         FROM (SELECT t.id AS match_id FROM matched t ORDER BY ${order} LIMIT ${query.limit} OFFSET ${offset}) p
         JOIN transactions t ON t.id = p.match_id
        ORDER BY ${order}`,
      params,
    );
    const total = rows[0]?.total ?? (offset > 0 ? await countRows(db, filter, params) : 0);
    return { rows: rows.map(fromDb), totalItems: total };
  }
  if (!query.dateFrom && !query.dateTo && !query.accountId && !query.categoryId) {
    // The count is the stats row's: read in the same statement (one round trip, one snapshot).
    const counter =
      query.transactionType === 'C'
        ? 'credit_count'
        : query.transactionType === 'D'
          ? 'debit_count'
          : 'total_transactions';
    // The first page (the screen's default) is a named statement: its text is one of a few (type,
    // sort, limit), so PostgreSQL parses it once per connection, and its plan is the same
    // index walk for every user. Later pages' texts are as many as their offsets: not kept.
    const { rows } = await db.query<DbTransactionRow & { total: string | number | null }>(
      `SELECT ${TRANSACTION_COLUMNS},
              (SELECT s.${counter} FROM transaction_stats s WHERE s.user_id = $1) AS total
         FROM transactions t WHERE ${filter}
        ORDER BY ${order} LIMIT ${query.limit} OFFSET ${offset}`,
      params,
      { prepared: offset === 0 },
    );
    const first = rows[0];
    const total = first
      ? Number(first.total ?? 0)
      : await countTransactions(db, userId, query, filter, params);
    return { rows: rows.map(fromDb), totalItems: total };
  }
  const [rows, count] = await Promise.all([page(), countTransactions(db, userId, query, filter, params)]);
  return { rows, totalItems: count };
}

/**
 * A page of a search of one or two characters (as PostgreSQL lower-cases it), or null for a
 * longer search. One named statement reads the count, from the note grams the projection keeps,
 * and the page the way `knownMatches` reads a common term's: a window of the sort order's index,
 * of about twice the rows that hold the page's matches at the term's share (`size`), filtered by
 * plain ILIKE; it is read only if smaller than the matches. A rare term's page, or one whose
 * matches bunch outside the window, is then its postings' rows (`postings`). The values reach
 * the filters through InitPlans, so the plan is the generic one (the sort order's index range
 * on the user, under a LIMIT), parsed and planned once per connection; with them in sight every
 * call was planned again (0.30 ms of PostgreSQL against 0.14).
 */
async function shortSearch(
  db: Queryable,
  userId: string,
  search: string,
  query: TransactionListQuery,
  sql: { order: string; offset: number },
  postings: () => Promise<TransactionRow[]>,
): Promise<TransactionPage | null> {
  if ([...search].length > 2) return null;
  const { rows } = await db.query<
    Partial<DbTransactionRow> & { total: number | null; everything: number | null; size: number | null }
  >(
    `WITH g AS MATERIALIZED (
       SELECT CASE WHEN char_length(lower($2)) <= 2 THEN coalesce(
                (SELECT n FROM transaction_note_grams WHERE user_id = $1 AND gram = (SELECT lower($2))), 0) END AS n,
              (SELECT total_transactions FROM transaction_stats WHERE user_id = $1)::int AS everything
     ),
     w AS MATERIALIZED (
       SELECT n, everything, ceil(($4::int + $5::int) * everything * 2.0 / greatest(n, 1))::int + $5::int AS size
         FROM g
     )
     SELECT w.n AS total, w.everything, w.size, ${transactionColumnsOf('t')}
       FROM w LEFT JOIN LATERAL (
         SELECT * FROM (SELECT * FROM transactions t
                         WHERE t.user_id = $1 AND (SELECT w.n > $4::int AND w.size < w.n)
                         ORDER BY ${sql.order} LIMIT (SELECT size FROM w)) t
          WHERE ${plainSearch('(SELECT $3::text)')}
          ORDER BY ${sql.order} LIMIT $5::int OFFSET $4::int
       ) t ON true
      ORDER BY ${sql.order}`,
    [userId, search, likePattern(search), sql.offset, query.limit],
    { prepared: true },
  );
  const first = rows[0];
  if (first?.total === null || first?.total === undefined) return null;
  const total = Number(first.total);
  const { offset } = sql;
  if (total === 0 || offset >= total) return { rows: [], totalItems: total };
  const walked = first.id ? (rows as DbTransactionRow[]).map(fromDb) : [];
  if (walked.length === Math.min(query.limit, total - offset)) return { rows: walked, totalItems: total };
  return { rows: await postings(), totalItems: total };
}

/** How many of the user's transactions match a search, and how many they have in all. */
type MatchCount = { total: number; everything: number };

/**
 * A page of a search whose count is known, read the cheaper of two ways, each about proportional
 * to the rows it reads:
 * - a common term: a window of the sort order's index, of about twice the rows that hold the
 *   page's matches at the term's share, filtered (`sql.filter`: plain ILIKE); should the matches
 *   bunch outside it, as below;
 * - a rare term: `postings()`, the matching rows found by index, sorted.
 * Without it, PostgreSQL took the postings' way for a common one-letter term ("z": 8,063 of
 * 100,000 rows fetched and sorted, 87 ms for 10 rows; the window reads 259).
 */
async function knownMatches(
  db: Queryable,
  query: TransactionListQuery,
  sql: { filter: string; params: unknown[]; order: string; offset: number },
  { total, everything }: MatchCount,
  postings: () => Promise<TransactionRow[]>,
): Promise<TransactionPage> {
  const { offset } = sql;
  if (total === 0 || offset >= total) return { rows: [], totalItems: total };
  const expected = Math.min(query.limit, total - offset);
  const window = Math.ceil(((offset + query.limit) * everything * 2) / total) + query.limit;
  if (window < total) {
    // The window is a LIMIT below the filter, so the plan is the index walk, never a scan of
    // every match (which the trigram index would offer the planner for the filter). Never a
    // named statement: the generic plan estimates a user's rows at the average user's (about
    // 270 here), takes the notes' trigram index for `user_id = $1` and sorts all 100,000 rows
    // of a large book (450 ms instead of 1 ms, EXPLAIN EXECUTE under force_generic_plan).
    const { rows: walked } = await db.query<DbTransactionRow>(
      `SELECT ${TRANSACTION_COLUMNS}
         FROM (SELECT * FROM transactions t WHERE user_id = $1 ORDER BY ${sql.order} LIMIT ${window}) t
        WHERE ${sql.filter} ORDER BY ${sql.order} LIMIT ${query.limit} OFFSET ${offset}`,
      sql.params,
    );
    if (walked.length === expected) return { rows: walked.map(fromDb), totalItems: total };
  }
  return { rows: await postings(), totalItems: total };
}

/** Three letters or digits in a row: a term pg_trgm cuts at least one trigram from. */
const TRIGRAM = /[\p{L}\p{N}]{3}/u;

type WordMatches = {
  total: number;
  /** The matching words and every row of the user's: read only when the page was not (`paged`). */
  words: string[] | null;
  everything: number | null;
  /** Whether the statement read the page from the postings (`WORDS_AND_PAGE`): its rows follow. */
  paged?: boolean;
};

/**
 * The words of the user's dictionary holding the LIKE pattern `$2` (`word`: the column as the
 * words' trigram index serves it, or not), and `found`: how many there are, the rows they hold
 * if one word (its count), and whether a page by date is read from their postings (`paged`: one
 * word, or few enough that each one's first page-end postings are fewer than `MERGED_POSTINGS`).
 * The pattern is read through an InitPlan (`(SELECT lower($2))`, a value unknown to the planner),
 * so a plan for the term itself estimates what the generic plan does and PostgreSQL keeps the
 * generic one after its first five: with `lower($2)` in the scan, each term's own plan came
 * cheaper than the generic one, so every search was planned again (0.5 ms of PostgreSQL of a
 * search's 0.6, pg_prepared_statements: 0 generic plans).
 */
const WORD_MATCHES = (word: string) => `matched AS MATERIALIZED (
       SELECT word, n FROM transaction_note_words
        WHERE user_id = $1 AND ${word} LIKE (SELECT lower($2)) ESCAPE '\\'
     ),
     found AS MATERIALIZED (
       SELECT count(*)::int AS words_n, coalesce(sum(n), 0)::int AS n,
              count(*) = 1 OR count(*) * $3::int <= ${MERGED_POSTINGS} AS paged
         FROM matched
     )`;

/**
 * What the caller reads of `found` (after `WORD_MATCHES`; `paged`: whether the page was read): the rows holding the term counted (one
 * word's count, or the union of several words' postings), and, only when the page is not read
 * from the postings, the words and every row of the user's (each an InitPlan, run only if its
 * CASE reaches it).
 */
const foundColumns = (paged: string) => `CASE WHEN f.words_n <= 1 THEN f.n
              ELSE (SELECT count(DISTINCT p.transaction_id) FROM transaction_note_word_rows p
                     WHERE p.user_id = $1 AND p.word IN (SELECT word FROM matched))::int END AS total,
            CASE WHEN NOT ${paged} THEN (SELECT array_agg(word) FROM matched) END AS words,
            CASE WHEN NOT ${paged} THEN (SELECT total_transactions FROM transaction_stats WHERE user_id = $1)::int
              END AS everything,
            ${paged} AS paged`;

/**
 * Postings a page by date may read of several words (each word's first page-end, `$3`, in the
 * sort order); past it the page is read as `knownMatches` reads it. One word's are read
 * whatever the page: its first page-end postings, fewer than any other way reads.
 */
const MERGED_POSTINGS = 2000;

/**
 * `WORD_MATCHES` and, sorted by date, the page itself from the postings (migration 015: each
 * carries its row's date, instant recorded and id, the key's last columns, so a word's rows in
 * that order are a range of the key): the first `$3` (offset + limit) postings of each word
 * holding the term in the sort order, each row once, the `$4` (offset) first skipped, joined to
 * their rows. A row of the page is among the first `$3` of each word it holds, so the union of
 * each word's first `$3` holds the page. Each row of the answer carries `foundColumns`; with no
 * page (none found, or not `paged`) the answer is one row of them alone. Only the page's own
 * columns are sent: its sort key stays in the statement (ORDER BY), which the driver would
 * otherwise parse into dates on every row.
 */
const WORDS_AND_PAGE = (word: string, direction: SortOrder) => {
  const by = (date: string, created: string, id: string) =>
    `${date} ${direction}, ${created} ${direction}, ${id} ${direction}`;
  return `WITH ${WORD_MATCHES(word)},
     page AS (
       SELECT q.transaction_id AS page_id, q.transaction_date AS page_date, q.created_at AS page_created
         FROM matched m CROSS JOIN LATERAL (
           SELECT p.transaction_id, p.transaction_date, p.created_at FROM transaction_note_word_rows p
            WHERE p.user_id = $1 AND p.word = m.word
            ORDER BY ${by('p.transaction_date', 'p.created_at', 'p.transaction_id')} LIMIT $3::int) q
        WHERE (SELECT paged FROM found)
        GROUP BY 1, 2, 3
        ORDER BY ${by('2', '3', '1')} LIMIT $3::int - $4::int OFFSET $4::int
     )
     SELECT ${foundColumns('f.paged')}, ${transactionColumnsOf('t')}
       FROM found f LEFT JOIN (page JOIN transactions t ON t.id = page.page_id) ON true
      ORDER BY ${by('page.page_date', 'page.page_created', 'page.page_id')}`;
};

/**
 * A search of a term without white space, from the user's note words (004_note_words.sql), or
 * null for a term with white space (one that may span two words). Such a term occurs only
 * inside a word, so the matching rows are those holding a word that holds it: the count is the
 * dictionary's (the postings' union when several words hold it), never a visit of every match.
 * Sorted by date, the page comes in the same statement, from the postings in that order
 * (`WORDS_AND_PAGE`), unless the term is in so many words that reading each one's would cost
 * more. Otherwise the page is then read the cheaper of two ways, each about proportional to the
 * rows it reads:
 * - a common term: a window of the sort order's index, of about twice the rows that hold the
 *   page's matches at the term's share, filtered; should the matches bunch outside it, as below;
 * - a rare term: its postings' rows, sorted.
 */
async function searchByWords(
  db: Queryable,
  userId: string,
  search: string,
  query: TransactionListQuery,
  sql: { filter: string; params: unknown[]; order: string; offset: number },
): Promise<TransactionPage | null> {
  // A term with a white space of any locale may span two words: not for the words alone.
  if (ANY_SPACE.test(search)) return null;
  const pattern = likePattern(search);
  // The words' trigram index (012_note_words_word_trgm.sql) finds the few words holding a term
  // with a trigram (three letters or digits in a row, as pg_trgm cuts them) among every user's;
  // a term without one would read the whole index, so its words are the user's, scanned.
  const word = TRIGRAM.test(search) ? 'word' : "(word || '')";
  const byDate = query.sortBy === 'transaction_date';
  const { rows } = await db.query<WordMatches & Partial<DbTransactionRow>>(
    byDate
      ? WORDS_AND_PAGE(word, query.sortOrder === 'ASC' ? 'ASC' : 'DESC')
      : `WITH ${WORD_MATCHES(word)} SELECT ${foundColumns('false')} FROM found f`,
    byDate ? [userId, pattern, sql.offset + query.limit, sql.offset] : [userId, pattern, 0],
    // Named: its generic plan stays on the words' trigram index (EXPLAIN with
    // plan_cache_mode = force_generic_plan: 14 buffers, 0.1 ms for "swiggy" in a 100,000-row
    // book) and the postings' key, so PostgreSQL parses and plans it once per connection.
    { prepared: true },
  );
  const found = rows[0];
  if (!found) return null;
  const total = Number(found.total);
  if (found.paged) {
    const page = found.id ? (rows as DbTransactionRow[]).map(fromDb) : [];
    return { rows: page, totalItems: total };
  }
  const everything = Number(found.everything ?? total);
  return knownMatches(db, query, sql, { total, everything }, async () => {
    const { rows: posted } = await db.query<DbTransactionRow>(
      `SELECT ${TRANSACTION_COLUMNS} FROM transactions t
        WHERE t.user_id = $1 AND t.id IN (
          SELECT transaction_id FROM transaction_note_word_rows WHERE user_id = $1 AND word = ANY($2::text[]))
        ORDER BY ${sql.order} LIMIT ${query.limit} OFFSET ${sql.offset}`,
      [userId, found.words ?? []],
    );
    return posted.map(fromDb);
  });
}

async function countRows(db: Queryable, filter: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM transactions WHERE ${filter}`,
    params,
  );
  return rows[0]?.n ?? 0;
}

/** Without search or date filters the count comes from the stats row instead of counting rows. */
async function countTransactions(
  db: Queryable,
  userId: string,
  query: TransactionListQuery,
  filter: string,
  params: unknown[],
): Promise<number> {
  if (!query.search && !query.dateFrom && !query.dateTo && !query.accountId && !query.categoryId) {
    const stats = await getTransactionStats(db, userId);
    if (query.transactionType === 'C') return stats.creditCount;
    if (query.transactionType === 'D') return stats.debitCount;
    return stats.totalTransactions;
  }
  return countRows(db, filter, params);
}

/** The user's own transaction, or null (also for another user's id). */
export async function getTransaction(
  db: Queryable,
  userId: string,
  id: string,
): Promise<TransactionRow | null> {
  const { rows } = await db.query<DbTransactionRow>(
    `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE user_id = $1 AND id = $2::uuid`,
    [userId, id],
  );
  return rows[0] ? fromDb(rows[0]) : null;
}

type DbStats = {
  total_transactions: number;
  credit_count: number;
  debit_count: number;
  credit_amount: string;
  debit_amount: string;
};

/** Totals over all the user's transactions (zeros before the first). */
export async function getTransactionStats(db: Queryable, userId: string): Promise<TransactionStats> {
  const { rows } = await db.query<DbStats>(
    `SELECT total_transactions, credit_count, debit_count, credit_amount::text AS credit_amount,
            debit_amount::text AS debit_amount
       FROM transaction_stats WHERE user_id = $1`,
    [userId],
  );
  const r = rows[0];
  if (!r) return { totalTransactions: 0, creditCount: 0, debitCount: 0, creditAmount: 0, debitAmount: 0 };
  const paise = (text: string): Paise => toPaise(text);
  return {
    totalTransactions: Number(r.total_transactions),
    creditCount: Number(r.credit_count),
    debitCount: Number(r.debit_count),
    creditAmount: paise(r.credit_amount),
    debitAmount: paise(r.debit_amount),
  };
}
