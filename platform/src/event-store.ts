import type { Db, EventStore } from '@kosh/event-store';
import { createPostgresEventStore } from '@kosh/event-store';

/**
 * The event log: EventStoreDB when EVENTSTORE_URL is set, else PostgreSQL (or PGlite) in `db`,
 * which holds the read models either way. `eventTypes` (what the projections handle) limits
 * the EventStoreDB subscription that wakes them. The EventStoreDB client (with its native
 * bridge) is loaded only then, so the other shapes never depend on it.
 */
export async function createEventStore(
  settings: { EVENTSTORE_URL?: string | undefined },
  db: Db,
  eventTypes?: readonly string[],
): Promise<EventStore> {
  if (settings.EVENTSTORE_URL) {
    const { createEventStoreDbEventStore } = await import('@kosh/event-store/eventstoredb');
    return createEventStoreDbEventStore({
      connection: settings.EVENTSTORE_URL,
      ...(eventTypes ? { eventTypes } : {}),
    });
  }
  return createPostgresEventStore(db);
}
