/**
 * The small database interface both drivers implement (`pg` Pool and embedded PGlite), so the
 * event store, migrations, projections and queries run the same SQL on either.
 * Parameters are `$1`-style. `int8` columns should be cast to text or int in SQL where the
 * caller cares: `pg` returns them as strings, PGlite as numbers.
 */
export type QueryResult<Row> = { rows: Row[]; rowCount: number };

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
}

export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `fn` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Calls `onNotify` for each NOTIFY on `channel`; returns an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
