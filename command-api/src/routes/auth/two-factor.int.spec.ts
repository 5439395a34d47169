import { listOutbox } from '@kosh/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, MODES, signUp } from '../../security/testing/attack-kit';
import { testClock } from '../../testing/clock';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { waitUntil } from '../../testing/wait-until';
import { bearer, tokenFromLink } from './testing/fixtures';
import { twoFactorKit } from './testing/two-factor';

/**
 * Issue 32, item 1: two-factor sign-in (TOTP, RFC 6238) from enrolment to turning it off, over
 * PostgreSQL and embedded. The app runs on a test clock, so codes are computed as an app would.
 */
describe.each(MODES)('two-factor sign-in (%s)', (mode) => {
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

  const liveSessions = async (userId: string) => {
    const { rows } = await t.platform.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND type = 'SessionStarted'",
      [`user-${userId}`],
    );
    return rows[0]?.n ?? 0;
  };
  const status = async (token: string) =>
    (await kit.inject({ method: 'GET', url: '/api/auth/2fa', headers: bearer(token) })).json().data;

  it('enrols with a QR code and a confirming code, and answers 10 recovery codes once', async () => {
    const { token, email } = await signUp(t);
    expect(await status(token)).toEqual({ enabled: false, recovery_codes_left: 0 });

    const setup = await kit.inject({ method: 'POST', url: '/api/auth/2fa/setup', headers: bearer(token) });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret, otpauth_uri, qr_code } = setup.json().data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/Kosh:/);
    expect(otpauth_uri).toContain(`secret=${secret}`);
    expect(otpauth_uri).toContain(encodeURIComponent(email));
    expect(qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr_code.split(',')[1], 'base64').toString('utf8')).toContain('<svg');

    // A missing or wrong code turns nothing on.
    const missing = await kit.inject({
      method: 'POST',
      url: '/api/auth/2fa/confirm',
      headers: bearer(token),
      payload: {},
    });
    expect(expectEnvelope(missing, 422).errors).toEqual([{ field: 'code', message: 'Code is required' }]);
    const wrong = await kit.inject({
      method: 'POST',
      url: '/api/auth/2fa/confirm',
      headers: bearer(token),
      payload: { code: '000000' === kit.freshCode(secret) ? '111111' : '000000' },
    });
    expect(expectEnvelope(wrong, 422).errors).toEqual([
      { field: 'code', message: 'Invalid authentication code' },
    ]);
    expect((await status(token)).enabled).toBe(false);

    const confirmed = await kit.inject({
      method: 'POST',
      url: '/api/auth/2fa/confirm',
      headers: bearer(token),
      payload: { code: kit.freshCode(secret) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const codes: string[] = confirmed.json().data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(await status(token)).toEqual({ enabled: true, recovery_codes_left: 10 });

    // On is on: a second setup or confirm is a conflict.
    const again = await kit.inject({ method: 'POST', url: '/api/auth/2fa/setup', headers: bearer(token) });
    expectEnvelope(again, 409);
  });

  it('asks for the code after the password: no session before it, a session after', async () => {
    const { token, email } = await signUp(t);
    const { secret } = await kit.enrol(token);

    const first = await kit.login(email);
    expect(first.statusCode, first.body).toBe(200);
    const { data } = first.json();
    expect(data).toEqual({ two_factor_required: true, pending_token: expect.any(String) });
    expect(data.token).toBeUndefined();
    // The pending token is no access token.
    expect(await kit.profileStatus(data.pending_token)).toBe(401);

    // A wrong password still says only that.
    const badPassword = await kit.login(email, undefined, 'Wrong123');
    expectEnvelope(badPassword, 401);

    const second = await kit.secondStep(data.pending_token, kit.freshCode(secret));
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.user.email).toBe(email);
    expect(await kit.profileStatus(second.json().data.token)).toBe(200);
  });

  it('signs in with a recovery code, once; the count goes down', async () => {
    const { token, email } = await signUp(t);
    const { recoveryCodes } = await kit.enrol(token);
    const code = recoveryCodes[3] as string;
    const session = await kit.signIn(email, code.toUpperCase());
    expect(await kit.profileStatus(session)).toBe(200);
    expect(await status(token)).toEqual({ enabled: true, recovery_codes_left: 9 });
  });

  it('turns off with the password and a code, and the next sign-in has one step', async () => {
    const { token, email } = await signUp(t);
    const { secret } = await kit.enrol(token);
    const disable = (payload: object) =>
      kit.inject({ method: 'POST', url: '/api/auth/2fa/disable', headers: bearer(token), payload });

    expect(expectEnvelope(await disable({}), 422).errors).toEqual([
      { field: 'password', message: 'Password is required' },
      { field: 'code', message: 'Code is required' },
    ]);
    expect(
      expectEnvelope(await disable({ password: 'Wrong123', code: kit.freshCode(secret) }), 422).errors,
    ).toEqual([{ field: 'password', message: 'Password is incorrect' }]);
    expect(expectEnvelope(await disable({ password: 'Secret12', code: '123456' }), 422).errors).toEqual([
      { field: 'code', message: 'Invalid authentication code' },
    ]);
    expect((await status(token)).enabled).toBe(true);

    const off = await disable({ password: 'Secret12', code: kit.freshCode(secret) });
    expect(off.statusCode, off.body).toBe(200);
    expect(await status(token)).toEqual({ enabled: false, recovery_codes_left: 0 });
    const login = await kit.login(email);
    expect(login.json().data.token).toEqual(expect.any(String));
  });

  it('regenerates recovery codes with a code: the old ones stop working, the new ones work', async () => {
    const { token, email } = await signUp(t);
    const { secret, recoveryCodes } = await kit.enrol(token);
    const regenerate = (code: string) =>
      kit.inject({
        method: 'POST',
        url: '/api/auth/2fa/recovery-codes',
        headers: bearer(token),
        payload: { code },
      });
    expectEnvelope(await regenerate('000001'), 422);
    const fresh = await regenerate(kit.freshCode(secret));
    expect(fresh.statusCode, fresh.body).toBe(200);
    const codes: string[] = fresh.json().data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(codes.some((c) => recoveryCodes.includes(c))).toBe(false);

    const old = await kit.secondStep(await kit.pendingToken(email), recoveryCodes[0] as string);
    expectEnvelope(old, 401);
    expect(await kit.profileStatus(await kit.signIn(email, codes[0] as string))).toBe(200);
  });

  it('signs in by a verification link only up to the code while two-factor is on', async () => {
    const { token, userId } = await signUp(t);
    await kit.enrol(token);
    const newEmail = `moved.${userId.slice(0, 8)}@example.in`;
    const moved = await kit.inject({
      method: 'PUT',
      url: '/api/auth/profile',
      headers: bearer(token),
      payload: { first_name: 'Mallory', last_name: 'Tester', email: newEmail },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const text = await waitUntil(
      async () => (await listOutbox(t.platform.db)).find((m) => m.to === newEmail)?.text,
    );
    const sessionsBefore = await liveSessions(userId);
    const verified = await kit.inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { token: tokenFromLink(text, '/verify-email') },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().data).toEqual({ two_factor_required: true, pending_token: expect.any(String) });
    expect(await liveSessions(userId)).toBe(sessionsBefore);
  });

  it('keeps the secret and the recovery codes out of the events table, History and the signed export', async () => {
    const { token, userId } = await signUp(t);
    const { secret, recoveryCodes } = await kit.enrol(token);
    const { rows } = await t.platform.db.query<{ type: string; data: string }>(
      'SELECT type, data::text AS data FROM events WHERE stream_id = $1',
      [`user-${userId}`],
    );
    const types = rows.map((r) => r.type);
    expect(types).toEqual(expect.arrayContaining(['TwoFactorSetupStarted', 'TwoFactorEnabled']));
    const log = rows.map((r) => r.data).join('\n');
    const secretBytes = Buffer.from(secret, 'ascii');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(secretBytes.toString('base64'));
    for (const code of recoveryCodes) {
      expect(log).not.toContain(code);
      expect(log).not.toContain(code.replace('-', ''));
    }

    await t.caughtUp(['history']);
    const history = await kit.inject({
      method: 'GET',
      url: '/api/history?per_page=100',
      headers: bearer(token),
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.body).toContain('Two-factor sign-in turned on');
    const exported = await kit.inject({ method: 'GET', url: '/api/export/history', headers: bearer(token) });
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain('TwoFactorEnabled');
    for (const text of [history.body, exported.body]) {
      expect(text).not.toContain(secret);
      expect(text).not.toMatch(/sealedSecret|recoveryCodeHashes|codeHash/);
      for (const code of recoveryCodes) expect(text).not.toContain(code);
    }
  });
});
