import { ConflictError, NotFoundError, ValidationError } from '@kosh/domain';
import { listOutbox } from '@kosh/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../routes/auth/testing/fixtures';
import { twoFactorKit } from '../routes/auth/testing/two-factor';
import { MODES, signUp } from '../security/testing/attack-kit';
import { testClock } from '../testing/clock';
import { createTestApp, type TestApp } from '../testing/test-app';
import { waitUntil } from '../testing/wait-until';
import { resetTwoFactor } from './reset-two-factor';

/**
 * An operator's reset of two-factor sign-in (`npm run reset-two-factor`) for someone who lost the
 * authenticator and the recovery codes: off, every session ended, the owner mailed, History says
 * who did it and why; nobody else's account is touched.
 */
describe.each(MODES)('operator resets two-factor sign-in (%s)', (mode) => {
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

  const status = async (token: string) =>
    (await kit.inject({ method: 'GET', url: '/api/auth/2fa', headers: bearer(token) })).json().data;

  it('turns two-factor off, ends every session, mails the owner and shows in History', async () => {
    const owner = await signUp(t);
    const bystander = await signUp(t);
    const { secret } = await kit.enrol(owner.token);
    const bystanderEnrolled = await kit.enrol(bystander.token);
    const phone = await kit.signIn(owner.email, kit.freshCode(secret));
    const bystanderSession = await kit.signIn(bystander.email, kit.freshCode(bystanderEnrolled.secret));

    const outcome = await resetTwoFactor(t.platform, {
      email: owner.email.toUpperCase(),
      operator: 'asha',
      reason: 'Lost phone and codes; identity checked on a call',
    });
    expect(outcome.userId).toBe(owner.userId);
    expect(outcome.sessionsEnded).toBe(2);

    // Both of the owner's sessions are over; the bystander's is not, and keeps its second step.
    expect(await kit.profileStatus(owner.token)).toBe(401);
    expect(await kit.profileStatus(phone)).toBe(401);
    expect(await kit.profileStatus(bystanderSession)).toBe(200);
    expect((await status(bystanderSession)).enabled).toBe(true);

    // The password alone signs the owner in now.
    const login = await kit.login(owner.email);
    expect(login.statusCode, login.body).toBe(200);
    const fresh: string = login.json().data.token;
    expect(fresh).toEqual(expect.any(String));
    expect(await status(fresh)).toEqual({ enabled: false, recovery_codes_left: 0 });

    const mail = await waitUntil(async () =>
      (await listOutbox(t.platform.db)).find(
        (m) =>
          m.to === owner.email &&
          m.subject.includes('Two-factor sign-in on your Kosh account was turned off'),
      ),
    );
    expect(mail.text).toContain('reset your password');
    expect(
      (await listOutbox(t.platform.db)).some(
        (m) => m.to === bystander.email && m.subject.includes('turned off'),
      ),
    ).toBe(false);

    await t.caughtUp(['history']);
    const history = await kit.inject({
      method: 'GET',
      url: '/api/history?per_page=100',
      headers: bearer(fresh),
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.body).toContain(
      'Two-factor sign-in turned off by support (Lost phone and codes; identity checked on a call)',
    );
  });

  it('refuses an unknown address, an account without two-factor and a reset without a reason', async () => {
    await expect(
      resetTwoFactor(t.platform, { email: 'nobody.here@example.in', operator: 'asha', reason: 'x' }),
    ).rejects.toBeInstanceOf(NotFoundError);

    const plain = await signUp(t);
    const before = await t.platform.eventStore.readStream(`user-${plain.userId}`);
    await expect(
      resetTwoFactor(t.platform, { email: plain.email, operator: 'asha', reason: 'asked' }),
    ).rejects.toBeInstanceOf(ConflictError);

    const enrolled = await signUp(t);
    await kit.enrol(enrolled.token);
    await expect(
      resetTwoFactor(t.platform, { email: enrolled.email, operator: 'asha', reason: '   ' }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect((await status(enrolled.token)).enabled).toBe(true);
    expect((await t.platform.eventStore.readStream(`user-${plain.userId}`)).version).toBe(before.version);
  });
});
