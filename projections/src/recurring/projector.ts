import {
  assertNever,
  type OccurrenceException,
  RECURRING_EVENT_TYPES,
  RECURRING_FIELDS,
  type RecordedEvent,
  type RecurringDetails,
  type RecurringEvent,
  recurringDetailsOf,
  type TransactionRecorded,
  toDecimalString,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { columnsOf } from '../runner/columns';
import { defineProjection } from '../runner/define';
import { foldRows, splitChanges } from '../runner/row-projection';

/** One row of `recurring_entries`; money in paise. */
export type RecurringRow = RecurringDetails &
  Readonly<{
    id: string;
    userId: string;
    exceptions: Readonly<Record<string, OccurrenceException>>;
    createdAt: string;
    updatedAt: string;
    deleted: boolean;
    /** Stream version of the last event folded in (the ETag). */
    version: number;
  }>;

type Versioned = Pick<RecordedEvent, 'streamVersion'>;

const withException = (row: RecurringRow, date: string, exception: OccurrenceException | null) => {
  const { [date]: _, ...rest } = row.exceptions;
  return exception ? { ...rest, [date]: exception } : rest;
};

/** Pure fold of one entry's events into its row (a deleted entry stays, flagged). */
export function evolveRecurringRow(
  row: RecurringRow | null,
  event: RecurringEvent & Versioned,
): RecurringRow | null {
  if (row && event.streamVersion <= row.version) return row;
  const version = event.streamVersion;
  const d = event.data;
  switch (event.type) {
    case 'RecurringEntryCreated':
      return {
        ...recurringDetailsOf(event.data),
        id: event.data.recurringId,
        userId: d.userId,
        exceptions: {},
        createdAt: event.data.createdAt,
        updatedAt: event.data.createdAt,
        deleted: false,
        version,
      };
    case 'RecurringEntryUpdated':
      return row ? { ...row, ...event.data.changes, updatedAt: event.data.updatedAt, version } : null;
    case 'RecurringEntryDeleted':
      return row ? { ...row, deleted: true, updatedAt: event.data.deletedAt, version } : null;
    case 'RecurringOccurrenceSkipped':
      return row
        ? { ...row, exceptions: withException(row, event.data.occurrenceDate, { kind: 'skipped' }), version }
        : null;
    case 'RecurringOccurrenceChanged': {
      const { occurrenceDate, amount, notes } = event.data;
      return row
        ? {
            ...row,
            exceptions: withException(row, occurrenceDate, { kind: 'changed', amount, notes }),
            version,
          }
        : null;
    }
    case 'RecurringOccurrenceRestored':
      return row
        ? { ...row, exceptions: withException(row, event.data.occurrenceDate, null), version }
        : null;
    default:
      return assertNever(event);
  }
}

const FIELD_COLUMNS = columnsOf(RECURRING_FIELDS);
const INSTANT = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${column.replace(/^\w+\./, '')}`;

export const RECURRING_COLUMNS = `r.id::text AS id, r.user_id, ${FIELD_COLUMNS.select('r')}, r.exceptions,
  ${INSTANT('r.created_at')}, ${INSTANT('r.updated_at')}, r.deleted, r.version`;

export type DbRecurringRow = Readonly<Record<string, unknown>> & {
  id: string;
  user_id: string;
  exceptions: Record<string, OccurrenceException>;
  created_at: string;
  updated_at: string;
  deleted: boolean;
  version: number;
};

export const recurringFromDb = (r: DbRecurringRow): RecurringRow => ({
  ...FIELD_COLUMNS.fromSql(r),
  id: r.id,
  userId: r.user_id,
  exceptions: r.exceptions ?? {},
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  deleted: r.deleted,
  version: Number(r.version),
});

async function loadRows(tx: Queryable, ids: readonly string[]): Promise<Map<string, RecurringRow>> {
  const { rows } = await tx.query<DbRecurringRow>(
    `SELECT ${RECURRING_COLUMNS} FROM recurring_entries r WHERE r.id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, recurringFromDb(r)]));
}

const SAVE_ROWS = `INSERT INTO recurring_entries (id, user_id, ${FIELD_COLUMNS.insert}, exceptions, created_at,
       updated_at, deleted, version)
     SELECT r."id", r."userId", ${FIELD_COLUMNS.values}, r."exceptions", r."createdAt", r."updatedAt",
            r."deleted", r."version"
       FROM jsonb_to_recordset($1::jsonb) AS r("id" uuid, "userId" text, ${FIELD_COLUMNS.recordset},
            "exceptions" jsonb, "createdAt" timestamptz, "updatedAt" timestamptz, "deleted" boolean,
            "version" integer)
     ON CONFLICT (id) DO UPDATE SET ${FIELD_COLUMNS.update}, exceptions = EXCLUDED.exceptions,
       updated_at = EXCLUDED.updated_at, deleted = EXCLUDED.deleted, version = EXCLUDED.version`;

type PostedEvent = RecordedEvent<TransactionRecorded>;
const isPosting = (event: RecordedEvent): event is PostedEvent =>
  event.type === 'TransactionRecorded' && typeof (event as PostedEvent).data.recurringId === 'string';

/** A recurring entry's events and the transactions posted from it. */
export const recurringProjection = defineProjection({
  name: 'recurring',
  handles: [...RECURRING_EVENT_TYPES, 'TransactionRecorded'],
  tables: ['recurring_entries', 'recurring_postings'],
  migrations: new URL('./migrations', import.meta.url),
  async apply(tx, events) {
    const entryEvents = events.filter(
      (e): e is RecordedEvent<RecurringEvent> => e.type !== 'TransactionRecorded',
    );
    if (entryEvents.length > 0) {
      const keyOf = (e: RecordedEvent<RecurringEvent>) => e.data.recurringId;
      const before = await loadRows(tx, [...new Set(entryEvents.map(keyOf))]);
      const { saved } = splitChanges(foldRows(before, entryEvents, keyOf, evolveRecurringRow));
      if (saved.length > 0) {
        const records = saved.map((r) => ({ ...r, ...FIELD_COLUMNS.toRecord(r) }));
        await tx.query(SAVE_ROWS, [JSON.stringify(records)]);
      }
    }
    const postings = events.filter(isPosting).map((e) => ({
      transactionId: e.data.transactionId,
      recurringId: e.data.recurringId,
      userId: e.data.userId,
      occurrenceDate: e.data.occurrenceDate ?? e.data.transactionDate,
      amount: toDecimalString(e.data.amount),
      postedAt: e.data.recordedAt,
    }));
    if (postings.length > 0)
      await tx.query(
        `INSERT INTO recurring_postings (transaction_id, recurring_id, user_id, occurrence_date, amount, posted_at)
         SELECT r."transactionId", r."recurringId", r."userId", r."occurrenceDate", r."amount", r."postedAt"
           FROM jsonb_to_recordset($1::jsonb) AS r("transactionId" uuid, "recurringId" uuid, "userId" text,
                "occurrenceDate" date, "amount" numeric, "postedAt" timestamptz)
         ON CONFLICT (transaction_id) DO NOTHING`,
        [JSON.stringify(postings)],
      );
  },
});
