/** @kosh/command-api test support: what the other packages import from it. */
export { accountInput, loanInput, userFixture } from './fixtures';
export { createTestApp, fixtureSessionId, registeredUserEvents, signUp, type TestApp } from './test-app';
export { waitUntil } from './wait-until';
