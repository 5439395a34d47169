import { AsyncLocalStorage } from 'node:async_hooks';
import { PGlite, type Results, type Transaction } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable, QueryResult } from './db';
import { parseInt8 } from './db-pg';

/**
 * `Db` on embedded PGlite (PostgreSQL in WASM). `dataDir` undefined = in memory.
 *
 * Value types are the same as the `pg` driver (see db-pg.ts): int8 -> number (throws beyond
 * 2^53), numeric -> string, date -> 'YYYY-MM-DD', timestamptz -> Date, jsonb -> parsed.
 *
 * PGlite is one connection: every query and transaction runs one at a time behind a mutex.
 * Inside `transaction(fn)` use the `tx` argument only; calling `db.query` / `db.transaction`
 * from inside `fn` would wait for itself, so it throws instead.
 */
const INT8 = 20;
const DATE = 1082;

const parsers = {
  [INT8]: parseInt8,
  [DATE]: (value: string) => value,
};

class Mutex {
  #tail: Promise<void> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn);
    this.#tail = result.then(
      () => {},
      () => {},
    );
    return result;
  }
}

function toResult<Row>(r: Results | undefined): QueryResult<Row> {
  return { rows: (r?.rows ?? []) as Row[], rowCount: Math.max(r?.affectedRows ?? 0, r?.rows.length ?? 0) };
}

async function run<Row>(
  target: PGlite | Transaction,
  sql: string,
  params?: readonly unknown[],
): Promise<QueryResult<Row>> {
  if (params && params.length > 0) return toResult<Row>(await target.query(sql, params as unknown[]));
  const results = await target.exec(sql);
  return toResult<Row>(results[results.length - 1]);
}

export async function createPgliteDb(dataDir: string | undefined): Promise<Db> {
  // The extensions of the notes search index (projections' transactions migration 002).
  const extensions = { pg_trgm, btree_gin };
  const pglite = await PGlite.create(dataDir ? { dataDir, parsers, extensions } : { parsers, extensions });
  const mutex = new Mutex();
  const inTransaction = new AsyncLocalStorage<boolean>();
  let closed = false;

  const guard = () => {
    if (closed) throw new Error('PGlite database is closed');
    if (inTransaction.getStore())
      throw new Error('db.query/db.transaction called inside a PGlite transaction: use the tx argument');
  };

  return {
    kind: 'pglite',
    async query<Row>(sql: string, params?: readonly unknown[]) {
      guard();
      return mutex.run(() => run<Row>(pglite, sql, params));
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      guard();
      return mutex.run(() =>
        pglite.transaction((tx) =>
          inTransaction.run(true, () =>
            fn({ query: <Row>(sql: string, params?: readonly unknown[]) => run<Row>(tx, sql, params) }),
          ),
        ),
      );
    },
    async listen(channel, onNotify) {
      guard();
      const unlisten = await mutex.run(() =>
        pglite.listen(channel, (payload) => inTransaction.exit(() => onNotify(payload))),
      );
      return async () => {
        if (closed) return;
        await mutex.run(() => unlisten());
      };
    },
    async close() {
      if (closed) return;
      await mutex.run(async () => {
        closed = true;
        await pglite.close();
      });
    },
  };
}
