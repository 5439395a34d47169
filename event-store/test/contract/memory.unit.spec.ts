import { createInMemoryEventStore } from '../../src/in-memory-event-store';
import { eventStoreContract } from './event-store-contract';

eventStoreContract(
  'in-memory',
  async () => ({
    storesShareData: false,
    createStore: () => createInMemoryEventStore(),
    close: async () => {},
  }),
  { soak: { writers: 8, appendsPerWriter: 40 } },
);
