import { fileURLToPath } from 'node:url';
import type { MigrationSource } from '@kosh/event-store/migrations';
import { auditGrantsProjection } from './audit-grants/projector';
import { catalogProjection } from './catalog/projector';
import { historyProjection } from './history/projector';
import { ledgerProjection } from './ledger/projector';
import { loansProjection } from './loans/projector';
import type { Projection } from './runner/types';
import { schedulesProjection } from './schedules/projector';
import { transactionsProjection } from './transactions/projector';
import { usersProjection } from './users/projector';

/** The projection runner's own tables (checkpoints, dead letters, rebuilds). */
export const runnerMigrations: MigrationSource = {
  scope: 'projection-runner',
  dir: fileURLToPath(new URL('./runner/migrations', import.meta.url)),
};

/**
 * Every read model. Add yours with one line here and one in `migrationSources` below.
 * Order does not matter: each projection has its own checkpoint.
 */
export const allProjections: Projection[] = [
  transactionsProjection,
  ledgerProjection,
  usersProjection,
  catalogProjection,
  loansProjection,
  schedulesProjection,
  historyProjection,
  auditGrantsProjection,
];

/** Migrations of the runner and of every read model, applied after the event store's. */
export const migrationSources: MigrationSource[] = [
  runnerMigrations,
  { scope: 'users', dir: fileURLToPath(new URL('./users/migrations', import.meta.url)) },
  { scope: 'transactions', dir: fileURLToPath(new URL('./transactions/migrations', import.meta.url)) },
  { scope: 'ledger', dir: fileURLToPath(new URL('./ledger/migrations', import.meta.url)) },
  { scope: 'catalog', dir: fileURLToPath(new URL('./catalog/migrations', import.meta.url)) },
  { scope: 'loans', dir: fileURLToPath(new URL('./loans/migrations', import.meta.url)) },
  { scope: 'schedules', dir: fileURLToPath(new URL('./schedules/migrations', import.meta.url)) },
  { scope: 'history', dir: fileURLToPath(new URL('./history/migrations', import.meta.url)) },
  { scope: 'audit-grants', dir: fileURLToPath(new URL('./audit-grants/migrations', import.meta.url)) },
];
