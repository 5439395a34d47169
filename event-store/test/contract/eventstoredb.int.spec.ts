import { createEventStoreDbEventStore } from '../../src/eventstoredb/eventstoredb-event-store';
import { eventStoreContract } from './event-store-contract';

// Needs a server (no container engine runs here). Every test of the suite uses streams under a
// fresh random prefix, so runs against one server do not see each other's streams.
const url = process.env.EVENTSTORE_URL;
if (!url) console.log('EventStoreDB contract suite: skipped, EVENTSTORE_URL not set');

eventStoreContract(
  'EventStoreDB',
  async () => ({
    storesShareData: true,
    createStore: () => createEventStoreDbEventStore({ connection: url! }),
    close: async () => {},
  }),
  { soak: { writers: 8, appendsPerWriter: 40 }, ...(url ? {} : { skip: 'EVENTSTORE_URL not set' }) },
);
