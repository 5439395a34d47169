import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db';

/** A folder of plain `.sql` files, applied in file-name order, recorded under `scope`. */
export type MigrationSource = { scope: string; dir: string };

/** The event store's own migrations (scope 'event-store'); put it first. */
export const eventStoreMigrations: MigrationSource = {
  scope: 'event-store',
  dir: fileURLToPath(new URL('./migrations', import.meta.url)),
};

export type AppliedMigration = { scope: string; name: string };

// Two-int advisory lock key space of the migrations runner ('Kosh', 2).
const LOCK = 'SELECT pg_advisory_xact_lock(1265594216, 2)';

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  scope text NOT NULL,
  name text NOT NULL,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, name)
)`;

/**
 * Applies every `.sql` file not yet recorded in `schema_migrations`, sources in the given order,
 * files by name. Each file runs in its own transaction together with its record, under an
 * advisory lock, so two processes starting at once apply each file exactly once. Returns the
 * migrations this call applied. Never edit an applied file: add a new one.
 */
export async function migrate(db: Db, sources: readonly MigrationSource[]): Promise<AppliedMigration[]> {
  const applied: AppliedMigration[] = [];
  const seen = new Set<string>();
  for (const { scope, dir } of sources) {
    if (seen.has(scope)) throw new Error(`Migration scope ${scope} listed twice`);
    seen.add(scope);
    const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
    for (const name of files) {
      const sql = await readFile(join(dir, name), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      const done = await db.transaction(async (tx) => {
        await tx.query(LOCK, []);
        await tx.query(CREATE_TABLE);
        const existing = await tx.query('SELECT 1 FROM schema_migrations WHERE scope = $1 AND name = $2', [
          scope,
          name,
        ]);
        if (existing.rowCount > 0 || existing.rows.length > 0) return false;
        try {
          await tx.query(sql);
        } catch (err) {
          throw new Error(`Migration ${scope}/${name} failed: ${(err as Error).message}`, { cause: err });
        }
        await tx.query('INSERT INTO schema_migrations (scope, name, checksum) VALUES ($1, $2, $3)', [
          scope,
          name,
          checksum,
        ]);
        return true;
      });
      if (done) applied.push({ scope, name });
    }
  }
  return applied;
}
