import { eventStoreContract } from './event-store-contract';
import { pgliteHarness } from './harnesses';

eventStoreContract('PGlite', pgliteHarness, { soak: { writers: 8, appendsPerWriter: 40 } });
