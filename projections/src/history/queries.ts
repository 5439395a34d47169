import { loanName, type RecordedEvent, TRANSACTION_EVENT_TYPES } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { type EventRow, rowToEvent } from '@kosh/event-store';
import { groupVisits, visitEntry } from './audit-sessions';
import { isLoanEvent } from './loan-timeline';
import {
  type HistoryEvent,
  type Names,
  PREVIOUS_NEEDED,
  type TimelineEntry,
  timelineEntry,
  wireStreamOf,
} from './timeline';

const NO_ACCOUNTS: ReadonlyMap<string, string> = new Map();

const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

type DbHistoryRow = {
  position: string;
  stream_id: string;
  stream_version: number;
  type: string;
  data: Record<string, unknown>;
  metadata: RecordedEvent['metadata'];
  recorded_at: string;
};

const COLUMNS = `position, stream_id, stream_version, type, data, metadata, ${ISO('recorded_at')} AS recorded_at`;

const historyEventOf = (r: DbHistoryRow): HistoryEvent => ({
  position: r.position,
  streamId: r.stream_id,
  streamVersion: Number(r.stream_version),
  type: r.type,
  data: r.data,
  correlationId: r.metadata.correlationId,
  recordedAt: r.recorded_at,
});

/** Already validated filters of a timeline page. */
export type HistoryFilter = {
  streamId: string | null;
  /**
   * With `streamId` a transaction's: its History also holds the events of other streams that
   * moved it to another category (a rule applied, a merge…; `transaction_category_moves`).
   */
  movedTransactionId?: string;
  type: string | null;
  /** ISO instants, inclusive. */
  from: string | null;
  to: string | null;
  /** Only events strictly before this position (the cursor of the previous page). */
  before: string | null;
  limit: number;
};

/** Whether the user has any event in the stream (another user's stream or none: false). */
export async function ownsStream(db: Queryable, userId: string, streamId: string): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM history_events WHERE user_id = $1 AND stream_id = $2 LIMIT 1',
    [userId, streamId],
  );
  return rows.length > 0;
}

/** Names of the lenders and loan types the events mention (only those the user may see). */
async function namesOf(db: Queryable, userId: string, events: readonly HistoryEvent[]): Promise<Names> {
  const bankIds = new Set<number>();
  const typeIds = new Set<number>();
  const categoryIds = new Set<string>();
  for (const e of events) {
    for (const values of [e.data, e.data.changes, e.data.previous] as (
      | Record<string, unknown>
      | undefined
    )[]) {
      if (typeof values?.bankId === 'number') bankIds.add(values.bankId);
      if (typeof values?.loanTypeId === 'number') typeIds.add(values.loanTypeId);
      for (const key of ['categoryId', 'parentId', 'previousParentId'] as const)
        if (typeof values?.[key] === 'string') categoryIds.add(values[key] as string);
    }
  }
  const banks = new Map<number, string>();
  const loanTypes = new Map<number, string>();
  const categories = await categoryNames(db, userId, categoryIds);
  if (bankIds.size === 0 && typeIds.size === 0) return { banks, loanTypes, categories };
  const { rows } = await db.query<{ kind: string; id: number; name: string }>(
    `SELECT 'bank' AS kind, id, bank_name AS name FROM catalog_banks
      WHERE id = ANY($1::int[]) AND (user_id IS NULL OR user_id = $3)
     UNION ALL
     SELECT 'loan_type', id, type_name FROM catalog_loan_types
      WHERE id = ANY($2::int[]) AND (user_id IS NULL OR user_id = $3)`,
    [[...bankIds], [...typeIds], userId],
  );
  for (const r of rows) (r.kind === 'bank' ? banks : loanTypes).set(Number(r.id), r.name);
  return { banks, loanTypes, categories };
}

/** The names of the user's categories of these ids (issue 31), merged or deleted ones too. */
async function categoryNames(
  db: Queryable,
  userId: string,
  ids: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const uuids = [...ids].filter((id) =>
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id),
  );
  if (uuids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; name: string }>(
    'SELECT id::text AS id, name FROM categories WHERE user_id = $1 AND id = ANY($2::uuid[])',
    [userId, uuids],
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** For each event that needs it, the data of the latest earlier event of its stream of the listed types. */
async function previousOf(
  db: Queryable,
  userId: string,
  events: readonly HistoryEvent[],
): Promise<Map<string, Record<string, unknown>>> {
  const wanted = events.filter((e) => PREVIOUS_NEEDED[e.type]);
  const found = new Map<string, Record<string, unknown>>();
  if (wanted.length === 0) return found;
  const { rows } = await db.query<{ position: string; data: Record<string, unknown> }>(
    `SELECT q.position, p.data
       FROM unnest($2::text[], $3::text[], $4::text[]) AS q(position, stream_id, types)
       CROSS JOIN LATERAL (
         SELECT h.data FROM history_events h
          WHERE h.user_id = $1 AND h.stream_id = q.stream_id AND h.position < q.position
            AND h.type = ANY(string_to_array(q.types, ','))
          ORDER BY h.position DESC LIMIT 1) p`,
    [
      userId,
      wanted.map((e) => e.position),
      wanted.map((e) => e.streamId),
      wanted.map((e) => (PREVIOUS_NEEDED[e.type] ?? []).join(',')),
    ],
  );
  for (const r of rows) found.set(r.position, r.data);
  return found;
}

/**
 * The loan each loan event is about, as the screens name it (account number · bank - branch), as
 * it was named when the event was recorded: from its stream's creation and edits.
 */
async function loanNamesOf(
  db: Queryable,
  userId: string,
  events: readonly HistoryEvent[],
): Promise<Map<string, string>> {
  const streams = [...new Set(events.filter((e) => isLoanEvent(e.type)).map((e) => e.streamId))];
  const found = new Map<string, string>();
  if (streams.length === 0) return found;
  const { rows } = await db.query<{ stream_id: string; position: string; data: Record<string, unknown> }>(
    `SELECT stream_id, position, data FROM history_events
      WHERE user_id = $1 AND stream_id = ANY($2::text[]) AND type IN ('LoanCreated', 'LoanUpdated')
      ORDER BY position`,
    [userId, streams],
  );
  /** Each stream's account number and bank after each creation or edit, oldest first. */
  const named = new Map<string, { position: string; account: string; bankId: number }[]>();
  for (const r of rows) {
    const values = (r.data.changes ?? r.data) as { accountNumber?: string; bankId?: number };
    const steps = named.get(r.stream_id) ?? [];
    const last = steps.at(-1);
    steps.push({
      position: r.position,
      account: values.accountNumber ?? last?.account ?? '',
      bankId: values.bankId ?? last?.bankId ?? 0,
    });
    named.set(r.stream_id, steps);
  }
  const bankIds = [...new Set([...named.values()].flat().map((step) => step.bankId))];
  const { rows: banks } = await db.query<{ id: number; bank_name: string; branch_name: string | null }>(
    `SELECT id, bank_name, branch_name FROM catalog_banks
      WHERE id = ANY($1::int[]) AND (user_id IS NULL OR user_id = $2)`,
    [bankIds, userId],
  );
  const bankOf = new Map(banks.map((b) => [Number(b.id), b]));
  for (const e of events) {
    const steps = named.get(e.streamId);
    if (!steps?.[0]) continue;
    const step = steps.findLast((s) => s.position <= e.position) ?? steps[0];
    const bank = bankOf.get(step.bankId);
    found.set(e.position, loanName(step.account, bank?.bank_name ?? null, bank?.branch_name ?? null));
  }
  return found;
}

const ACCOUNT_REFS = ['accountId', 'fromAccountId', 'toAccountId'] as const;

/** The account ids an event names: a transaction's (before and after an edit), a transfer's legs, an import's. */
function accountIdsOf(event: HistoryEvent): string[] {
  const ids: string[] = [];
  const d = event.data;
  for (const values of [d, d.changes, d.previous] as (Record<string, unknown> | undefined)[]) {
    for (const key of ACCOUNT_REFS) {
      const id = values?.[key];
      if (typeof id === 'string' && !ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

/**
 * The names of the accounts each event names, by the event's position, as each account was named
 * when the event was recorded (from its stream's opening and renames), so a History entry says
 * "HDFC Savings" where the event holds the account's id.
 */
async function accountNamesOf(
  db: Queryable,
  userId: string,
  events: readonly HistoryEvent[],
): Promise<Map<string, Map<string, string>>> {
  const wanted = new Map(events.map((e) => [e.position, accountIdsOf(e)]));
  const streams = [...new Set([...wanted.values()].flat())].map((id) => `account-${id}`);
  const found = new Map<string, Map<string, string>>();
  if (streams.length === 0) return found;
  const { rows } = await db.query<{ stream_id: string; position: string; data: Record<string, unknown> }>(
    `SELECT stream_id, position, data FROM history_events
      WHERE user_id = $1 AND stream_id = ANY($2::text[]) AND type IN ('AccountOpened', 'AccountUpdated')
      ORDER BY position`,
    [userId, streams],
  );
  /** Each account's name after its opening and each rename, oldest first. */
  const named = new Map<string, { position: string; name: string }[]>();
  for (const r of rows) {
    const name = (r.data.changes as { name?: unknown } | undefined)?.name ?? r.data.name;
    if (typeof name !== 'string') continue;
    const id = r.stream_id.slice('account-'.length);
    named.set(id, [...(named.get(id) ?? []), { position: r.position, name }]);
  }
  for (const [position, ids] of wanted) {
    const names = new Map<string, string>();
    for (const id of ids) {
      const steps = named.get(id);
      const step = steps?.findLast((s) => s.position <= position) ?? steps?.[0];
      if (step) names.set(id, step.name);
    }
    if (names.size > 0) found.set(position, names);
  }
  return found;
}

/** Timeline entries of stored events (names and earlier values looked up in a few queries). */
export async function timelineOf(
  db: Queryable,
  userId: string,
  events: readonly HistoryEvent[],
): Promise<TimelineEntry[]> {
  const [names, previous, loans, accounts] = await Promise.all([
    namesOf(db, userId, events),
    previousOf(db, userId, events),
    loanNamesOf(db, userId, events),
    accountNamesOf(db, userId, events),
  ]);
  return events.map((e) =>
    timelineEntry(e, previous.get(e.position) ?? null, {
      ...names,
      loans,
      accounts: accounts.get(e.position) ?? NO_ACCOUNTS,
    }),
  );
}

/** One page of the user's timeline, newest first, and the cursor of the next page (null: last). */
export async function historyPage(
  db: Queryable,
  userId: string,
  filter: HistoryFilter,
): Promise<{ entries: TimelineEntry[]; nextCursor: string | null }> {
  const params: unknown[] = [userId];
  const where = ['user_id = $1'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.streamId !== null && filter.movedTransactionId !== undefined) {
    params.push(filter.streamId, filter.movedTransactionId);
    where.push(`(stream_id = $${params.length - 1} OR position IN (SELECT position FROM transaction_category_moves
       WHERE user_id = $1 AND transaction_id = $${params.length}::uuid))`);
  } else if (filter.streamId !== null) add('stream_id = ?', filter.streamId);
  if (filter.type !== null) add('type = ?', filter.type);
  if (filter.from !== null) add('recorded_at >= ?::timestamptz', filter.from);
  if (filter.to !== null) add('recorded_at <= ?::timestamptz', filter.to);
  // An auditor's visit is one entry however many reads it made: events are read on until the
  // page has its entries and the visit that ends it is known to be complete.
  const batch = filter.limit + 1 + 50;
  const events: HistoryEvent[] = [];
  let before = filter.before;
  let more = true;
  let groups: HistoryEvent[][] = [];
  while (more) {
    const bound = before === null ? '' : ` AND position < $${params.length + 1}`;
    const { rows } = await db.query<DbHistoryRow>(
      `SELECT ${COLUMNS} FROM history_events WHERE ${where.join(' AND ')}${bound}
        ORDER BY position DESC LIMIT ${batch}`,
      before === null ? params : [...params, before],
    );
    events.push(...rows.map(historyEventOf));
    more = rows.length === batch;
    before = events[events.length - 1]?.position ?? before;
    groups = groupVisits(events);
    // The last group may go on in the next rows: once one more has begun, the page is complete.
    if (groups.length > filter.limit) break;
  }
  const page = groups.slice(0, filter.limit);
  const lastGroup = page[page.length - 1];
  const nextCursor =
    groups.length > filter.limit && lastGroup ? (lastGroup[lastGroup.length - 1]?.position ?? null) : null;
  const isVisit = (g: HistoryEvent[]) => (g[0] as HistoryEvent).type === 'AuditReadRecorded';
  const singles = page.filter((g) => !isVisit(g)).map((g) => g[0] as HistoryEvent);
  const [entries, auditorNames] = await Promise.all([
    timelineOf(db, userId, singles),
    auditorNamesOf(db, page.filter(isVisit)),
  ]);
  const byPosition = new Map(entries.map((e) => [e.position, e]));
  return {
    entries: page.map((g) =>
      isVisit(g)
        ? visitEntry(g, auditorNames, wireStreamOf((g[0] as HistoryEvent).streamId))
        : (byPosition.get((g[0] as HistoryEvent).position) as TimelineEntry),
    ),
    nextCursor,
  };
}

/** The names of the auditors of `visits` (their own accounts' names). */
async function auditorNamesOf(
  db: Queryable,
  visits: readonly HistoryEvent[][],
): Promise<Map<string, string>> {
  const ids = [...new Set(visits.map((g) => String((g[0] as HistoryEvent).data.auditorUserId)))];
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ user_id: string; first_name: string; last_name: string }>(
    'SELECT user_id, first_name, last_name FROM users WHERE user_id = ANY($1::text[])',
    [ids],
  );
  return new Map(rows.map((r) => [r.user_id, `${r.first_name} ${r.last_name}`.trim()]));
}

/**
 * The user's events of `types` recorded at or before `asOf` (ISO instant), in log order, as the
 * projections receive them (secrets removed: no read model keeps them).
 */
export async function userEventsUpTo(
  db: Queryable,
  userId: string,
  asOf: string,
  types: readonly string[],
): Promise<RecordedEvent[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT position, event_id, stream_id, stream_version, type, data, metadata FROM history_events
      WHERE user_id = $1 AND recorded_at <= $2::timestamptz AND type = ANY($3::text[]) ORDER BY position`,
    [userId, asOf, types],
  );
  return rows.map(rowToEvent);
}

/**
 * The month (YYYY-MM) a transaction event puts its transaction in: its date when recorded, its
 * new date when an edit changed it (an edit that kept the date, and a deletion, move nothing).
 * The same expression as the index `history_events_txn_month_idx` (migration 002).
 */
const TRANSACTION_MONTH = `left(coalesce(data->>'transactionDate', data#>>'{changes,transactionDate}'), 7)`;

/**
 * The user's events of `types` recorded at or before `asOf`, like `userEventsUpTo`, but of the
 * transactions only those whose date fell in `month` (YYYY-MM) in some version recorded by then;
 * every other stream (loans, the catalog) whole. Folded, they give that month's ledger exactly:
 * a transaction's ledger entry depends on its own stream and its loan's, and a transaction never
 * dated in the month has no entry there at any instant. About a month's worth of events instead
 * of all of them (100,000 transactions: 1,000 instead of 100,000).
 */
export async function userEventsOfMonthUpTo(
  db: Queryable,
  userId: string,
  asOf: string,
  types: readonly string[],
  month: string,
): Promise<RecordedEvent[]> {
  const transactionTypes = types.filter((t) => TRANSACTION_EVENT_TYPES.includes(t as never));
  const others = types.filter((t) => !TRANSACTION_EVENT_TYPES.includes(t as never));
  const { rows } = await db.query<EventRow>(
    `WITH month_streams AS (
       SELECT DISTINCT stream_id FROM history_events
        WHERE user_id = $1 AND type IN ('TransactionRecorded', 'TransactionUpdated')
          AND ${TRANSACTION_MONTH} = $4 AND recorded_at <= $2::timestamptz)
     SELECT position, event_id, stream_id, stream_version, type, data, metadata FROM history_events
      WHERE user_id = $1 AND recorded_at <= $2::timestamptz AND type = ANY($3::text[])
     UNION ALL
     SELECT h.position, h.event_id, h.stream_id, h.stream_version, h.type, h.data, h.metadata
       FROM month_streams m JOIN history_events h ON h.user_id = $1 AND h.stream_id = m.stream_id
      WHERE h.recorded_at <= $2::timestamptz AND h.type = ANY($5::text[])
     ORDER BY position`,
    [userId, asOf, others, month, transactionTypes],
  );
  return rows.map(rowToEvent);
}

/** The instant of the user's first event (null: none yet). */
export async function firstRecordedAt(db: Queryable, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ at: string | null }>(
    `SELECT ${ISO('min(recorded_at)')} AS at FROM history_events WHERE user_id = $1`,
    [userId],
  );
  return rows[0]?.at ?? null;
}

/** What the export writes of an event: the stored row as it is, in log order. */
export type ExportedEvent = {
  position: string;
  eventId: string;
  streamId: string;
  streamVersion: number;
  type: string;
  recordedAt: string;
  /** History's copy; null when the export reads the event's data from the log (`exportEventData`). */
  data: Record<string, unknown> | null;
  metadata: RecordedEvent['metadata'];
  /** Its link in the owner's hash chain in the event store (null: the store keeps none). */
  chain: { seq: number; hash: string } | null;
};

/**
 * Events History keeps a summary of (a statement import's rows are the book's): the export reads
 * their data as recorded from the log, one event at a time (a 50,000-row import is megabytes), so
 * their chain links can be recomputed from the export.
 */
export const EXPORT_DATA_FROM_LOG: ReadonlySet<string> = new Set(['ImportCommitted']);

/** The user's events after `after` in log order, at most `limit` (one page of the export). */
export async function exportPage(
  db: Queryable,
  userId: string,
  after: string,
  limit: number,
): Promise<ExportedEvent[]> {
  // The event store's chain lives in the same database on PostgreSQL and PGlite (position
  // 'xid:global_position'); on EventStoreDB the table is empty and events carry no link.
  const { rows } = await db.query<
    Omit<DbHistoryRow, 'data'> & {
      data: Record<string, unknown> | null;
      event_id: string;
      seq: number | null;
      hash: string | null;
    }
  >(
    `SELECT h.position, h.stream_id, h.stream_version, h.type,
            CASE WHEN h.type = ANY ($3::text[]) THEN NULL ELSE h.data END AS data, h.metadata,
            ${ISO('h.recorded_at')} AS recorded_at, h.event_id, c.seq, c.hash
       FROM history_events h
       LEFT JOIN event_chain c ON c.global_position = split_part(h.position, ':', 2)::bigint AND c.user_id = h.user_id
      WHERE h.user_id = $1 AND h.position > $2
      ORDER BY h.position LIMIT ${limit}`,
    [userId, after, [...EXPORT_DATA_FROM_LOG]],
  );
  return rows.map((r) => ({
    position: r.position,
    eventId: r.event_id,
    streamId: r.stream_id,
    streamVersion: Number(r.stream_version),
    type: r.type,
    recordedAt: r.recorded_at,
    data: r.data,
    metadata: r.metadata,
    chain: r.seq === null || r.hash === null ? null : { seq: Number(r.seq), hash: r.hash },
  }));
}

/**
 * The data of one of the user's events as the log recorded it, as jsonb prints it (JSON text, not
 * parsed: a 50,000-row import is one string, not 50,000 objects); on EventStoreDB, whose log is
 * not in this database, History's copy (its export is signed, not chained).
 */
export async function exportEventData(
  db: Queryable,
  userId: string,
  event: Pick<ExportedEvent, 'position' | 'eventId'>,
): Promise<string> {
  const { rows } = await db.query<{ data: string | null }>(
    `SELECT coalesce(
       (SELECT e.data::text FROM events e
         WHERE e.global_position = split_part($2, ':', 2)::bigint AND e.event_id = $3),
       (SELECT h.data::text FROM history_events h WHERE h.user_id = $1 AND h.position = $2)) AS data`,
    [userId, event.position, event.eventId],
  );
  return rows[0]?.data ?? '{}';
}
