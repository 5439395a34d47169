import type { Db } from '@kosh/event-store';

/** Advisory lock namespace of statement commits (first key; the projections' are 'kosh' and 'kosh' + 1). */
const IMPORT_COMMIT_LOCK = 0x6b6f7368 + 16;

/**
 * The lock's transaction is idle while the commit works on other connections: it is kept from
 * the pool's `idle_in_transaction_session_timeout` (10 s) for this long (a 50,000-row commit on
 * a loaded machine holds it half a minute).
 */
const HOLD_LIMIT = '300s';

const queues = new Map<string, Promise<void>>();

/**
 * Runs `fn` while no other commit into the account runs (issue 30: two commits of one preview, or
 * of two previews of overlapping statements, must not both record a row). In this process the
 * commits of an account queue behind one another; on PostgreSQL a transaction also holds the
 * account's advisory lock, so API processes queue too. A commit releases the lock once its rows'
 * fingerprints are in the imports read model, so the next one sees them (the route waits for it).
 */
export async function withAccountImportLock<T>(db: Db, accountId: string, fn: () => Promise<T>): Promise<T> {
  const before = queues.get(accountId) ?? Promise.resolve();
  let release = () => {};
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = before.then(() => mine);
  queues.set(accountId, tail);
  await before;
  try {
    // Embedded (PGlite) is one process: the queue above is the lock.
    if (db.kind !== 'postgres') return await fn();
    // Should the lock's session end early anyway, the commit that ran stands: its answer is given.
    let done: { result: T } | null = null;
    try {
      await db.transaction(async (tx) => {
        await tx.query(`SET LOCAL idle_in_transaction_session_timeout = '${HOLD_LIMIT}'`);
        await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [
          IMPORT_COMMIT_LOCK,
          accountId,
        ]);
        done = { result: await fn() };
      });
    } catch (error) {
      if (!done) throw error;
    }
    return (done as unknown as { result: T }).result;
  } finally {
    release();
    if (queues.get(accountId) === tail) queues.delete(accountId);
  }
}
