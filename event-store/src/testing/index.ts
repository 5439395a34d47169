/** @kosh/event-store test support: what the other packages import from it. */

export { newTestEvent } from './events';
export { createTestDatabase, type TestDatabase } from './test-database';
