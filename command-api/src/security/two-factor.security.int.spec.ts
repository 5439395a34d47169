import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LOCKOUT } from '../routes/auth/lockout';
import { bearer } from '../routes/auth/testing/fixtures';
import { CHROME_WINDOWS, sessionIdOf, twoFactorKit } from '../routes/auth/testing/two-factor';
import { totpCode } from '../routes/auth/two-factor-codes';
import { testClock } from '../testing/clock';
import { createTestApp, type TestApp } from '../testing/test-app';
import { eventCount, expectEnvelope, MODES, signUp } from './testing/attack-kit';

/**
 * Issue 32, item 5: attacks on two-factor sign-in and sessions, over PostgreSQL and embedded.
 * Every refused attempt must leave the log as it was.
 */
describe.each(MODES)('attacks on two-factor sign-in and sessions (%s)', (mode) => {
  let t: TestApp;
  const clock = testClock(new Date().toISOString());
  let kit: ReturnType<typeof twoFactorKit>;

  beforeAll(async () => {
    t = await createTestApp({ mode, clock, env: { RATE_LIMIT_ENABLED: 'true' } });
    kit = twoFactorKit(t, clock);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function enrolledUser() {
    const user = await signUp(t);
    return { ...user, ...(await kit.enrol(user.token)) };
  }

  describe('TOTP replay', () => {
    it('refuses a code already used, in its own window and with a new pending token', async () => {
      const { email, secret } = await enrolledUser();
      const code = kit.freshCode(secret);
      expect(await kit.profileStatus(await kit.signIn(email, code))).toBe(200);
      const pending = await kit.pendingToken(email);
      const before = await eventCount(t);
      const replay = await kit.secondStep(pending, code);
      expect(expectEnvelope(replay, 401).message).toBe('Invalid authentication code');
      // The code of the step before (still inside the ±1 window) is older than the one used.
      const older = await kit.secondStep(pending, totpCode(secret, new Date(clock().getTime() - 30_000)));
      expectEnvelope(older, 401);
      expect(await eventCount(t)).toBe(before);
      // The next step's code works.
      const next = await kit.secondStep(pending, kit.freshCode(secret));
      expect(next.statusCode, next.body).toBe(200);
    });

    it('lets only one of two parallel sign-ins with the same code through', async () => {
      const { email, secret } = await enrolledUser();
      const pendings = [await kit.pendingToken(email), await kit.pendingToken(email)];
      const code = kit.freshCode(secret);
      const answers = await Promise.all(pendings.map((p) => kit.secondStep(p, code)));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    });
  });

  describe('brute force', () => {
    it(`locks a client out of the code after ${LOGIN_LOCKOUT.perAddressAndAccount} wrong ones, right code or not`, async () => {
      const { email, secret } = await enrolledUser();
      const pending = await kit.pendingToken(email);
      const attacker = '203.0.113.66';
      const before = await eventCount(t);
      for (let i = 0; i < LOGIN_LOCKOUT.perAddressAndAccount; i++) {
        const wrong = String((Number(totpCode(secret, clock())) + 500_000 + i) % 1_000_000).padStart(6, '0');
        expectEnvelope(await kit.secondStep(pending, wrong, CHROME_WINDOWS, attacker), 401);
      }
      const locked = await kit.secondStep(pending, kit.freshCode(secret), CHROME_WINDOWS, attacker);
      expect(expectEnvelope(locked, 429).message).toBe('Too many requests. Please try again later.');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect(await eventCount(t)).toBe(before);
      // The owner elsewhere is not locked out by the stranger's guesses.
      const owner = await kit.secondStep(pending, kit.freshCode(secret), CHROME_WINDOWS, '192.0.2.10');
      expect(owner.statusCode, owner.body).toBe(200);
    });

    it('counts wrong codes at disable like sign-in codes', async () => {
      const { token, secret } = await enrolledUser();
      const attempts = [];
      for (let i = 0; i <= LOGIN_LOCKOUT.perAddressAndAccount; i++) {
        attempts.push(
          await kit.inject({
            method: 'POST',
            url: '/api/auth/2fa/disable',
            headers: bearer(token),
            payload: { password: 'Secret12', code: i % 2 ? '000000' : '999999' },
          }),
        );
      }
      expect(attempts.at(-1)?.statusCode).toBe(429);
      const right = await kit.inject({
        method: 'POST',
        url: '/api/auth/2fa/disable',
        headers: bearer(token),
        payload: { password: 'Secret12', code: kit.freshCode(secret) },
      });
      expect(right.statusCode).toBe(429);
    });
  });

  describe('recovery codes', () => {
    it('works once: the same code again, in any case or spacing, is refused', async () => {
      const { email, recoveryCodes } = await enrolledUser();
      const code = recoveryCodes[0] as string;
      expect(await kit.profileStatus(await kit.signIn(email, code))).toBe(200);
      const before = await eventCount(t);
      for (const again of [code, code.toUpperCase(), code.replace('-', ' ')]) {
        expectEnvelope(await kit.secondStep(await kit.pendingToken(email), again), 401);
      }
      expect(await eventCount(t)).toBe(before);
    });

    it('is spent once when two sign-ins race with it', async () => {
      const { email, recoveryCodes } = await enrolledUser();
      const pendings = [await kit.pendingToken(email), await kit.pendingToken(email)];
      const code = recoveryCodes[1] as string;
      const answers = await Promise.all(pendings.map((p) => kit.secondStep(p, code)));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    });

    it("is the account's own: another account's code does not sign in", async () => {
      const victim = await enrolledUser();
      const other = await enrolledUser();
      const pending = await kit.pendingToken(victim.email);
      expectEnvelope(await kit.secondStep(pending, other.recoveryCodes[0] as string), 401);
    });
  });

  describe('the pending token', () => {
    it('is single-use, short-lived, and no access token (nor is an access token a pending one)', async () => {
      const { email, secret, token } = await enrolledUser();
      const pending = await kit.pendingToken(email);
      expect((await kit.secondStep(pending, kit.freshCode(secret))).statusCode).toBe(200);
      const reused = await kit.secondStep(pending, kit.freshCode(secret));
      expect(expectEnvelope(reused, 401).message).toBe('Your sign-in has expired. Please sign in again.');

      const late = await kit.pendingToken(email);
      clock.advance(5 * 60_000 + 1000);
      expectEnvelope(await kit.secondStep(late, kit.freshCode(secret)), 401);

      expectEnvelope(await kit.secondStep(token, kit.freshCode(secret)), 401);
      const tampered = `${pending.slice(0, -3)}${pending.endsWith('AAA') ? 'BBB' : 'AAA'}`;
      expectEnvelope(await kit.secondStep(tampered, kit.freshCode(secret)), 401);
      expect(await kit.profileStatus(pending)).toBe(401);
    });
  });

  describe('session fixation', () => {
    it('gives a new session id, made by the server, at every sign-in', async () => {
      const { email, token: first } = await signUp(t);
      const ids = new Set([sessionIdOf(first)]);
      for (let i = 0; i < 3; i++) {
        const answer = await kit.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers: { authorization: `Bearer ${first}`, cookie: `sid=${sessionIdOf(first)}` },
          // Unknown fields naming a session are not taken.
          payload: { email, password: 'Secret12', session_id: sessionIdOf(first), sid: 'planted' },
        });
        expect(answer.statusCode, answer.body).toBe(200);
        ids.add(sessionIdOf(answer.json().data.token));
      }
      expect(ids.size).toBe(4);
      expect(ids.has('planted')).toBe(false);
    });

    it("refuses a token naming another user's session, or none", async () => {
      const alice = await signUp(t);
      const bob = await signUp(t);
      const mixed = t.signToken(alice.userId, { sessionId: sessionIdOf(bob.token) });
      expect(await kit.profileStatus(mixed)).toBe(401);
      const unknown = t.signToken(alice.userId, { sessionId: randomUUID() });
      expect(await kit.profileStatus(unknown)).toBe(401);
      const none = t.app.jwt.sign({ sub: alice.userId, iat_ms: clock().getTime() }, { expiresIn: '1d' });
      expect(await kit.profileStatus(none)).toBe(401);
    });
  });

  describe('bad input', () => {
    it('answers 4xx in the envelope, never a 500, and appends nothing', async () => {
      const { token } = await enrolledUser();
      const auth = bearer(token);
      const before = await eventCount(t);
      const cases: [string, string, unknown, number, Record<string, string>?][] = [
        ['POST', '/api/auth/2fa/confirm', { code: 123456 }, 422, auth],
        ['POST', '/api/auth/2fa/confirm', { code: 'x'.repeat(100) }, 422, auth],
        ['POST', '/api/auth/2fa/recovery-codes', { code: ['1'] }, 422, auth],
        ['POST', '/api/auth/2fa/recovery-codes', { code: '   ' }, 422, auth],
        ['POST', '/api/auth/2fa/disable', { password: null, code: {} }, 422, auth],
        // Malformed JSON is the app-wide 400 (as on every route).
        ['POST', '/api/auth/2fa/disable', 'not json', 400, auth],
        ['POST', '/api/auth/login/2fa', { pending_token: 5, code: '123456' }, 422],
        ['POST', '/api/auth/login/2fa', { pending_token: 'garbage', code: '123456' }, 401],
        ['POST', '/api/auth/login/2fa', { code: '123456' }, 401],
        ['POST', '/api/auth/login/2fa', { pending_token: 'garbage' }, 422],
        ['DELETE', '/api/auth/sessions?others=yes', undefined, 422, auth],
        // An over-long path parameter is the app-wide 414.
        ['DELETE', `/api/auth/sessions/${'x'.repeat(200)}`, undefined, 414, auth],
        ['DELETE', '/api/auth/sessions/%00', undefined, 422, auth],
        ['DELETE', '/api/auth/sessions/no-such-session', undefined, 404, auth],
      ];
      for (const [method, url, payload, status, headers] of cases) {
        const answer = await kit.inject({
          method: method as 'POST' | 'DELETE',
          url,
          headers: {
            ...headers,
            ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}),
          },
          ...(payload === undefined ? {} : { payload: payload as string | object }),
        });
        expect(answer.statusCode, `${method} ${url} ${JSON.stringify(payload)}: ${answer.body}`).toBe(status);
        expectEnvelope(answer, status);
      }
      expect(await eventCount(t)).toBe(before);
    });
  });

  describe("another user's session id", () => {
    it('is 404 like an unknown one, ends nothing, and is never listed', async () => {
      const alice = await signUp(t);
      const bob = await signUp(t);
      const before = await eventCount(t);
      const theirs = await kit.inject({
        method: 'DELETE',
        url: `/api/auth/sessions/${sessionIdOf(bob.token)}`,
        headers: bearer(alice.token),
      });
      const unknown = await kit.inject({
        method: 'DELETE',
        url: `/api/auth/sessions/${randomUUID()}`,
        headers: bearer(alice.token),
      });
      const a = expectEnvelope(theirs, 404);
      const b = expectEnvelope(unknown, 404);
      expect({ ...a, timestamp: null }).toEqual({ ...b, timestamp: null });
      expect(await eventCount(t)).toBe(before);
      expect(await kit.profileStatus(bob.token)).toBe(200);
      const list = await kit.inject({
        method: 'GET',
        url: '/api/auth/sessions',
        headers: bearer(alice.token),
      });
      expect(list.json().data.sessions.map((s: { id: string }) => s.id)).toEqual([sessionIdOf(alice.token)]);
      // Ending all others ends only the caller's.
      await kit.inject({
        method: 'DELETE',
        url: '/api/auth/sessions?others=true',
        headers: bearer(alice.token),
      });
      expect(await kit.profileStatus(bob.token)).toBe(200);
    });
  });
});
