import type { RecordedEvent } from '@kosh/domain';
import type { Db, EventStore } from '@kosh/event-store';
import type { CheckpointWatcher } from './checkpoint-watcher';
import type { Projection } from './types';

/** pino-compatible subset. */
export type RunnerLogger = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

/** Advisory lock namespaces (first key of `pg_*advisory_xact_lock(int, int)`). */
export const LIVE_LOCK = 0x6b6f7368; // 'kosh'
export const REBUILD_LOCK = LIVE_LOCK + 1;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type Checkpoint = { position: string; status: 'running' | 'stopped' };

/** What the runner's parts (catch-up, dead letters, rebuild, status) share. */
export type RunnerContext = Readonly<{
  db: Db;
  eventStore: EventStore;
  logger: RunnerLogger;
  watcher: CheckpointWatcher;
  /** The projection of that name with its handled types; throws for an unknown name. */
  get(name: string): { projection: Projection; handles: Set<string> };
  /** Names of the runner's projections. */
  names(): string[];
  ensureCheckpoint(name: string): Promise<void>;
  readCheckpoint(name: string): Promise<Checkpoint>;
  /** Up to `limit` events of the log after `position` ('' = from the start); callers must not change them. */
  readAfter(position: string, limit: number): Promise<RecordedEvent[]>;
}>;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

export function createRunnerContext(options: {
  db: Db;
  eventStore: EventStore;
  projections: readonly Projection[];
  logger: RunnerLogger;
  watcher: CheckpointWatcher;
}): RunnerContext {
  const { db, eventStore } = options;
  const projections = new Map<string, { projection: Projection; handles: Set<string> }>();
  for (const projection of options.projections) {
    if (projections.has(projection.name)) throw new Error(`Duplicate projection ${projection.name}`);
    for (const table of projection.tables) {
      if (!IDENTIFIER.test(table)) throw new Error(`Projection ${projection.name}: bad table name ${table}`);
    }
    projections.set(projection.name, { projection, handles: new Set(projection.handles) });
  }

  const ensured = new Set<string>();
  async function ensureCheckpoint(name: string): Promise<void> {
    if (ensured.has(name)) return;
    await db.query('INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [
      name,
    ]);
    ensured.add(name);
  }

  // Reads of the log for the same range share one query while it runs: the projections woken by
  // one append start from the same position together (a command's own read models, then every
  // other by the store's NOTIFY), and a statement import's event holds every row of the file
  // (issue 30 item 11: eleven reads of one 50,000-row event took 6 s each under load). A caller
  // that joins a read sent before an event it heard of committed does not miss it: its catch-up
  // goes round again while the store's newest commit is past what it applied (catch-up.ts).
  const reading = new Map<string, Promise<RecordedEvent[]>>();
  function readAfter(position: string, limit: number): Promise<RecordedEvent[]> {
    const key = `${position}|${limit}`;
    let read = reading.get(key);
    if (!read) {
      read = Promise.resolve()
        .then(() => eventStore.readAll({ after: position === '' ? null : position, limit }))
        .finally(() => reading.delete(key));
      reading.set(key, read);
    }
    return read;
  }

  return {
    db,
    eventStore,
    logger: options.logger,
    watcher: options.watcher,
    get(name) {
      const entry = projections.get(name);
      if (!entry) throw new Error(`Unknown projection ${name}`);
      return entry;
    },
    names: () => [...projections.keys()],
    ensureCheckpoint,
    async readCheckpoint(name) {
      await ensureCheckpoint(name);
      const { rows } = await db.query<Checkpoint>(
        'SELECT position, status FROM projection_checkpoints WHERE name = $1',
        [name],
        { prepared: true },
      );
      const row = rows[0];
      if (!row) throw new Error(`Checkpoint of ${name} vanished`);
      return row;
    },
    readAfter,
  };
}
