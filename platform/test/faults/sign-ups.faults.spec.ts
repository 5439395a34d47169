import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOutbox } from '../../src/dev-mailbox';
import { type Stack, startStack } from './stack';

/**
 * Issue 28, item 5: under a PostgreSQL restart some acknowledged registrations were never stored
 * (registration answered 201 and then did its work). Here sign-ups run against the production
 * shape (one API, one worker, outbox mail) while PostgreSQL is cut (the TCP proxy of stack.ts:
 * every connection cut, new ones refused) for seconds and then briefly again and again. Every
 * 201 must be an account whose mailed link verifies it and whose password then signs in.
 */
const SIGNERS = 4;
const PASSWORD = 'Secret12';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Attempt = { email: string; status: number; envelope: boolean };

async function post(baseUrl: string, url: string, body: unknown) {
  const response = await fetch(`${baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, json };
}

let stack: Stack;

describe('sign-ups during a PostgreSQL cut', () => {
  beforeAll(async () => {
    stack = await startStack({ apis: 1, workers: 1 });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('every 201 is a stored account that can verify and sign in', async () => {
    const api = stack.apis[0];
    if (!api) throw new Error('no API');
    const attempts: Attempt[] = [];
    let running = true;
    const signer = async (n: number) => {
      for (let k = 0; running; k++) {
        const email = `signup.${n}.${k}.${randomUUID().slice(0, 8)}@example.in`;
        try {
          const { status, json } = await post(api.url, '/api/auth/register', {
            first_name: 'Asha',
            last_name: 'Rao',
            email,
            password: PASSWORD,
          });
          attempts.push({ email, status, envelope: status === 201 || json?.success === false });
        } catch {
          attempts.push({ email, status: 0, envelope: false });
        }
        await sleep(50);
      }
    };
    const signers = Array.from({ length: SIGNERS }, (_, n) => signer(n));

    await sleep(2000);
    await stack.proxy.cut();
    await sleep(4000);
    await stack.proxy.restore();
    await sleep(2000);
    for (let i = 0; i < 5; i++) {
      await sleep(400 + Math.random() * 800);
      await stack.proxy.cut();
      await sleep(200 + Math.random() * 600);
      await stack.proxy.restore();
    }
    await sleep(3000);
    running = false;
    await Promise.all(signers);

    const acknowledged = attempts.filter((a) => a.status === 201);
    const refused = attempts.filter((a) => a.status !== 201);
    console.log(
      `sign-ups: ${attempts.length} sent, ${acknowledged.length} acknowledged, ${refused.length} refused (${[
        ...new Set(refused.map((a) => a.status)),
      ].join(', ')})`,
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(SIGNERS);
    // The process lived on; a refusal is the error envelope with a 503 (unavailable, or the
    // append's outcome unknown), never a 500, a 4xx or a bare page.
    expect(api.child?.exitCode).toBeNull();
    expect(refused.filter((a) => a.status !== 503 || !a.envelope)).toEqual([]);

    const notStored: string[] = [];
    for (const { email } of acknowledged) {
      let token: string | null = null;
      const deadline = Date.now() + 60_000;
      while (!token && Date.now() < deadline) {
        const mail = (await listOutbox(stack.database.db, 5000)).find(
          (m) => m.to === email && m.text.includes('/verify-email?'),
        );
        const link = mail?.text.split(/\s+/).find((word) => word.includes('/verify-email?'));
        token = link ? new URL(link).searchParams.get('token') : null;
        if (!token) await sleep(250);
      }
      if (!token) {
        notStored.push(`${email}: no verification mail`);
        continue;
      }
      const verified = await post(api.url, '/api/auth/verify-email', { token });
      if (verified.status !== 200) {
        notStored.push(`${email}: verify ${verified.status}`);
        continue;
      }
      const signedIn = await post(api.url, '/api/auth/login', { email, password: PASSWORD });
      if (signedIn.status !== 200) notStored.push(`${email}: login ${signedIn.status}`);
    }
    expect(notStored).toEqual([]);
  });
});
