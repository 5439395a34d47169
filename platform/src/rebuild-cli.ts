/**
 * `npm run rebuild -- [name...] [--restart]`: replays the event log into fresh copies of a
 * projection's tables and swaps them in (all projections when no name is given), all of them in
 * one pass over the log (`rebuildTogether`), with one progress bar on stderr (one line per 10%
 * when stderr is not a terminal) and a line per projection as it is swapped in. Connects like the app:
 * DATABASE_URL (the log in EventStoreDB when EVENTSTORE_URL is set), else embedded PGlite in DATA_DIR (./data) — stop an embedded server first,
 * PGlite allows one process per directory.
 * A killed run resumes the next time: projections already swapped in are not replayed again,
 * an unfinished one continues where it stopped, or starts over when the live tables changed
 * since it began (the fix of a failed rebuild's cause, a migration). `--restart` discards
 * unfinished rebuilds (and their `rebuild_<name>` schemas) and starts over.
 */
import path from 'node:path';
import type { Db } from '@kosh/event-store';
import { createPgDb, createPgliteDb, eventStoreMigrations, migrate } from '@kosh/event-store';
import {
  allProjections,
  createProjectionRunner,
  migrationSources,
  ProjectionRebuildError,
  type RebuildProgress,
} from '@kosh/projections';
import { createEventStore } from './event-store';

/** `total` is null when the log's size is unknown (EventStoreDB): then only counts are shown. */
function progressBar(name: string, total: number | null) {
  const started = Date.now();
  const interactive = process.stderr.isTTY === true;
  let lastDecile = -1;
  // Rates count only what this run replayed, not what a killed run did before.
  let resumedFrom = 0;
  const line = (processed: number) => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    if (total === null) return `${name} ${processed} events ${Math.round(processed / seconds)} ev/s`;
    const ratio = total > 0 ? Math.min(1, processed / total) : 1;
    const width = 30;
    const filled = Math.round(ratio * width);
    return `${name} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(ratio * 100)
      .toString()
      .padStart(3)}% ${processed}/${total} events ${Math.round((processed - resumedFrom) / seconds)} ev/s`;
  };
  return {
    update(progress: RebuildProgress) {
      const { processed } = progress;
      resumedFrom = progress.resumedFrom;
      if (interactive) {
        process.stderr.write(`\r${line(processed)}`);
        return;
      }
      // Each 10% step once; the last one is the "swapped in" line.
      const decile =
        total === null
          ? Math.floor(Math.log10(processed + 1))
          : total > 0
            ? Math.min(9, Math.floor((processed / total) * 10))
            : 0;
      if (decile > lastDecile) {
        lastDecile = decile;
        process.stderr.write(`${line(processed)}\n`);
      }
    },
    /** Keeps the rate's count without printing (one bar speaks for a run of several). */
    quiet(progress: RebuildProgress) {
      resumedFrom = progress.resumedFrom;
    },
    done(processed: number) {
      process.stderr.write(`${interactive ? '\r' : ''}${line(processed)} (swapped in)\n`);
    },
  };
}

/** A projector (or the database) refused an event of the replay of `name`. */
class RebuildFailed extends Error {
  constructor(
    readonly projection: string,
    readonly names: readonly string[],
    cause: unknown,
  ) {
    super(`Rebuild of ${projection} failed`, { cause });
  }

  /** What went wrong, and that a plain run after the fix goes on (no --restart needed). */
  describe(): string {
    const cause = this.cause instanceof Error ? (this.cause.stack ?? this.cause.message) : String(this.cause);
    return (
      `\nRebuild of ${this.projection} failed: ${cause}\n` +
      `The live tables are untouched. Fix the cause, then run \`npm run rebuild -- ${this.names.join(' ')}\` ` +
      'again: it resumes where this run stopped, or starts over if the live tables changed.\n'
    );
  }
}

async function main(): Promise<number> {
  const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const restart = process.argv.includes('--restart');
  const known = allProjections.map((p) => p.name);
  const unknown = wanted.filter((name) => !known.includes(name));
  if (unknown.length > 0 || process.argv.includes('--help')) {
    if (unknown.length > 0) process.stderr.write(`Unknown projection: ${unknown.join(', ')}\n`);
    process.stderr.write(
      `Usage: npm run rebuild -- [name...] [--restart]\nProjections: ${known.join(', ') || '(none)'}\n`,
    );
    return unknown.length > 0 ? 1 : 0;
  }
  const requested = wanted.length > 0 ? wanted : known;

  const url = process.env.DATABASE_URL;
  const db: Db = url
    ? createPgDb(url, { applicationName: 'kosh-rebuild', max: 4 })
    : await createPgliteDb(path.join(path.resolve(process.env.DATA_DIR || './data'), 'pglite'));
  const eventStore = await createEventStore(process.env, db);
  const runner = createProjectionRunner({ db, eventStore, projections: allProjections });
  try {
    await migrate(db, [eventStoreMigrations, ...migrationSources]);
    const total = process.env.EVENTSTORE_URL
      ? null
      : ((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]?.n ?? 0);
    const pending = (await runner.pendingRebuilds()).filter((name) => requested.includes(name));
    const names = pending.length > 0 && !restart ? pending : requested;
    if (names !== requested) {
      const done = requested.filter((name) => !names.includes(name));
      process.stderr.write(
        `Resuming an unfinished run: ${names.join(', ')}${done.length ? ` (already swapped in: ${done.join(', ')})` : ''}\n`,
      );
    }
    await runner.planRebuilds(names);
    // One pass over the log for all of them: each batch read once, applied to each read model.
    const bars = new Map(names.map((name) => [name, progressBar(name, total)]));
    const overall = progressBar(`${names.length} read models`, total);
    const slowest = new Map<string, number>();
    try {
      await runner.rebuildTogether(names, {
        restart,
        onProgress: (progress) => {
          slowest.set(progress.projection, progress.processed);
          bars.get(progress.projection)?.quiet(progress);
          overall.update({ ...progress, processed: Math.min(...slowest.values()) });
        },
        onSwapped: (name, result) => bars.get(name)?.done(result.processed),
      });
    } catch (error) {
      if (error instanceof ProjectionRebuildError)
        throw new RebuildFailed(error.projection, names, error.cause);
      throw error;
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
      error instanceof RebuildFailed
        ? error.describe()
        : `\nRebuild failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
