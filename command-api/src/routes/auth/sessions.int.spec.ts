import { randomUUID } from 'node:crypto';
import { listOutbox } from '@kosh/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, MODES, signUp } from '../../security/testing/attack-kit';
import { testClock } from '../../testing/clock';
import { userFixture } from '../../testing/fixtures';
import { createTestApp, fixtureSessionId, type TestApp } from '../../testing/test-app';
import { waitUntil } from '../../testing/wait-until';
import { bearer, tokenFromLink } from './testing/fixtures';
import {
  CHROME_WINDOWS,
  FIREFOX_LINUX,
  SAFARI_IPHONE,
  sessionIdOf,
  twoFactorKit,
} from './testing/two-factor';

type WireSession = {
  id: string;
  browser: string;
  os: string;
  address: string;
  started_at: string;
  last_seen_at: string;
  current: boolean;
};

/**
 * Issue 32, item 2: the list of signed-in sessions, ending one or all others, a password change
 * ending the others, the mail on a sign-in from a new browser, over PostgreSQL and embedded.
 */
describe.each(MODES)('sessions (%s)', (mode) => {
  let t: TestApp;
  const clock = testClock(new Date().toISOString());
  let kit: ReturnType<typeof twoFactorKit>;

  beforeAll(async () => {
    t = await createTestApp({ mode, clock, env: { RATE_LIMIT_ENABLED: 'false' } });
    kit = twoFactorKit(t, clock);
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = async (token: string): Promise<WireSession[]> => {
    const answer = await kit.inject({ method: 'GET', url: '/api/auth/sessions', headers: bearer(token) });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data.sessions;
  };
  const signIn = async (email: string, userAgent: string, remoteAddress = '127.0.0.1') => {
    const answer = await kit.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      headers: { 'user-agent': userAgent },
      payload: { email, password: 'Secret12' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data.token as string;
  };
  const end = (token: string, id: string) =>
    kit.inject({ method: 'DELETE', url: `/api/auth/sessions/${id}`, headers: bearer(token) });

  it('lists the sessions with browser, system, address, start and last seen; marks the current one', async () => {
    const { email, token: first } = await signUp(t);
    const chrome = await signIn(email, CHROME_WINDOWS, '203.0.113.7');
    const iphone = await signIn(email, SAFARI_IPHONE, '198.51.100.20');
    const sessions = await list(chrome);
    expect(sessions).toHaveLength(3);
    const byId = new Map(sessions.map((s) => [s.id, s]));
    expect(byId.get(sessionIdOf(chrome))).toMatchObject({
      browser: 'Chrome',
      os: 'Windows',
      address: '203.0.113.7',
      current: true,
    });
    expect(byId.get(sessionIdOf(iphone))).toMatchObject({
      browser: 'Safari',
      os: 'iOS',
      address: '198.51.100.20',
      current: false,
    });
    expect(byId.get(sessionIdOf(first))?.current).toBe(false);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    for (const s of sessions)
      expect(Date.parse(s.last_seen_at)).toBeGreaterThanOrEqual(Date.parse(s.started_at));
  });

  it('updates last seen at most once a minute', async () => {
    const { email } = await signUp(t);
    const token = await signIn(email, FIREFOX_LINUX);
    const sid = sessionIdOf(token);
    const seen = async () => {
      const { rows } = await t.platform.db.query<{ last_seen_at: string | Date }>(
        'SELECT last_seen_at FROM session_activity WHERE session_id = $1',
        [sid],
      );
      return rows[0] ? new Date(rows[0].last_seen_at).toISOString() : null;
    };
    await list(token);
    const firstSeen = await seen();
    expect(firstSeen).toBe(clock().toISOString());
    clock.advance(20_000);
    await list(token);
    expect(await seen()).toBe(firstSeen);
    const later = clock.advance(61_000).toISOString();
    const sessions = await list(token);
    expect(await seen()).toBe(later);
    expect(sessions.find((s) => s.id === sid)?.last_seen_at).toBe(later);
  });

  it('ends another session: its token stops working at once, this one goes on', async () => {
    const { email, token: mine } = await signUp(t);
    const other = await signIn(email, FIREFOX_LINUX);
    expect(await kit.profileStatus(other)).toBe(200);
    const ended = await end(mine, sessionIdOf(other));
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ success: true, message: 'Session ended' });
    expect(await kit.profileStatus(other)).toBe(401);
    expect(await kit.profileStatus(mine)).toBe(200);
    expect((await list(mine)).map((s) => s.id)).toEqual([sessionIdOf(mine)]);
    // Ended is ended: a second time is 404.
    expectEnvelope(await end(mine, sessionIdOf(other)), 404);
  });

  it('ends every other session with others=true', async () => {
    const { email, token: mine } = await signUp(t);
    const others = [await signIn(email, FIREFOX_LINUX), await signIn(email, SAFARI_IPHONE)];
    const bad = await kit.inject({ method: 'DELETE', url: '/api/auth/sessions', headers: bearer(mine) });
    expect(expectEnvelope(bad, 422).errors[0]?.field).toBe('others');
    const answer = await kit.inject({
      method: 'DELETE',
      url: '/api/auth/sessions?others=true',
      headers: bearer(mine),
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().message).toBe('2 other sessions ended');
    for (const token of others) expect(await kit.profileStatus(token)).toBe(401);
    expect(await kit.profileStatus(mine)).toBe(200);
    expect((await list(mine)).map((s) => s.id)).toEqual([sessionIdOf(mine)]);
  });

  it('ends every other session on a password change and keeps the one that changed it', async () => {
    const { email, token: mine } = await signUp(t);
    const other = await signIn(email, FIREFOX_LINUX);
    const changed = await kit.inject({
      method: 'PUT',
      url: '/api/auth/change-password',
      headers: bearer(mine),
      payload: { current_password: 'Secret12', new_password: 'Secret34' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const renewed = changed.json().data.token as string;
    expect(sessionIdOf(renewed)).toBe(sessionIdOf(mine));
    expect(await kit.profileStatus(renewed)).toBe(200);
    expect(await kit.profileStatus(other)).toBe(401);
    expect((await list(renewed)).map((s) => s.id)).toEqual([sessionIdOf(mine)]);
  });

  it('logout ends only its own session', async () => {
    const { email, token: mine } = await signUp(t);
    const other = await signIn(email, FIREFOX_LINUX);
    const out = await kit.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(other) });
    expect(out.statusCode).toBe(200);
    expect(await kit.profileStatus(other)).toBe(401);
    expect(await kit.profileStatus(mine)).toBe(200);
  });

  it('mails the owner on a sign-in from a browser the account never used, once', async () => {
    const { email } = await signUp(t);
    const mailsAbout = async () =>
      (await listOutbox(t.platform.db)).filter((m) => m.to === email && m.subject.startsWith('New sign-in'));
    await signIn(email, CHROME_WINDOWS);
    await signIn(email, FIREFOX_LINUX, '192.0.2.44');
    const [mail] = await waitUntil(async () => {
      const mails = await mailsAbout();
      return mails.length >= 2 && mails;
    });
    await signIn(email, FIREFOX_LINUX);
    await t.app.afterAnswerSettled();
    await t.caughtUp(['sessions']);
    // The first sign-in (the verification link) had no user agent; Chrome and Firefox were new.
    const mails = await mailsAbout();
    expect(mails).toHaveLength(2);
    expect(mails.map((m) => m.text).join('\n')).toContain('Firefox on Linux (address 192.0.2.44)');
    expect(mail?.text).toContain('/profile');
  });

  it('ends every session on a password reset', async () => {
    const { email, token } = await signUp(t);
    const other = await signIn(email, FIREFOX_LINUX);
    await kit.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
    const text = await waitUntil(
      async () =>
        (await listOutbox(t.platform.db)).find((m) => m.to === email && m.text.includes('/reset-password'))
          ?.text,
    );
    const reset = await kit.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: tokenFromLink(text, '/reset-password'), password: 'Secret12' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await kit.profileStatus(token)).toBe(401);
    expect(await kit.profileStatus(other)).toBe(401);
    const fresh = await signIn(email, CHROME_WINDOWS);
    expect((await list(fresh)).map((s) => s.id)).toEqual([sessionIdOf(fresh)]);
  });

  it("keeps an auditor out of the owner's sessions and two-factor settings", async () => {
    const owner = randomUUID();
    const auditor = randomUUID();
    const granted = await t.as(owner).post('/api/audit-grants', {
      email: userFixture(auditor).email,
      expires_at: new Date(clock().getTime() + 7 * 86_400_000).toISOString().slice(0, 10),
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(201);
    const onOwners = { headers: { 'x-kosh-account': owner } };
    for (const url of ['/api/auth/sessions', '/api/auth/2fa']) {
      const answer = await t.as(auditor).get(url, onOwners);
      expect(answer.status, url).toBe(403);
      expect(JSON.stringify(answer.body)).not.toContain(fixtureSessionId(owner));
    }
    const end = await t.as(auditor).delete(`/api/auth/sessions/${fixtureSessionId(owner)}`, onOwners);
    expect(end.status).toBe(403);
    expect(await kit.profileStatus(await t.signedInToken(owner))).toBe(200);
  });

  it('gives the same list after a rebuild of the sessions read model', async () => {
    const { email, token } = await signUp(t);
    const other = await signIn(email, FIREFOX_LINUX);
    await signIn(email, SAFARI_IPHONE);
    await end(token, sessionIdOf(other));
    const before = await list(token);
    expect((await t.platform.runner.rebuild('sessions')).processed).toBeGreaterThan(0);
    expect(await list(token)).toEqual(before);
  });
});
