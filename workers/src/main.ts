import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config';
import { createPlatform } from './runtime';

/**
 * The worker process of a production deployment (`tsx workers/src/main.ts`): projections, mail
 * and rebuild jobs from BullMQ, no HTTP. Embedded mode runs the same processors inside the API.
 */
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
if (!config.REDIS_URL) {
  console.error('The worker process needs REDIS_URL; embedded mode runs workers inside `npm start`.');
  process.exit(1);
}
const platform = await createPlatform(config, { runWorkers: true });
console.log('Kosh workers are running.');
closeWithGrace({ delay: 10_000 }, async () => {
  await platform.close();
});
