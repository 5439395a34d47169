import {
  ACCOUNT_EVENT_TYPES,
  AUDIT_EVENT_TYPES,
  BUDGET_EVENT_TYPES,
  CATEGORY_EVENT_TYPES,
  catalogEventTypes,
  ERASURE_EVENT_TYPES,
  eventOwner,
  IMPORT_EVENT_TYPES,
  loanChangeEventTypes,
  loanEventTypes,
  NOTIFICATION_EVENT_TYPES,
  RECURRING_EVENT_TYPES,
  type RecordedEvent,
  RULE_EVENT_TYPES,
  TRANSACTION_EVENT_TYPES,
  TRANSFER_EVENT_TYPES,
  USER_EVENT_TYPES,
} from '@kosh/domain';
import { defineProjection } from '../runner/define';

/** Every event type of a user-owned stream. */
export const HISTORY_EVENT_TYPES: readonly string[] = [
  ...USER_EVENT_TYPES,
  ...loanEventTypes,
  ...loanChangeEventTypes,
  ...TRANSACTION_EVENT_TYPES,
  ...catalogEventTypes,
  ...AUDIT_EVENT_TYPES,
  ...ACCOUNT_EVENT_TYPES,
  ...TRANSFER_EVENT_TYPES,
  ...IMPORT_EVENT_TYPES,
  ...RECURRING_EVENT_TYPES,
  ...NOTIFICATION_EVENT_TYPES,
  ...CATEGORY_EVENT_TYPES,
  ...RULE_EVENT_TYPES,
  ...BUDGET_EVENT_TYPES,
  ...ERASURE_EVENT_TYPES,
];

/** Fields that hold secrets (or what a secret can be checked against): never copied. */
export const SECRET_FIELDS = new Set([
  'passwordHash',
  'tokenHash',
  'sealedToken',
  // Two-factor sign-in (issue 32): the sealed TOTP secret and what recovery codes are checked against.
  'sealedSecret',
  'recoveryCodeHashes',
  'codeHash',
]);

/** The event's data without its secret fields. */
export function withoutSecrets(data: unknown): Record<string, unknown> {
  const source = (data ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(source).filter(([key]) => !SECRET_FIELDS.has(key)));
}

/**
 * Whose event this is: the acting user, else the user the data names (registration is
 * anonymous), else the owner of a catalog entry; null for the seeded catalog, e-mail reservations
 * and `erased-accounts`. The event store's chain has the same rule (domain `eventOwner`,
 * event-store migration 009), so every event History shows and exports is chained.
 */
export function ownerOf(event: RecordedEvent): string | null {
  return eventOwner(event.streamId, event.data, event.metadata);
}

export type HistoryRecord = {
  position: string;
  userId: string;
  eventId: string;
  streamId: string;
  streamVersion: number;
  type: string;
  data: Record<string, unknown>;
  metadata: RecordedEvent['metadata'];
  recordedAt: string;
};

/**
 * A statement import's rows are the book's; the timeline keeps how many (issue 30). The signed
 * export reads the event's data as recorded from the log instead (queries.ts `exportPage`), so its
 * chain link can be recomputed.
 */
function importSummary(data: unknown): Record<string, unknown> {
  const { rows, ...rest } = (data ?? {}) as { rows?: { amount: number; transactionType: string }[] };
  const list = rows ?? [];
  const sum = (type: string) =>
    list.filter((r) => r.transactionType === type).reduce((t, r) => t + r.amount, 0);
  return { ...rest, rowCount: list.length, creditAmount: sum('C'), debitAmount: sum('D') };
}

/** What the read model keeps of an event (null: nobody's, e.g. the seeded catalog). Pure. */
export function historyRecordOf(event: RecordedEvent): HistoryRecord | null {
  const userId = ownerOf(event);
  if (userId === null) return null;
  return {
    position: event.position,
    userId,
    eventId: event.id,
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    type: event.type,
    data: event.type === 'ImportCommitted' ? importSummary(event.data) : withoutSecrets(event.data),
    metadata: event.metadata,
    recordedAt: event.metadata.recordedAt,
  };
}

/** Each user's own events, secrets removed: one write per batch, a redelivery changes nothing. */
export const historyProjection = defineProjection({
  name: 'history',
  handles: HISTORY_EVENT_TYPES,
  tables: ['history_events'],
  migrations: new URL('./migrations', import.meta.url),
  // Its writes only insert (by position); every index is for the reads.
  deferredIndexes: [
    'history_events_user_idx',
    'history_events_stream_idx',
    'history_events_user_type_idx',
    'history_events_user_time_idx',
    'history_events_txn_month_idx',
  ],
  async apply(tx, events) {
    const records = events.map(historyRecordOf).filter((r): r is HistoryRecord => r !== null);
    if (records.length === 0) return;
    await tx.query(
      `INSERT INTO history_events (position, user_id, event_id, stream_id, stream_version, type, data, metadata,
         recorded_at)
       SELECT r."position", r."userId", r."eventId", r."streamId", r."streamVersion", r."type", r."data",
              r."metadata", r."recordedAt"
         FROM jsonb_to_recordset($1::jsonb) AS r("position" text, "userId" text, "eventId" text, "streamId" text,
              "streamVersion" integer, "type" text, "data" jsonb, "metadata" jsonb, "recordedAt" timestamptz)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(records)],
    );
  },
});
