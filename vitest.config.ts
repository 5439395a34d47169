import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{domain,event-store,projections,command-api,workers,web}/src/**/*.unit.spec.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'int',
          include: ['{event-store,projections,command-api,workers}/src/**/*.int.spec.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
