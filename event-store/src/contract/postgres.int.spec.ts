import { eventStoreContract } from './event-store-contract';
import { postgresHarness } from './harnesses';

eventStoreContract('PostgreSQL', postgresHarness, { soak: { writers: 16, appendsPerWriter: 80 } });

// One append statement in flight: concurrent appends always go in groups (kosh_append_many),
// so the whole contract also holds for grouped appends (conflicts and retries inside a group).
eventStoreContract('PostgreSQL, grouped appends', () => postgresHarness({ appendConcurrency: 1 }), {
  soak: { writers: 16, appendsPerWriter: 80 },
});
