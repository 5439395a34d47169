/** @kosh/platform: what the other packages import from it. */
export { loadConfig } from './config';
export { listOutbox } from './dev-mailbox';
export { buildHttpApp } from './http-app';
export type { Logger } from './logger';
export { createRuntime, type Runtime } from './runtime';
