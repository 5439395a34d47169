/**
 * The small database interface both drivers implement (`pg` Pool and embedded PGlite), so the
 * event store, migrations, projections and queries run the same SQL on either.
 * Parameters are `$1`-style. Both drivers return the same JS types: int2/int4/int8 -> number
 * (an int8 beyond Number.MAX_SAFE_INTEGER throws: cast such values to text in SQL),
 * numeric -> string (money stays exact), date -> 'YYYY-MM-DD' string, timestamptz -> Date,
 * json/jsonb -> parsed value, xid8 -> string.
 * `query` without parameters uses the simple protocol and may hold several statements (the last
 * one's result is returned); with parameters, exactly one statement.
 */
export type QueryResult<Row> = { rows: Row[]; rowCount: number };

/**
 * `prepared`: the statement's text is fixed (its values are all parameters): the pg driver parses
 * and plans it once per connection (a named statement) instead of on every call. Only for texts of
 * a bounded set: each is kept on every connection of the pool. PGlite ignores it.
 */
export type QueryOptions = { prepared?: boolean };

export interface Queryable {
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<Row>>;
}

export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `fn` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Calls `onNotify` for each NOTIFY on `channel`; returns an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
