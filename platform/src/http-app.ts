import { type AppOptions, buildApp } from '@kosh/command-api';
import type { FastifyInstance } from 'fastify';
import { devMailboxRoutes } from './dev-mailbox';
import type { Runtime } from './runtime';

/**
 * The HTTP app as this process serves it: command-api's app, plus the local outbox at
 * /dev/mailbox where the configuration allows it (embedded mode on loopback). The mailbox
 * reads the mail worker's outbox, which the API itself knows nothing of.
 */
export async function buildHttpApp(platform: Runtime, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = await buildApp(platform, options);
  if (platform.config.devMailbox) await app.register(devMailboxRoutes);
  return app;
}
