/** @kosh/event-store test support: what the other packages import from it. */
export { createTestDatabase, type TestDatabase } from './test-database';
