import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './platform';
import { startServer } from './server';

/**
 * `npm start`: on a first start the web app is not built yet, so build it, then serve
 * everything (API, workers, web) from one process.
 */
const webIndex = path.join(repoRoot, 'web', 'dist', 'index.html');
if (!existsSync(webIndex)) {
  console.log('Building the web app (first start only)…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('The web app did not build; the API starts without it.');
  }
}
await startServer();
