import closeWithGrace from 'close-with-grace';
import { loadConfigOrExit, roleOf } from './config';
import { buildHttpApp } from './http-app';
import { createRuntime } from './runtime';

/** The only file that listens: builds the platform and the app, serves, and shuts down cleanly. */
export async function startServer(options: { webDist?: string } = {}) {
  const config = loadConfigOrExit();
  const role = roleOf(config, 'api');
  if (role === 'worker') {
    console.error('KOSH_ROLE=worker serves no HTTP: start it with `npm run workers`.');
    process.exit(1);
  }
  const platform = await createRuntime(config, { role });
  const app = await buildHttpApp(platform, { webDist: options.webDist });

  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await platform.close();
  });

  await app.listen({ port: config.PORT, host: config.HOST });
  const url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${app.server.address() && typeof app.server.address() === 'object' ? (app.server.address() as { port: number }).port : config.PORT}`;
  const mail = config.devMailbox ? `mail at ${url}/dev/mailbox` : 'no dev mailbox: HOST is not loopback';
  const mode = config.embedded ? `embedded (data in ${config.DATA_DIR}; ${mail})` : 'PostgreSQL';
  console.log(`\n  Kosh is running at ${url}  —  ${mode}\n`);
  return { app, platform };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await startServer();
}
