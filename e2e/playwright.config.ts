import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A port nobody listens on now; several engineers may run e2e on this machine at once. */
function freePort(): string {
  return execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}

// Workers re-read this file; the environment carries the main process's choices to them.
process.env.KOSH_E2E_PORT ??= process.env.E2E_PORT ?? freePort();
process.env.KOSH_E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'kosh-e2e-'));
const port = process.env.KOSH_E2E_PORT;
const baseURL = `http://127.0.0.1:${port}`;

/**
 * Debian's Chromium (never `playwright install`): headless, without the sandbox and the GPU
 * (neither exists in this container), and without QUIC, first-run screens and the background
 * traffic (updates, sync, component downloads) that would reach past the app under test.
 */
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.spec.ts',
  // Per run: a teammate's run cleans its own folder, not this one's.
  outputDir: `test-results/port-${port}`,
  // Two browsers against the one server: the specs wait on the server and on animations far more
  // than they compute, so two workers take 16 min where one took 22+ on this 2-core machine.
  // E2E_WORKERS=1 when the machine is shared.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    // The embedded app, as `npm start` runs it, on a fresh data folder, with the web app built
    // now into this run's own folder (see support/serve-app.ts).
    command: 'npx tsx e2e/support/serve-app.ts',
    cwd: repoRoot,
    url: `${baseURL}/livez`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: process.env.KOSH_E2E_DATA_DIR,
      APP_URL: baseURL,
      LOG_LEVEL: 'warn',
      // The whole suite is one client address against one server for about ten minutes: more
      // sign-ups than the per-address hourly limit (50) allows. The limits themselves are
      // tested in the integration suite (auth-inputs, audit-grant-limit).
      RATE_LIMIT_ENABLED: 'false',
    },
  },
});
