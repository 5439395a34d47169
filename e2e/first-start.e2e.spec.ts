import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function freePort(): string {
  return execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}

test.describe('item 9: first start', () => {
  let server: ChildProcess | undefined;
  const folders: string[] = [];
  test.afterEach(() => {
    // npm runs tsx runs node: end the whole group this test started.
    // Each test ends only the group it started (the next test's afterEach must not signal it
    // again), and a group that has already gone is not an error.
    const pid = server?.pid;
    server = undefined;
    if (pid) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    }
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  test('npm start builds quietly, prints a short banner with the URL last, and serves the app', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const port = freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kosh-first-start-data-'));
    // An empty web folder: this start is a first start, which builds the web app.
    const webDist = mkdtempSync(path.join(tmpdir(), 'kosh-first-start-web-'));
    folders.push(dataDir, webDist);
    let output = '';
    server = spawn('npm', ['start'], {
      cwd: repoRoot,
      env: { ...process.env, PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST: webDist },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    server.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    server.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const url = `http://127.0.0.1:${port}`;
    await expect.poll(() => output, { timeout: 240_000, intervals: [1000] }).toContain(url);
    // Give anything that would print after the banner time to do so.
    await page.waitForTimeout(4000);
    const lines = output.split('\n').filter((line) => line.trim() !== '');
    expect(lines.at(-1), output).toContain(url);
    expect(lines.length, output).toBeLessThanOrEqual(15);
    expect(output).toMatch(/Built the web app in \d+(\.\d+)? s/);
    expect(existsSync(path.join(webDist, 'index.html'))).toBe(true);
    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  });

  test('the README names PORT and DATA_DIR beside the two commands, and its links resolve', () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const quickStart = readme.split('```')[1] ?? '';
    expect(quickStart).toContain('npm start');
    expect(quickStart).toContain('PORT');
    expect(quickStart).toContain('DATA_DIR');
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
    for (const target of targets.filter((t) => !/^[a-z]+:/.test(t) && !t.startsWith('#')))
      expect(existsSync(path.join(repoRoot, target.split('#')[0] as string)), target).toBe(true);
    // Paths named in code spans that point outside the repository are links a clone cannot follow.
    expect(readme).not.toMatch(/`\.\.\//);
    // Every package the lock file installs accepts this Node (no EBADENGINE on `npm install`).
    const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8'));
    const major = Number(process.versions.node.split('.')[0]);
    const refusing = Object.entries(lock.packages as Record<string, { engines?: { node?: string } }>)
      .filter(
        ([, p]) =>
          /^>=\s*(\d+)/.test(p.engines?.node ?? '') &&
          Number(/^>=\s*(\d+)/.exec(p.engines?.node ?? '')?.[1]) > major,
      )
      .map(([name, p]) => `${name} ${p.engines?.node}`);
    expect(refusing).toEqual([]);
  });
});
