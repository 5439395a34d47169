import type { FastifyInstance } from 'fastify';
import { ownAccountRoutes } from './account/index';
import { accountRoutes } from './accounts/index';
import { auditGrantRoutes } from './audit-grants/index';
import { authRoutes } from './auth/index';
import { bankRoutes } from './banks/index';
import { budgetRoutes } from './budgets/index';
import { categoryRoutes } from './categories/index';
import { historyRoutes } from './history/index';
import { importRoutes } from './imports/index';
import { ledgerRoutes } from './ledger/index';
import { loanRoutes } from './loans/index';
import { notificationRoutes, unsubscribeRoutes } from './notifications/index';
import { recurringRoutes } from './recurring/index';
import { cashFlowRoutes } from './reports/cash-flow';
import { reportRoutes } from './reports/index';
import { ruleRoutes } from './rules/index';
import { transactionRoutes } from './transactions/index';
import { transferRoutes } from './transfers/index';

/** Every `/api` resource, each an encapsulated plugin under its prefix. */
export async function apiRoutes(app: FastifyInstance) {
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(transactionRoutes, { prefix: '/transactions' });
  await app.register(ledgerRoutes, { prefix: '/ledger' });
  await app.register(loanRoutes, { prefix: '/loans' });
  await app.register(bankRoutes, { prefix: '/banks' });
  await app.register(historyRoutes);
  await app.register(auditGrantRoutes, { prefix: '/audit-grants' });
  await app.register(accountRoutes, { prefix: '/accounts' });
  await app.register(transferRoutes, { prefix: '/transfers' });
  await app.register(importRoutes, { prefix: '/imports' });
  await app.register(ownAccountRoutes, { prefix: '/account' });
  await app.register(recurringRoutes, { prefix: '/recurring' });
  await app.register(notificationRoutes, { prefix: '/profile/notifications' });
  await app.register(unsubscribeRoutes, { prefix: '/unsubscribe' });
  await app.register(cashFlowRoutes, { prefix: '/reports' });
  await app.register(reportRoutes, { prefix: '/reports' });
  await app.register(categoryRoutes, { prefix: '/categories' });
  await app.register(budgetRoutes, { prefix: '/budgets' });
  await app.register(ruleRoutes, { prefix: '/rules' });
}
