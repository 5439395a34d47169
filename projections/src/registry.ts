import { fileURLToPath } from 'node:url';
import type { MigrationSource } from '@kosh/event-store';
import { accountsProjection } from './accounts/projector';
import { auditGrantsProjection } from './audit-grants/projector';
import { budgetsProjection } from './budgets/projector';
import { catalogProjection } from './catalog/projector';
import { categoriesProjection } from './categories/projector';
import { erasuresProjection } from './erasures/projector';
import { historyProjection } from './history/projector';
import { importsProjection } from './imports/projector';
import { ledgerProjection } from './ledger/projector';
import { loansProjection } from './loans/projector';
import { notificationsProjection } from './notifications/projector';
import { recurringProjection } from './recurring/projector';
import { rulesProjection } from './rules/projector';
import type { ReadModel } from './runner/define';
import { schedulesProjection } from './schedules/projector';
import { sessionsProjection } from './sessions/projector';
import { transactionsProjection } from './transactions/projector';
import { usersProjection } from './users/projector';

/** The projection runner's own tables (checkpoints, dead letters, rebuilds). */
export const runnerMigrations: MigrationSource = {
  scope: 'projection-runner',
  dir: fileURLToPath(new URL('./runner/migrations', import.meta.url)),
};

/** The preview store of statement imports (issue 30): written by the API, not a read model. */
export const importPreviewMigrations: MigrationSource = {
  scope: 'import-previews',
  dir: fileURLToPath(new URL('./imports/preview-migrations', import.meta.url)),
};

/** When each session was last seen (issue 32): written by the API, not a read model. */
export const sessionActivityMigrations: MigrationSource = {
  scope: 'session-activity',
  dir: fileURLToPath(new URL('./sessions/activity-migrations', import.meta.url)),
};

/**
 * Every read model; each brings its own migrations. Add yours with one line here.
 * Order does not matter: each projection has its own checkpoint and its own tables.
 */
export const allProjections: readonly ReadModel[] = [
  transactionsProjection,
  ledgerProjection,
  usersProjection,
  catalogProjection,
  loansProjection,
  schedulesProjection,
  historyProjection,
  auditGrantsProjection,
  accountsProjection,
  importsProjection,
  erasuresProjection,
  sessionsProjection,
  recurringProjection,
  notificationsProjection,
  categoriesProjection,
  budgetsProjection,
  rulesProjection,
];

/** Migrations of the runner and of every read model, applied after the event store's. */
export const migrationSources: MigrationSource[] = [
  runnerMigrations,
  ...allProjections.map((p) => p.migrations),
  importPreviewMigrations,
  sessionActivityMigrations,
];
