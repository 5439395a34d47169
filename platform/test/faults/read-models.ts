import { createPostgresEventStore } from '@kosh/event-store';
import { allProjections, createProjectionRunner } from '@kosh/projections';
import type { Stack } from './stack';

/** Order-independent digest of every read-model table. */
async function digests(stack: Stack): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const projection of allProjections) {
    for (const table of projection.tables) {
      const { rows } = await stack.database.db.query<{ digest: string; n: number }>(
        `SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS digest, count(*)::int AS n FROM "${table}" t`,
      );
      out[table] = `${rows[0]?.n}:${rows[0]?.digest}`;
    }
  }
  return out;
}

/**
 * Waits until every projection has applied the whole log, takes the read models' digests,
 * rebuilds every projection from zero and takes them again: the two must be equal.
 */
export async function liveAndRebuiltDigests(
  stack: Stack,
  timeoutMs: number,
): Promise<{ live: Record<string, string>; rebuilt: Record<string, string> }> {
  const db = stack.database.db;
  const eventStore = createPostgresEventStore(db);
  const runner = createProjectionRunner({ db, eventStore, projections: allProjections });
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const statuses = await runner.status();
      if (statuses.every((s) => s.lagEvents === 0 && s.status === 'running')) break;
      if (Date.now() > deadline) throw new Error(`read models never caught up: ${JSON.stringify(statuses)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const live = await digests(stack);
    for (const { name } of allProjections) await runner.rebuild(name, { restart: true });
    const rebuilt = await digests(stack);
    return { live, rebuilt };
  } finally {
    runner.close();
    await eventStore.close();
  }
}
