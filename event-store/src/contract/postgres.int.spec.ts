import { eventStoreContract } from './event-store-contract';
import { postgresHarness } from './harnesses';

eventStoreContract('PostgreSQL', postgresHarness, { soak: { writers: 16, appendsPerWriter: 80 } });
