/**
 * `npm run rebuild -- [name...]`: replays the event log into fresh copies of a projection's
 * tables and swaps them in (all projections when no name is given), with a progress bar on
 * stderr. Connects like the app: DATABASE_URL, else embedded PGlite in DATA_DIR (./data) —
 * stop an embedded server first, PGlite allows one process per directory.
 * A killed rebuild resumes where it stopped the next time it runs.
 */
import path from 'node:path';
import type { Db } from '@kosh/event-store/db';
import { createPgDb } from '@kosh/event-store/db-pg';
import { createPgliteDb } from '@kosh/event-store/db-pglite';
import { eventStoreMigrations, migrate } from '@kosh/event-store/migrations';
import { createPostgresEventStore } from '@kosh/event-store/postgres';
import { allProjections, migrationSources } from '@kosh/projections/registry';
import { createProjectionRunner, type RebuildProgress } from '@kosh/projections/runner/runner';

function progressBar(name: string, total: number) {
  const started = Date.now();
  const interactive = process.stderr.isTTY === true;
  let lastDecile = -1;
  const line = (processed: number) => {
    const ratio = total > 0 ? Math.min(1, processed / total) : 1;
    const width = 30;
    const filled = Math.round(ratio * width);
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    return `${name} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(ratio * 100)
      .toString()
      .padStart(3)}% ${processed}/${total} events ${Math.round(processed / seconds)} ev/s`;
  };
  return {
    update({ processed }: RebuildProgress) {
      if (interactive) {
        process.stderr.write(`\r${line(processed)}`);
        return;
      }
      const decile = total > 0 ? Math.floor((processed / total) * 10) : 10;
      if (decile !== lastDecile) {
        lastDecile = decile;
        process.stderr.write(`${line(processed)}\n`);
      }
    },
    done(processed: number) {
      process.stderr.write(`${interactive ? '\r' : ''}${line(processed)} (swapped in)\n`);
    },
  };
}

async function main(): Promise<number> {
  const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const known = allProjections.map((p) => p.name);
  const unknown = wanted.filter((name) => !known.includes(name));
  if (unknown.length > 0 || process.argv.includes('--help')) {
    if (unknown.length > 0) process.stderr.write(`Unknown projection: ${unknown.join(', ')}\n`);
    process.stderr.write(
      `Usage: npm run rebuild -- [name...]\nProjections: ${known.join(', ') || '(none)'}\n`,
    );
    return unknown.length > 0 ? 1 : 0;
  }
  const names = wanted.length > 0 ? wanted : known;

  const url = process.env.DATABASE_URL;
  const db: Db = url
    ? createPgDb(url, { applicationName: 'kosh-rebuild', max: 2 })
    : await createPgliteDb(path.join(path.resolve(process.env.DATA_DIR || './data'), 'pglite'));
  const eventStore = createPostgresEventStore(db);
  const runner = createProjectionRunner({ db, eventStore, projections: allProjections });
  try {
    await migrate(db, [eventStoreMigrations, ...migrationSources]);
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    const total = rows[0]?.n ?? 0;
    for (const name of names) {
      const bar = progressBar(name, total);
      const result = await runner.rebuild(name, { onProgress: (progress) => bar.update(progress) });
      bar.done(result.processed);
    }
    return 0;
  } finally {
    runner.close();
    await eventStore.close();
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `\nRebuild failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
