import { fileURLToPath } from 'node:url';
import type {
  AccountEvent,
  AuditEvent,
  BudgetEvent,
  CatalogEvent,
  CategoryEvent,
  EmailReservationEvent,
  ErasureEvent,
  ImportEvent,
  LoanStreamEvent,
  NotificationEvent,
  RecordedEvent,
  RecurringEvent,
  RuleEvent,
  TransactionEvent,
  TransferEvent,
  UserEvent,
} from '@kosh/domain';
import type { MigrationSource, Queryable } from '@kosh/event-store';
import type { Projection } from './types';

/** Every event the log holds. */
export type LogEvent =
  | UserEvent
  | EmailReservationEvent
  | ErasureEvent
  | LoanStreamEvent
  | TransactionEvent
  | CatalogEvent
  | AuditEvent
  | AccountEvent
  | TransferEvent
  | ImportEvent
  | RecurringEvent
  | NotificationEvent
  | CategoryEvent
  | RuleEvent
  | BudgetEvent;

/** The recorded events of the given types. */
export type EventOfType<T extends string> = RecordedEvent<Extract<LogEvent, { type: T }>>;

/** A product read model: a projection that also brings the migrations of its tables. */
export interface ReadModel extends Projection {
  /** Its migrations folder, recorded under the projection's name. */
  readonly migrations: MigrationSource;
}

export type ProjectionDefinition<T extends string, E extends RecordedEvent> = {
  name: string;
  /** Event types it reads; `apply` sees only these, typed. */
  handles: readonly T[];
  /** Tables it owns (rebuilt and swapped together). */
  tables: readonly string[];
  /** Its migrations folder: `new URL('./migrations', import.meta.url)`. */
  migrations: URL;
  /** Applies a batch inside the runner's transaction. Must be idempotent per event. */
  apply(tx: Queryable, events: readonly NoInfer<E>[]): Promise<void>;
  /** Default true (types.ts `asyncCommit`); false where even a moment's loss after a crash matters. */
  asyncCommit?: boolean;
  /** Indexes a rebuild builds after its replay (types.ts `deferredIndexes`). */
  deferredIndexes?: readonly string[];
  /** A rebuild's bulk path (types.ts `bulk`); `apply` sees only the handled events. */
  bulk?: {
    apply(tx: Queryable, events: readonly NoInfer<E>[]): Promise<void>;
    finish(tx: Queryable): Promise<void>;
  };
};

/**
 * A read model whose `apply` gets only the events it handles, typed by their `type`: whoever
 * calls it (the runner, the as-of replay, a test) may pass the whole log.
 */
export function defineProjection<const T extends string, E extends RecordedEvent = EventOfType<T>>(
  definition: ProjectionDefinition<T, E>,
): ReadModel {
  const handled = new Set<string>(definition.handles);
  // The store records an event under its own type, so the type names the event's shape.
  const isHandled = (event: RecordedEvent): event is E => handled.has(event.type);
  return {
    name: definition.name,
    handles: definition.handles,
    tables: definition.tables,
    migrations: { scope: definition.name, dir: fileURLToPath(definition.migrations) },
    // A read model is rows derived from the log: a batch lost in a crash is applied again.
    asyncCommit: definition.asyncCommit ?? true,
    deferredIndexes: definition.deferredIndexes ?? [],
    async apply(tx, events) {
      const mine = events.filter(isHandled);
      if (mine.length > 0) await definition.apply(tx, mine);
    },
    ...(definition.bulk && {
      bulk: {
        async apply(tx, events) {
          const mine = events.filter(isHandled);
          if (mine.length > 0) await definition.bulk?.apply(tx, mine);
        },
        finish: definition.bulk.finish,
      },
    }),
  };
}
