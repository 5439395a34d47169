import { bankStreamId, catalogSeedEvents, loanTypeStreamId } from '@kosh/domain';
import { ConcurrencyError, type EventStore } from '@kosh/event-store';

/**
 * Appends the seeded banks and loan types (domain/src/catalog/seed.ts). Every event has a fixed
 * id, so running this again at every start is a no-op. Returns the position of the last seed
 * event appended or found (null if none), so a caller can wait for the catalog projection.
 */
export async function seedCatalog(eventStore: EventStore, now: Date): Promise<string | null> {
  const recordedAt = now.toISOString();
  let position: string | null = null;
  for (const { eventId, event } of catalogSeedEvents(recordedAt)) {
    const streamId =
      event.type === 'BankAdded' ? bankStreamId(event.data.bankId) : loanTypeStreamId(event.data.loanTypeId);
    try {
      const result = await eventStore.appendToStream(
        streamId,
        [
          {
            id: eventId,
            type: event.type,
            data: event.data,
            metadata: {
              userId: null,
              correlationId: 'catalog-seed',
              causationId: null,
              recordedAt,
              schemaVersion: 1,
            },
          },
        ],
        { expectedVersion: 'no_stream' },
      );
      position = result.position;
    } catch (error) {
      // Another process seeded this entry at the same moment: the entry exists, which is all we need.
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
  return position;
}
