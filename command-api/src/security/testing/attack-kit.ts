import { randomBytes } from 'node:crypto';
import { listOutbox } from '@kosh/platform';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { tokenFromLink } from '../../routes/auth/testing/fixtures';
import type { TestApp } from '../../testing/test-app';
import { waitUntil } from '../../testing/wait-until';

export const MODES = ['postgres', 'embedded'] as const;

/** Events in the log: an attack that is refused must leave this number as it was. */
export async function eventCount(t: TestApp): Promise<number> {
  // Work an earlier answer handed off (a sign-up's account) must not count against this request.
  await t.app.afterAnswerSettled();
  const { rows } = await t.platform.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
  return rows[0]?.n ?? 0;
}

/** The error envelope of ARCHITECTURE.md with the given status. */
export function expectEnvelope(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json();
  expect(body).toMatchObject({
    success: false,
    message: expect.any(String),
    errorCode: expect.any(String),
    errors: expect.any(Array),
    timestamp: expect.any(String),
  });
  return body as { message: string; errorCode: string; errors: { field: string; message: string }[] };
}

/** A real, verified account (register → outbox mail → verify), and its session token. */
export async function signUp(t: TestApp): Promise<{ userId: string; email: string; token: string }> {
  const email = `mallory.${randomBytes(4).toString('hex')}@example.in`;
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { first_name: 'Mallory', last_name: 'Tester', email, password: 'Secret12' },
  });
  expect(registered.statusCode, registered.body).toBe(201);
  const text = await waitUntil(
    async () => (await listOutbox(t.platform.db)).find((m) => m.to.includes(email))?.text,
    { timeout: 20_000, interval: 50 },
  );
  const verified = await t.app.inject({
    method: 'POST',
    url: '/api/auth/verify-email',
    payload: { token: tokenFromLink(text, '/verify-email') },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  const { user, token } = verified.json().data;
  return { userId: user.id, email, token };
}
