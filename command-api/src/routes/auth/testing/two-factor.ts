import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { TestClock } from '../../../testing/clock';
import type { TestApp } from '../../../testing/test-app';
import { totpCode } from '../two-factor-codes';
import { bearer } from './fixtures';

/** Issue 32: helpers of the two-factor and session specs (the app runs on a test clock). */
export const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
export const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

export type Enrolled = { secret: string; recoveryCodes: string[] };

export function twoFactorKit(t: TestApp, clock: TestClock) {
  const inject = (options: InjectOptions) => t.app.inject(options);
  /** The current code; the clock moves on a step first, so the last code used is never repeated. */
  const freshCode = (secret: string) => {
    clock.advance(30_000);
    return totpCode(secret, clock());
  };

  async function enrol(token: string): Promise<Enrolled> {
    const setup = await inject({ method: 'POST', url: '/api/auth/2fa/setup', headers: bearer(token) });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json().data as { secret: string };
    const confirmed = await inject({
      method: 'POST',
      url: '/api/auth/2fa/confirm',
      headers: bearer(token),
      payload: { code: freshCode(secret) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { secret, recoveryCodes: confirmed.json().data.recovery_codes };
  }

  const login = (email: string, userAgent = CHROME_WINDOWS, password = 'Secret12') =>
    inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'user-agent': userAgent },
      payload: { email, password },
    });

  async function pendingToken(email: string, userAgent?: string): Promise<string> {
    const answer = await login(email, userAgent);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toMatchObject({ two_factor_required: true });
    return answer.json().data.pending_token;
  }

  const secondStep = (pending: string, code: string, userAgent = CHROME_WINDOWS, remoteAddress?: string) =>
    inject({
      method: 'POST',
      url: '/api/auth/login/2fa',
      headers: { 'user-agent': userAgent },
      ...(remoteAddress ? { remoteAddress } : {}),
      payload: { pending_token: pending, code },
    });

  /** Both steps; answers the session token. */
  async function signIn(email: string, code: string, userAgent = CHROME_WINDOWS): Promise<string> {
    const answer = await secondStep(await pendingToken(email, userAgent), code, userAgent);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data.token;
  }

  const profileStatus = async (token: string) =>
    (await inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(token) })).statusCode;

  return { inject, freshCode, enrol, login, pendingToken, secondStep, signIn, profileStatus };
}

/** The session id a token names (its `sid` claim). */
export const sessionIdOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).sid;
