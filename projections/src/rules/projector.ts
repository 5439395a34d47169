import {
  assertNever,
  pickFields,
  type RecordedEvent,
  RULE_EVENT_TYPES,
  RULE_FIELDS,
  type RuleEvent,
  type RuleFields,
  withAbsent,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { columnsOf } from '../runner/columns';
import { rowProjection, splitChanges } from '../runner/row-projection';

/** One row of `rules`: the rule's declared fields and its own. */
export type RuleRow = RuleFields &
  Readonly<{
    id: string;
    userId: string;
    createdAt: string;
    updatedAt: string;
    deleted: boolean;
    appliedCount: number;
    changedCount: number;
    version: number;
  }>;

type VersionedRuleEvent = RuleEvent & Pick<RecordedEvent, 'streamVersion'>;

/** Pure fold of one rule's events into its row (null before it is created). */
export function evolveRuleRow(row: RuleRow | null, event: VersionedRuleEvent): RuleRow | null {
  if (row && event.streamVersion <= row.version) return row;
  const version = event.streamVersion;
  switch (event.type) {
    case 'RuleCreated': {
      const d = event.data;
      return {
        ...pickFields(RULE_FIELDS, withAbsent(RULE_FIELDS, d)),
        id: d.ruleId,
        userId: d.userId,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
        deleted: false,
        appliedCount: 0,
        changedCount: 0,
        version,
      };
    }
    case 'RuleUpdated':
      return row && { ...row, ...event.data.changes, updatedAt: event.data.updatedAt, version };
    case 'RuleDeleted':
      return row && { ...row, deleted: true, updatedAt: event.data.deletedAt, version };
    case 'RuleApplied':
      return (
        row && {
          ...row,
          appliedCount: row.appliedCount + 1,
          changedCount: row.changedCount + event.data.changes.length,
          version,
        }
      );
    default:
      return assertNever(event);
  }
}

const FIELD_COLUMNS = columnsOf(RULE_FIELDS);

export const RULE_COLUMNS = `id::text AS id, user_id, ${FIELD_COLUMNS.select()},
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at, deleted,
  applied_count, changed_count, version`;

type DbRuleRow = Readonly<Record<string, unknown>> & {
  id: string;
  user_id: string;
  created_at: string;
  updated_at: string;
  deleted: boolean;
  applied_count: number;
  changed_count: number;
  version: number;
};

export function ruleFromDb(r: DbRuleRow): RuleRow {
  return {
    ...FIELD_COLUMNS.fromSql(r),
    id: r.id,
    userId: r.user_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deleted: r.deleted,
    appliedCount: Number(r.applied_count),
    changedCount: Number(r.changed_count),
    version: Number(r.version),
  };
}

async function loadRows(tx: Queryable, ids: readonly string[]): Promise<Map<string, RuleRow>> {
  const { rows } = await tx.query<DbRuleRow>(`SELECT ${RULE_COLUMNS} FROM rules WHERE id = ANY($1::uuid[])`, [
    ids,
  ]);
  return new Map(rows.map((r) => [r.id, ruleFromDb(r)]));
}

async function saveRows(tx: Queryable, rows: readonly RuleRow[]) {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO rules (id, user_id, ${FIELD_COLUMNS.insert}, created_at, updated_at, deleted, applied_count,
       changed_count, version)
     SELECT r."id", r."userId", ${FIELD_COLUMNS.values}, r."createdAt", r."updatedAt", r."deleted",
            r."appliedCount", r."changedCount", r."version"
       FROM jsonb_to_recordset($1::jsonb) AS r("id" uuid, "userId" text, ${FIELD_COLUMNS.recordset},
            "createdAt" timestamptz, "updatedAt" timestamptz, "deleted" boolean, "appliedCount" integer,
            "changedCount" integer, "version" integer)
     ON CONFLICT (id) DO UPDATE SET ${FIELD_COLUMNS.update}, updated_at = EXCLUDED.updated_at,
       deleted = EXCLUDED.deleted, applied_count = EXCLUDED.applied_count,
       changed_count = EXCLUDED.changed_count, version = EXCLUDED.version`,
    [JSON.stringify(rows.map((r) => ({ ...r, ...FIELD_COLUMNS.toRecord(r) })))],
  );
}

/** The users' rules: one read and one write per batch. */
export const rulesProjection = rowProjection({
  name: 'rules',
  handles: RULE_EVENT_TYPES,
  tables: ['rules'],
  migrations: new URL('./migrations', import.meta.url),
  keyOf: (event) => event.data.ruleId,
  evolve: evolveRuleRow,
  load: loadRows,
  async write(tx, changes) {
    await saveRows(tx, splitChanges(changes).saved);
  },
});

/** The user's live rules, oldest first (the order they are tried in an import preview). */
export async function listRules(db: Queryable, userId: string): Promise<RuleRow[]> {
  const { rows } = await db.query<DbRuleRow>(
    `SELECT ${RULE_COLUMNS} FROM rules WHERE user_id = $1 AND NOT deleted ORDER BY created_at, id`,
    [userId],
  );
  return rows.map(ruleFromDb);
}

/** One of the user's live rules, or null. */
export async function getRule(db: Queryable, userId: string, id: string): Promise<RuleRow | null> {
  const { rows } = await db.query<DbRuleRow>(
    `SELECT ${RULE_COLUMNS} FROM rules WHERE id = $2 AND user_id = $1 AND NOT deleted`,
    [userId, id],
  );
  return rows[0] ? ruleFromDb(rows[0]) : null;
}
