/**
 * The embedded app for the browser tests: what `npm start` runs (API, workers and web in one
 * process, PGlite in DATA_DIR), except that the web app is built into a folder of this run's
 * own. Teammates rebuild web/dist while tests run, and a server whose files change under it
 * serves a broken app.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildHttpApp, createRuntime, loadConfig } from '@kosh/platform';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const webDist = mkdtempSync(path.join(tmpdir(), 'kosh-e2e-web-'));

const build = spawnSync(
  'npx',
  ['vite', 'build', '--outDir', webDist, '--emptyOutDir', '--logLevel', 'warn'],
  {
    cwd: path.join(repoRoot, 'web'),
    stdio: 'inherit',
  },
);
if (build.status !== 0) {
  console.error('The web app did not build.');
  process.exit(1);
}

const config = loadConfig();
const platform = await createRuntime(config);
const app = await buildHttpApp(platform, { webDist });

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  await app.close();
  await platform.close();
  rmSync(webDist, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

await app.listen({ port: config.PORT, host: config.HOST });
console.log(`Kosh (e2e) at http://${config.HOST}:${config.PORT} serving ${webDist}`);
