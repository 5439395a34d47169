import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, Queryable, QueryOptions, QueryResult } from './db';

/**
 * `Db` on a `pg` Pool.
 *
 * Value types callers get (same as the PGlite driver): `int2`/`int4`/`int8` -> `number`
 * (an `int8` beyond Number.MAX_SAFE_INTEGER throws rather than losing precision; cast it to
 * text in SQL if you need such values), `numeric` -> `string`, `xid8` -> `string`,
 * `jsonb` -> parsed JSON, `timestamptz` -> `Date`, `date` -> `'YYYY-MM-DD'` string.
 *
 * A `query` without parameters uses the simple protocol and may hold several statements
 * (the result of the last one is returned); with parameters, exactly one statement.
 */
export type PgDbOptions = {
  /** Pool size (default 10). */
  max?: number;
  /** `idle_in_transaction_session_timeout` set on every connection, ms (default 10 000). */
  idleInTransactionTimeoutMs?: number;
  /** `statement_timeout` set on every connection, ms (default: none). */
  statementTimeoutMs?: number;
  applicationName?: string;
};

const INT8 = 20;
const DATE = 1082;

export function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${value} is beyond Number.MAX_SAFE_INTEGER`);
  return n;
}

const typeParsers: Record<number, (value: string) => unknown> = {
  [INT8]: parseInt8,
  [DATE]: (value) => value,
};

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    const custom = typeParsers[oid];
    if (custom && format !== 'binary') return custom;
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded typing
    return (pg.types.getTypeParser as any)(oid, format);
  },
} as pg.CustomTypesConfig;

function lastResult<Row>(res: pg.QueryResult | pg.QueryResult[]): QueryResult<Row> {
  const r = Array.isArray(res) ? res[res.length - 1] : res;
  return { rows: (r?.rows ?? []) as Row[], rowCount: r?.rowCount ?? 0 };
}

/** The statement name of a prepared text: the same on every connection, distinct per text. */
const statementNames = new Map<string, string>();
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) {
    name = `kosh_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    statementNames.set(sql, name);
  }
  return name;
}

function queryableOf(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      const values = params as unknown[] | undefined;
      const res = options?.prepared
        ? await client.query({ name: statementName(sql), text: sql, values })
        : values && values.length > 0
          ? await client.query(sql, values)
          : await client.query(sql);
      return lastResult<Row>(res as pg.QueryResult | pg.QueryResult[]);
    },
  };
}

export function createPgDb(url: string, opts: PgDbOptions = {}): Db {
  const connectionConfig: pg.ClientConfig = {
    connectionString: url,
    types,
    idle_in_transaction_session_timeout: opts.idleInTransactionTimeoutMs ?? 10_000,
    application_name: opts.applicationName ?? 'kosh',
    ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
  };
  const pool = new pg.Pool({ ...connectionConfig, max: opts.max ?? 10 });
  // An idle client erroring (server restart, terminated backend) must not crash the process.
  pool.on('error', () => {});
  const base = queryableOf(pool);

  // LISTEN runs on one dedicated connection, shared by every channel.
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let listener: pg.Client | null = null;
  let listenerReady: Promise<pg.Client> | null = null;
  let closed = false;

  const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

  function connectListener(): Promise<pg.Client> {
    if (listenerReady) return listenerReady;
    listenerReady = (async () => {
      const client = new pg.Client(connectionConfig);
      client.on('notification', (msg) => {
        for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
      });
      client.on('error', () => {
        // Reconnect and re-LISTEN; tell every handler something may have been missed.
        if (listener === client) {
          listener = null;
          listenerReady = null;
          client.end().catch(() => {});
          if (!closed && handlers.size > 0) setTimeout(() => void reconnect(), 500);
        }
      });
      await client.connect();
      for (const channel of handlers.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
      listener = client;
      return client;
    })();
    listenerReady.catch(() => {
      listenerReady = null;
    });
    return listenerReady;
  }

  async function reconnect(): Promise<void> {
    if (closed) return;
    try {
      await connectListener();
      for (const set of handlers.values()) for (const h of set) h('');
    } catch {
      setTimeout(() => void reconnect(), 1000);
    }
  }

  return {
    kind: 'postgres',
    query: base.query,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken = false;
      // A checked-out client can be ended by the server (idle_in_transaction_session_timeout,
      // pg_terminate_backend): the pending query rejects; keep the 'error' event handled.
      const onError = () => {
        broken = true;
      };
      client.on('error', onError);
      // BEGIN rides with the transaction's first statement when that one has no parameters (the
      // simple protocol takes several statements in one message): one round trip less. A
      // transaction that never queried sends neither BEGIN nor COMMIT.
      const inner = queryableOf(client);
      let begun = false;
      const tx: Queryable = {
        async query<Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
          if (!begun) {
            begun = true;
            if ((!params || params.length === 0) && !options?.prepared) {
              return inner.query<Row>(`BEGIN; ${sql}`);
            }
            await client.query('BEGIN');
          }
          return inner.query<Row>(sql, params, options);
        },
      };
      try {
        const result = await fn(tx);
        if (begun) await client.query('COMMIT');
        return result;
      } catch (err) {
        try {
          if (begun) await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        throw err;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    async listen(channel, onNotify) {
      let set = handlers.get(channel);
      const isNew = !set;
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(onNotify);
      let client: pg.Client;
      try {
        client = await connectListener();
      } catch (err) {
        set.delete(onNotify);
        if (set.size === 0) handlers.delete(channel);
        throw err;
      }
      if (isNew && listener === client) await client.query(`LISTEN ${quoteIdent(channel)}`);
      return async () => {
        const s = handlers.get(channel);
        if (!s) return;
        s.delete(onNotify);
        if (s.size === 0) {
          handlers.delete(channel);
          if (listener) await listener.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => {});
        }
      };
    },
    async close() {
      closed = true;
      const l = listener;
      listener = null;
      listenerReady = null;
      if (l) await l.end().catch(() => {});
      await pool.end();
    },
  };
}
