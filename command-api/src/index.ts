/** @kosh/command-api: what the other packages import from it. */
export { type AppOptions, buildApp } from './app';
export { seedCatalog } from './commands/seed-catalog';
export { resetTwoFactor, type TwoFactorResetOutcome } from './operator/reset-two-factor';
export { type Platform, repoRoot } from './platform';
export { CONTENT_SECURITY_POLICY } from './plugins/security-headers';
