import type { Queryable } from '@kosh/event-store';

/**
 * Every row of each table (name → key columns to order by) as JSON: what a rebuild must give
 * back unchanged.
 */
export async function snapshotTables(
  db: Queryable,
  tables: Readonly<Record<string, string>>,
): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, key] of Object.entries(tables)) {
    const { rows } = await db.query(`SELECT to_jsonb(x) AS row FROM ${table} x ORDER BY ${key}`);
    out[table] = rows;
  }
  return out;
}
