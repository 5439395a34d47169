import {
  assertNever,
  DEFAULT_NOTIFICATION_PREFERENCES,
  NOTIFICATION_EVENT_TYPES,
  NOTIFICATION_FIELDS,
  type NotificationEvent,
  type NotificationPreferences,
  REMINDER_KINDS,
  type RecordedEvent,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { columnsOf } from '../runner/columns';
import { rowProjection, splitChanges } from '../runner/row-projection';

export type NotificationRow = NotificationPreferences &
  Readonly<{ userId: string; updatedAt: string; version: number }>;

/** Pure fold of a user's notification stream into their preferences. */
export function evolveNotificationRow(
  row: NotificationRow | null,
  event: NotificationEvent & Pick<RecordedEvent, 'streamVersion'>,
): NotificationRow | null {
  if (row && event.streamVersion <= row.version) return row;
  const current = row ?? { ...DEFAULT_NOTIFICATION_PREFERENCES, userId: event.data.userId };
  const version = event.streamVersion;
  switch (event.type) {
    case 'NotificationPreferencesSet':
      return { ...current, ...event.data.changes, updatedAt: event.data.updatedAt, version };
    case 'ReminderUnsubscribed':
      return {
        ...current,
        [REMINDER_KINDS[event.data.kind].flag]: false,
        updatedAt: event.data.unsubscribedAt,
        version,
      };
    default:
      return assertNever(event);
  }
}

const FIELD_COLUMNS = columnsOf(NOTIFICATION_FIELDS);

export const NOTIFICATION_COLUMNS = `n.user_id, ${FIELD_COLUMNS.select('n')},
  to_char(n.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at, n.version`;

type DbRow = Readonly<Record<string, unknown>> & { user_id: string; updated_at: string; version: number };

export const notificationFromDb = (r: DbRow): NotificationRow => ({
  ...FIELD_COLUMNS.fromSql(r),
  userId: r.user_id,
  updatedAt: r.updated_at,
  version: Number(r.version),
});

export const notificationsProjection = rowProjection({
  name: 'notifications',
  handles: NOTIFICATION_EVENT_TYPES,
  tables: ['notification_preferences'],
  migrations: new URL('./migrations', import.meta.url),
  keyOf: (event) => event.data.userId,
  evolve: evolveNotificationRow,
  async load(tx, keys) {
    const { rows } = await tx.query<DbRow>(
      `SELECT ${NOTIFICATION_COLUMNS} FROM notification_preferences n WHERE n.user_id = ANY($1::text[])`,
      [keys],
    );
    return new Map(rows.map((r) => [r.user_id, notificationFromDb(r)]));
  },
  async write(tx, changes) {
    const { saved } = splitChanges(changes);
    if (saved.length === 0) return;
    await tx.query(
      `INSERT INTO notification_preferences (user_id, ${FIELD_COLUMNS.insert}, updated_at, version)
       SELECT r."userId", ${FIELD_COLUMNS.values}, r."updatedAt", r."version"
         FROM jsonb_to_recordset($1::jsonb) AS r("userId" text, ${FIELD_COLUMNS.recordset},
              "updatedAt" timestamptz, "version" integer)
       ON CONFLICT (user_id) DO UPDATE SET ${FIELD_COLUMNS.update}, updated_at = EXCLUDED.updated_at,
         version = EXCLUDED.version`,
      [JSON.stringify(saved.map((r) => ({ ...r, ...FIELD_COLUMNS.toRecord(r) })))],
    );
  },
});

/** The user's preferences (the defaults when never set). */
export async function getNotificationPreferences(db: Queryable, userId: string): Promise<NotificationRow> {
  const { rows } = await db.query<DbRow>(
    `SELECT ${NOTIFICATION_COLUMNS} FROM notification_preferences n WHERE n.user_id = $1`,
    [userId],
  );
  const row = rows[0];
  return row
    ? notificationFromDb(row)
    : { ...DEFAULT_NOTIFICATION_PREFERENCES, userId, updatedAt: new Date(0).toISOString(), version: 0 };
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** Some kind of reminder is on: every kind of `REMINDER_KINDS`, so a new kind needs nothing here. */
const ANY_KIND_ON = Object.values(REMINDER_KINDS)
  .map((kind) => `n.${snake(kind.flag)}`)
  .join(' OR ');

/** Users with at least one kind of reminder on, with their address. */
export async function reminderSubscribers(
  db: Queryable,
): Promise<(NotificationRow & { email: string; firstName: string | null })[]> {
  const { rows } = await db.query<DbRow & { email: string; first_name: string | null }>(
    `SELECT ${NOTIFICATION_COLUMNS}, u.email, u.first_name
       FROM notification_preferences n JOIN users u ON u.user_id = n.user_id
      WHERE ${ANY_KIND_ON}`,
  );
  return rows.map((r) => ({ ...notificationFromDb(r), email: r.email, firstName: r.first_name }));
}
