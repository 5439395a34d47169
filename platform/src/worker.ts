import closeWithGrace from 'close-with-grace';
import { loadConfigOrExit, roleOf } from './config';
import { createRuntime } from './runtime';

/**
 * The worker process of a production deployment (`npm run workers`): projections, mail and
 * rebuild jobs from BullMQ, woken by NOTIFY as well, no HTTP. Embedded mode runs the same
 * processors inside the API. Start as many as you like: the runner's advisory locks keep one
 * applier per projection.
 */
const config = loadConfigOrExit();
if (!config.REDIS_URL) {
  console.error('The worker process needs REDIS_URL; embedded mode runs workers inside `npm start`.');
  process.exit(1);
}
const role = roleOf(config, 'worker');
if (role === 'api') {
  console.error('KOSH_ROLE=api runs no jobs: start the API with `npm start`.');
  process.exit(1);
}
const platform = await createRuntime(config, { role });
platform.logger.info({ role, pid: process.pid }, 'Kosh workers are running');
closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
  if (err) platform.logger.error({ err }, 'shutting down after an error');
  else platform.logger.info({ signal }, 'shutting down');
  await platform.close();
});
