import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            '{contract,domain,event-store,projections,command-api,workers,platform,web}/{src,test,build}/**/*.unit.spec.{ts,tsx}',
          ],
        },
      },
      {
        test: {
          name: 'int',
          include: ['{event-store,projections,command-api,workers,platform}/{src,test}/**/*.int.spec.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Child processes of the whole stack under faults: one file at a time, alone.
        test: {
          name: 'faults',
          include: ['platform/test/faults/**/*.faults.spec.ts'],
          testTimeout: 300_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
