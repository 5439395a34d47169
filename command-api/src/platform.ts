import path from 'node:path';

export type { Config } from '@kosh/workers/config';
export type { Platform } from '@kosh/workers/runtime';

export const repoRoot = path.resolve(new URL('.', import.meta.url).pathname, '../..');
