import {
  assertNever,
  CATEGORY_EVENT_TYPES,
  type CategoryEvent,
  type CategoryKind,
  type RecordedEvent,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { defineProjection } from '../runner/define';
import { foldRows, type RowChange } from '../runner/row-projection';

/** One row of `categories`; instants ISO-8601 UTC. */
export type CategoryRow = Readonly<{
  id: string;
  userId: string;
  name: string;
  kind: CategoryKind;
  parentId: string | null;
  systemKey: string | null;
  position: number;
  createdAt: string;
  updatedAt: string;
  /** Merged or deleted: kept as a tombstone. */
  deleted: boolean;
  /** Where a merged or deleted category's transactions went. */
  movedTo: string | null;
  version: number;
}>;

type Versioned = Pick<RecordedEvent, 'streamVersion'>;
/** An event of the tree, one per category it touches: a seed is one creation per seeded category. */
export type CategoryRowEvent = Exclude<CategoryEvent, { type: 'CategoriesSeeded' }> & Versioned;

/** The events of a batch, one per category they touch (pure). */
export function categoryRowEvents(events: readonly (CategoryEvent & Versioned)[]): CategoryRowEvent[] {
  return events.flatMap((event): CategoryRowEvent[] =>
    event.type === 'CategoriesSeeded'
      ? event.data.categories.map((node) => ({
          type: 'CategoryCreated' as const,
          data: { userId: event.data.userId, ...node, createdAt: event.data.seededAt },
          streamVersion: event.streamVersion,
        }))
      : [event as CategoryRowEvent],
  );
}

/** Pure fold of one category's events into its row (null before it is created). */
export function evolveCategoryRow(row: CategoryRow | null, event: CategoryRowEvent): CategoryRow | null {
  if (row && event.streamVersion <= row.version) return row;
  const version = event.streamVersion;
  switch (event.type) {
    case 'CategoryCreated': {
      const d = event.data;
      return {
        id: d.categoryId,
        userId: d.userId,
        name: d.name,
        kind: d.kind,
        parentId: d.parentId,
        systemKey: d.systemKey,
        position: d.position,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
        deleted: false,
        movedTo: null,
        version,
      };
    }
    case 'CategoryRenamed':
      return row && { ...row, name: event.data.name, updatedAt: event.data.renamedAt, version };
    case 'CategoryMoved':
      return (
        row && {
          ...row,
          parentId: event.data.parentId,
          position: event.data.position,
          updatedAt: event.data.movedAt,
          version,
        }
      );
    case 'CategoryMerged':
      return (
        row && { ...row, deleted: true, movedTo: event.data.intoId, updatedAt: event.data.mergedAt, version }
      );
    case 'CategoryDeleted':
      return (
        row && { ...row, deleted: true, movedTo: event.data.moveTo, updatedAt: event.data.deletedAt, version }
      );
    default:
      return assertNever(event);
  }
}

/** The select list of a row as `categoryFromDb` reads it; `a` is the table's alias. */
export const categoryColumns = (a = 'categories') => `${a}.id::text AS id, ${a}.user_id, ${a}.name, ${a}.kind,
  ${a}.parent_id::text AS parent_id, ${a}.system_key, ${a}.position,
  to_char(${a}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(${a}.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at, ${a}.deleted,
  ${a}.moved_to::text AS moved_to, ${a}.version`;

export type DbCategoryRow = {
  id: string;
  user_id: string;
  name: string;
  kind: CategoryKind;
  parent_id: string | null;
  system_key: string | null;
  position: number;
  created_at: string;
  updated_at: string;
  deleted: boolean;
  moved_to: string | null;
  version: number;
};

export function categoryFromDb(r: DbCategoryRow): CategoryRow {
  return {
    id: r.id,
    userId: r.user_id,
    name: r.name,
    kind: r.kind,
    parentId: r.parent_id,
    systemKey: r.system_key,
    position: Number(r.position),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deleted: r.deleted,
    movedTo: r.moved_to,
    version: Number(r.version),
  };
}

async function loadRows(tx: Queryable, ids: readonly string[]): Promise<Map<string, CategoryRow>> {
  const { rows } = await tx.query<DbCategoryRow>(
    `SELECT ${categoryColumns()} FROM categories WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, categoryFromDb(r)]));
}

async function saveRows(tx: Queryable, changes: readonly RowChange<CategoryRow>[]) {
  const rows = changes.flatMap((c) => (c.after ? [c.after] : []));
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO categories (id, user_id, name, kind, parent_id, system_key, position, created_at, updated_at,
       deleted, moved_to, version)
     SELECT r."id", r."userId", r."name", r."kind", r."parentId", r."systemKey", r."position", r."createdAt",
            r."updatedAt", r."deleted", r."movedTo", r."version"
       FROM jsonb_to_recordset($1::jsonb) AS r("id" uuid, "userId" text, "name" text, "kind" text,
            "parentId" uuid, "systemKey" text, "position" integer, "createdAt" timestamptz,
            "updatedAt" timestamptz, "deleted" boolean, "movedTo" uuid, "version" integer)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, parent_id = EXCLUDED.parent_id,
       position = EXCLUDED.position, updated_at = EXCLUDED.updated_at, deleted = EXCLUDED.deleted,
       moved_to = EXCLUDED.moved_to, version = EXCLUDED.version`,
    [JSON.stringify(rows)],
  );
}

/** Each user's categories: one read and one write per batch. */
export const categoriesProjection = defineProjection({
  name: 'categories',
  handles: CATEGORY_EVENT_TYPES,
  tables: ['categories'],
  migrations: new URL('./migrations', import.meta.url),
  async apply(tx, batch) {
    const events = categoryRowEvents(batch);
    const keyOf = (event: CategoryRowEvent) => event.data.categoryId;
    const before = await loadRows(tx, [...new Set(events.map(keyOf))]);
    const changes = foldRows(before, events, keyOf, evolveCategoryRow);
    if (changes.length > 0) await saveRows(tx, changes);
  },
});
