import type { Queryable } from '@kosh/event-store';
import { type DbRecurringRow, RECURRING_COLUMNS, type RecurringRow, recurringFromDb } from './projector';

/** The user's live recurring entries, oldest first. */
export async function listRecurring(db: Queryable, userId: string): Promise<RecurringRow[]> {
  const { rows } = await db.query<DbRecurringRow>(
    `SELECT ${RECURRING_COLUMNS} FROM recurring_entries r
      WHERE r.user_id = $1 AND NOT r.deleted ORDER BY r.created_at, r.id`,
    [userId],
  );
  return rows.map(recurringFromDb);
}

/** One live entry of the user's, or null (another user's is null too). */
export async function getRecurring(db: Queryable, userId: string, id: string): Promise<RecurringRow | null> {
  const { rows } = await db.query<DbRecurringRow>(
    `SELECT ${RECURRING_COLUMNS} FROM recurring_entries r WHERE r.id = $1::uuid AND r.user_id = $2 AND NOT r.deleted`,
    [id, userId],
  );
  const row = rows[0];
  return row ? recurringFromDb(row) : null;
}

/** Entries of every user that may have an occurrence from `from` to `to` (the poster's and reminders' scan). */
export async function recurringActiveBetween(
  db: Queryable,
  from: string,
  to: string,
): Promise<RecurringRow[]> {
  const { rows } = await db.query<DbRecurringRow>(
    `SELECT ${RECURRING_COLUMNS} FROM recurring_entries r
      WHERE NOT r.deleted AND r.start_date <= $2::date AND (r.end_date IS NULL OR r.end_date >= $1::date)
      ORDER BY r.user_id, r.id`,
    [from, to],
  );
  return rows.map(recurringFromDb);
}

export type PostedOccurrence = Readonly<{
  recurringId: string;
  occurrenceDate: string;
  transactionId: string;
}>;

/** The occurrences already posted of these entries from `from` on. */
export async function postedOccurrences(
  db: Queryable,
  recurringIds: readonly string[],
  from: string,
): Promise<PostedOccurrence[]> {
  if (recurringIds.length === 0) return [];
  const { rows } = await db.query<{ recurring_id: string; occurrence_date: string; transaction_id: string }>(
    `SELECT recurring_id::text AS recurring_id, to_char(occurrence_date, 'YYYY-MM-DD') AS occurrence_date,
            transaction_id::text AS transaction_id
       FROM recurring_postings WHERE recurring_id = ANY($1::uuid[]) AND occurrence_date >= $2::date`,
    [recurringIds, from],
  );
  return rows.map((r) => ({
    recurringId: r.recurring_id,
    occurrenceDate: r.occurrence_date,
    transactionId: r.transaction_id,
  }));
}
