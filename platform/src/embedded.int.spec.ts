import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from '@kosh/command-api';
import { waitUntil } from '@kosh/command-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm start` with nothing configured: PGlite in DATA_DIR, in-process queue, outbox mail.
 * Runs the real server process, stops it and starts it again on the same data.
 */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'JWT_SECRET']) delete env[key];
  const child = spawn(process.execPath, ['--import', 'tsx', 'platform/src/server.ts'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  try {
    await waitUntil(
      () => {
        if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
        return fetch(`http://127.0.0.1:${port}/livez`).then(
          (r) => r.ok,
          () => false,
        );
      },
      { timeout: 60_000, interval: 250 },
    );
    return child;
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`server did not start: ${output}`, { cause: error });
  }
}

async function stopServer(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('embedded mode (npm start with nothing configured)', () => {
  let dataDir: string;
  let port: number;
  let server: ChildProcess | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'kosh-embedded-'));
    port = await freePort();
  });
  afterAll(async () => {
    if (server && server.exitCode === null) await stopServer(server);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves /livez and /dev/mailbox, and keeps its data across a restart', async () => {
    const base = `http://127.0.0.1:${port}`;
    server = await startServer(dataDir, port);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);

    const email = `asha.${Date.now()}@example.in`;
    const register = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Asha', last_name: 'Verma', email, password: 'Secret123' }),
    });
    expect(register.status).toBe(201);

    const mailboxPage = await fetch(`${base}/dev/mailbox`);
    expect(mailboxPage.status).toBe(200);
    expect(mailboxPage.headers.get('content-type')).toContain('text/html');
    const waitForMails = (count: number) =>
      waitUntil(
        async () => {
          const mails = (await (await fetch(`${base}/dev/mailbox.json`)).json()) as {
            to: string;
            text: string;
          }[];
          const mine = mails.filter((m) => m.to === email);
          return mine.length >= count && mine;
        },
        { timeout: 20_000, interval: 100 },
      );
    const [mail] = await waitForMails(1);
    expect(mail?.text).toMatch(/verify-email\?token=/);

    // A mail job that a reactor enqueues from inside its batch transaction must still be sent.
    const resend = await fetch(`${base}/api/auth/resend-verification`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(resend.status).toBe(200);
    const [newest, older] = await waitForMails(2);
    expect(newest?.text).toMatch(/verify-email\?token=/);
    expect(newest?.text).not.toBe(older?.text);

    await stopServer(server);
    server = await startServer(dataDir, port);

    const after = (await (await fetch(`${base}/dev/mailbox.json`)).json()) as { to: string }[];
    expect(after.some((m) => m.to === email)).toBe(true);
    const again = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Asha', last_name: 'Verma', email, password: 'Secret123' }),
    });
    // The same answer as for a new address; the owner is told by mail instead.
    expect(again.status).toBe(201);
    const [notice] = await waitForMails(3);
    expect(notice?.text).toContain('Someone tried to register a new Kosh account with your address.');
    // Two cold starts of the whole app (migrations on a fresh PGlite, then a restart): 22 s + 12 s
    // on a quiet run of this machine, more beside other suites.
  }, 180_000);
});
