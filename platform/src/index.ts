/** @kosh/platform: what the other packages import from it. */

/** Issue 32: account erasure, run by the `erasure:due` job (tests and operators call it too). */
export { eraseAccount, eraseDueAccounts, subjectHashOf } from '@kosh/workers';
export { loadConfig } from './config';
export { listOutbox } from './dev-mailbox';
export { buildHttpApp } from './http-app';
export type { Logger } from './logger';
export { createRuntime, type Runtime } from './runtime';
