import { randomUUID } from 'node:crypto';
import { emailStreamId, userStreamId } from '@kosh/domain';
import { listOutbox } from '@kosh/platform';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loanInput } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { waitUntil } from '../../testing/wait-until';
import { sha256Hex } from './secrets';
import { bearer, register, tokenFromLink } from './testing/fixtures';

/**
 * Issue 28, items 4 and 5: a session ends when the user logs out, and a registration is stored
 * before it is acknowledged (real PostgreSQL, in-process queue, outbox mail).
 */
describe('sessions end when the user says so; a sign-up is stored before its 201', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const inject = (options: InjectOptions) => t.app.inject(options);
  const signUp = (email: string, password = 'Secret12') =>
    register(t.app, { first_name: 'Asha', last_name: 'Rao', email, password });
  const login = (email: string, password = 'Secret12') =>
    inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

  async function verifiedUser() {
    const email = `user.${randomUUID()}@example.in`;
    expect((await signUp(email)).statusCode).toBe(201);
    const token = await waitUntil(async () => {
      const mail = (await listOutbox(t.platform.db)).find(
        (m) => m.to === email && m.text.includes('/verify-email'),
      );
      return mail && tokenFromLink(mail.text, '/verify-email');
    });
    const verified = await inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
    expect(verified.statusCode).toBe(200);
    return { email, token: verified.json().data.token as string };
  }

  describe('POST /api/auth/logout', () => {
    it('makes the token 401 on every route at once, and a new sign-in works', async () => {
      const { email, token } = await verifiedUser();
      const headers = bearer(token);
      expect((await inject({ method: 'GET', url: '/api/auth/profile', headers })).statusCode).toBe(200);
      // The spending report reads its rows with the token check's tags (a read-ahead): so it did.
      const spending = await inject({ method: 'GET', url: '/api/reports/spending', headers });
      expect(spending.statusCode).toBe(200);

      const out = await inject({ method: 'POST', url: '/api/auth/logout', headers });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toMatchObject({ success: true, message: 'Logged out successfully' });

      const after: InjectOptions[] = [
        { method: 'GET', url: '/api/auth/profile' },
        { method: 'GET', url: '/api/loans' },
        { method: 'GET', url: '/api/loans/stats' },
        { method: 'GET', url: '/api/transactions' },
        { method: 'GET', url: '/api/ledger' },
        { method: 'GET', url: '/api/history' },
        { method: 'GET', url: '/api/reports/spending' },
        { method: 'GET', url: '/api/reports/spending?fy=2026' },
        { method: 'POST', url: '/api/loans', payload: loanInput() },
        {
          method: 'POST',
          url: '/api/transactions',
          payload: { notes: 'Rent', transaction_type: 'D', transaction_date: '2026-11-01', amount: 100 },
        },
        { method: 'PUT', url: '/api/auth/profile', payload: { first_name: 'Eve', last_name: 'X', email } },
        { method: 'POST', url: '/api/auth/logout' },
      ];
      for (const request of after) {
        const answer = await inject({ ...request, headers });
        expect(answer.statusCode, `${request.method} ${request.url}`).toBe(401);
        expect(answer.json()).toMatchObject({ success: false });
        expect(answer.json().data, `${request.method} ${request.url}`).toBeUndefined();
      }

      const again = await login(email);
      expect(again.statusCode).toBe(200);
      const fresh = bearer(again.json().data.token);
      const profile = await inject({ method: 'GET', url: '/api/auth/profile', headers: fresh });
      expect(profile.statusCode).toBe(200);
      expect(profile.json().data.user.first_name).toBe('Asha');
    });

    it('needs a session: 401 without a token', async () => {
      const answer = await inject({ method: 'POST', url: '/api/auth/logout' });
      expect(answer.statusCode).toBe(401);
    });

    it('shows the sign-out on the owner timeline', async () => {
      const { email, token } = await verifiedUser();
      await inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
      const fresh = bearer((await login(email)).json().data.token);
      const entries = await waitUntil(async () => {
        const answer = await inject({ method: 'GET', url: '/api/history', headers: fresh });
        const page = answer.json().data.entries as { type: string; summary: string }[];
        return page.some((e) => e.type === 'SessionEnded') && page;
      });
      // Issue 32: a logout ends its own session (SessionEnded, signed out), not every token.
      expect(entries.filter((e) => e.type === 'SessionEnded').map((e) => e.summary)).toEqual(['Signed out']);
    });
  });

  describe('POST /api/auth/register', () => {
    it('has stored the account when it answers 201: signing in at once asks to verify', async () => {
      const email = `now.${randomUUID()}@example.in`;
      const answer = await signUp(email);
      expect(answer.statusCode).toBe(201);
      // Read straight from the log, before anything after the answer could have run.
      const reservation = await t.platform.eventStore.readStream(emailStreamId(email, sha256Hex));
      expect(reservation.events.map((e) => e.type)).toEqual(['EmailReserved']);
      const userId = (reservation.events[0]!.data as { userId: string }).userId;
      const user = await t.platform.eventStore.readStream(userStreamId(userId));
      expect(user.events.map((e) => e.type)).toEqual(['UserRegistered', 'EmailVerificationRequested']);

      const signIn = await login(email);
      expect(signIn.statusCode).toBe(403);
      expect(signIn.json().message).toBe('Please verify your email address before logging in');
    });

    it('has told the owner of a taken address when it answers 201', async () => {
      const { email } = await verifiedUser();
      const reservation = await t.platform.eventStore.readStream(emailStreamId(email, sha256Hex));
      const ownerId = (reservation.events[0]!.data as { userId: string }).userId;
      const answer = await signUp(email, 'Other123');
      expect(answer.statusCode).toBe(201);
      const owner = await t.platform.eventStore.readStream(userStreamId(ownerId));
      expect(owner.events.map((e) => e.type)).toContain('EmailClaimAttempted');
      // The owner's password still signs in; the claimant's does not.
      expect((await login(email)).statusCode).toBe(200);
      expect((await login(email, 'Other123')).statusCode).toBe(401);
    });

    it('completes a registration that stopped between its two appends when it is sent again', async () => {
      const email = `half.${randomUUID()}@example.in`;
      const stalledId = randomUUID();
      // What a process killed after the reservation and before the account leaves in the log.
      await t.platform.eventStore.appendToStream(
        emailStreamId(email, sha256Hex),
        [
          {
            id: randomUUID(),
            type: 'EmailReserved',
            data: { email, userId: stalledId, reservedAt: new Date().toISOString() },
            metadata: {
              userId: stalledId,
              correlationId: randomUUID(),
              causationId: null,
              recordedAt: new Date().toISOString(),
              schemaVersion: 1,
            },
          },
        ],
        { expectedVersion: 'no_stream' },
      );
      const answer = await signUp(email);
      expect(answer.statusCode).toBe(201);
      const user = await t.platform.eventStore.readStream(userStreamId(stalledId));
      expect(user.events.map((e) => e.type)).toEqual(['UserRegistered', 'EmailVerificationRequested']);
      expect((await login(email)).statusCode).toBe(403);
    });
  });
});
