import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, MODES, signUp } from '../../security/testing/attack-kit';
import { testClock } from '../../testing/clock';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { bearer } from '../auth/testing/fixtures';
import { twoFactorKit } from '../auth/testing/two-factor';
import { totpCode } from '../auth/two-factor-codes';

/**
 * Issue 32 item 4 with item 1: deleting an account with two-factor sign-in on needs a code (an app
 * code of a step not used yet, or a recovery code not spent), and signing in through the second
 * step during the cooling-off period keeps the account.
 */
describe.each(MODES)('erasure with two-factor sign-in on (%s)', (mode) => {
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

  const erase = (token: string, payload: object) =>
    kit.inject({ method: 'DELETE', url: '/api/account', headers: bearer(token), payload });
  const pending = async (token: string) =>
    (await kit.inject({ method: 'GET', url: '/api/account/erasure', headers: bearer(token) })).json().data
      .erasure;
  const erasureEvents = async (userId: string) => {
    const { rows } = await t.platform.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM events WHERE stream_id = $1',
      [`erasure-${userId}`],
    );
    return rows[0]?.n ?? 0;
  };

  it('refuses without a code or with a wrong or used one, records nothing; takes a fresh code', async () => {
    const { token, userId } = await signUp(t);
    const { secret } = await kit.enrol(token);
    const base = { password: 'Secret12', confirmation: 'DELETE' };

    expect(expectEnvelope(await erase(token, base), 422).errors).toEqual([
      { field: 'code', message: 'Authentication code is required' },
    ]);
    expect(expectEnvelope(await erase(token, { ...base, code: '000000' }), 422).errors).toEqual([
      { field: 'code', message: 'Authentication code is incorrect' },
    ]);
    // The code that confirmed the enrolment was used: its step does not work again.
    expect(
      expectEnvelope(await erase(token, { ...base, code: totpCode(secret, clock()) }), 422).errors,
    ).toEqual([{ field: 'code', message: 'Authentication code is incorrect' }]);
    expect(await erasureEvents(userId)).toBe(0);
    expect(await pending(token)).toBeNull();

    const asked = await erase(token, { ...base, code: kit.freshCode(secret) });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(await pending(token)).not.toBeNull();
  });

  it('takes an unspent recovery code, and signing in with the second step cancels the deletion', async () => {
    const { token, email } = await signUp(t);
    const { secret, recoveryCodes } = await kit.enrol(token);
    const asked = await erase(token, {
      password: 'Secret12',
      confirmation: 'DELETE',
      code: recoveryCodes[0],
    });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(await pending(token)).not.toBeNull();

    // The password alone does not cancel it: no session yet, only the code step.
    const first = await kit.login(email);
    expect(first.json().data).toMatchObject({ two_factor_required: true });
    expect(await pending(token)).not.toBeNull();

    const signedIn = await kit.signIn(email, kit.freshCode(secret));
    await expect.poll(() => pending(signedIn), { timeout: 10_000 }).toBeNull();
  });
});
