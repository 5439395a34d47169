import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '@kosh/command-api';
import { startServer } from './server';

/** Total size and count of the files under `folder`. */
function sizeOf(folder: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

/**
 * Builds the web app into `webDist` quietly (vite's warnings and errors only), then says in one
 * line what it built; on failure, vite's output is shown in full.
 */
function buildWeb(webDist: string): void {
  console.log('First start: building the web app (about a minute)…');
  const started = Date.now();
  const build = spawnSync(
    'npx',
    ['vite', 'build', '--outDir', webDist, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: path.join(repoRoot, 'web'), encoding: 'utf8' },
  );
  if (build.status !== 0) {
    process.stdout.write(build.stdout ?? '');
    process.stderr.write(build.stderr ?? '');
    console.error('The web app did not build; the API starts without it.');
    return;
  }
  const { files, bytes } = sizeOf(webDist);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`Built the web app in ${seconds} s: ${files} files, ${(bytes / 1024 / 1024).toFixed(1)} MB.`);
}

/**
 * `npm start`: on a first start the web app is not built yet, so build it, then serve
 * everything (API, workers, web) from one process. `WEB_DIST` moves the built app elsewhere
 * (default web/dist).
 */
const webDist = path.resolve(process.env.WEB_DIST || path.join(repoRoot, 'web', 'dist'));
if (!existsSync(path.join(webDist, 'index.html'))) buildWeb(webDist);
await startServer({ webDist });
