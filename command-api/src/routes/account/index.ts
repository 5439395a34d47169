import type { FastifyInstance } from 'fastify';
import { erasureRoutes } from './erasure';
import { accountExportRoutes } from './export';

/** Issue 32: your data out (`GET /api/account/export`) and your account erased (`DELETE /api/account`). */
export async function ownAccountRoutes(app: FastifyInstance) {
  await app.register(erasureRoutes);
  await app.register(accountExportRoutes);
}
