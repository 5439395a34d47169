import { eventStoreContract } from './event-store-contract';
import { postgresHarness } from './harnesses';

// Default: one append statement in flight, so concurrent appends go in groups
// (kosh_append_batch) and the whole contract holds for grouped appends (conflicts and retries
// inside a group).
eventStoreContract('PostgreSQL', postgresHarness, { soak: { writers: 16, appendsPerWriter: 80 } });

// Several grouped statements in flight at once: groups that lock streams concurrently.
eventStoreContract(
  'PostgreSQL, 4 append statements in flight',
  () => postgresHarness({ appendConcurrency: 4 }),
  {
    soak: { writers: 16, appendsPerWriter: 80 },
  },
);
