/** @kosh/command-api test support: what the other packages import from it. */
export { loanInput, userFixture } from './fixtures';
export { createTestApp, registeredUserEvents, signUp, type TestApp } from './test-app';
export { waitUntil } from './wait-until';
