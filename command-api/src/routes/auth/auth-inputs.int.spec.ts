import { randomUUID } from 'node:crypto';
import { emailStreamId } from '@kosh/domain';
import { listOutbox } from '@kosh/platform';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { waitUntil } from '../../testing/wait-until';
import { AUTH_LIMITS } from './limits';
import { sha256Hex } from './secrets';
import {
  bearer,
  dataUrl,
  GIF_1PX,
  multipartFile,
  PNG_1PX,
  register,
  tokenFromLink,
} from './testing/fixtures';

/** Bad inputs, spec messages and isolation, on real PostgreSQL (in-process queue, outbox mail). */
describe('auth endpoints with bad inputs', () => {
  let t: TestApp;
  let offsetMs = 0;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false' } });
    t.platform.clock = () => new Date(Date.now() + offsetMs);
  });
  afterAll(async () => {
    await t?.close();
  });

  const inject = (options: InjectOptions) => t.app.inject(options);

  /** The latest link mailed to `email` (outbox of embedded mode), once it is there. */
  async function mailedToken(
    email: string,
    path: '/verify-email' | '/reset-password',
    after = 0,
  ): Promise<string> {
    return waitUntil(async () => {
      const mails = (await listOutbox(t.platform.db)).filter((m) => m.to === email && m.text.includes(path));
      return mails.length > after && tokenFromLink(mails[0]!.text, path);
    });
  }

  /** A registered, verified user and a token. */
  async function signedUpUser(overrides: { first_name?: string; last_name?: string } = {}) {
    const email = `user.${randomUUID()}@example.in`;
    const created = await register(t.app, {
      first_name: 'Asha',
      last_name: 'Rao',
      email,
      password: 'Secret12',
      ...overrides,
    });
    expect(created.statusCode).toBe(201);
    const token = await mailedToken(email, '/verify-email');
    const verified = await inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
    expect(verified.statusCode).toBe(200);
    return {
      id: verified.json().data.user.id as string,
      email,
      token: verified.json().data.token as string,
    };
  }

  const validRegistration = {
    first_name: 'Asha',
    last_name: 'Rao',
    email: 'asha@example.in',
    password: 'Secret12',
  };

  it('documents every auth route in the OpenAPI document', async () => {
    const docs = await inject({ method: 'GET', url: '/docs/json' });
    expect(docs.statusCode).toBe(200);
    const paths = Object.keys(docs.json().paths);
    for (const path of [
      'register',
      'login',
      'verify-email',
      'resend-verification',
      'profile',
      'forgot-password',
      'reset-password',
      'change-password',
      'profile-picture',
    ]) {
      expect(paths).toContain(`/api/auth/${path}`);
    }
  });

  describe('register', () => {
    it.each([
      [{ first_name: '' }, 'first_name', 'First name is required'],
      [{ first_name: 'A' }, 'first_name', 'First name should be at least 2 characters'],
      [{ last_name: undefined }, 'last_name', 'Last name is required'],
      [{ last_name: 'R' }, 'last_name', 'Last name should be at least 2 characters'],
      [{ email: '' }, 'email', 'Email is required'],
      [{ email: 'asha@' }, 'email', 'Enter a valid email'],
      [{ password: '' }, 'password', 'Password is required'],
      [{ password: 'Se1' }, 'password', 'Password should be of minimum 6 characters length'],
      [
        { password: 'secret12' },
        'password',
        'Password must contain at least one uppercase letter, one lowercase letter, and one number',
      ],
    ])('%j → 422 on %s', async (change, field, message) => {
      const response = await register(t.app, { ...validRegistration, ...change });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        success: false,
        errorCode: 'VALIDATION_ERROR',
        errors: [{ field, message }],
      });
    });

    it('answers a taken e-mail, in any case, as a free one and tells the owner by mail', async () => {
      const { email } = await signedUpUser();
      const free = await register(t.app, { ...validRegistration, email: `free.${randomUUID()}@example.in` });
      const taken = await register(t.app, { ...validRegistration, email: `  ${email.toUpperCase()} ` });
      expect(taken.statusCode).toBe(201);
      expect(taken.body.replace(/"timestamp":"[^"]*"/, '')).toBe(
        free.body.replace(/"timestamp":"[^"]*"/, ''),
      );
      await waitUntil(async () => {
        const notices = (await listOutbox(t.platform.db)).filter(
          (m) => m.to === email && m.subject.includes('Someone tried to register with your address'),
        );
        expect(notices).toHaveLength(1);
        return true;
      });
    });

    it('makes exactly one account of two simultaneous registrations of an address', async () => {
      const email = `race.${randomUUID()}@example.in`;
      const answers = await Promise.all([
        register(t.app, { ...validRegistration, email }),
        register(t.app, { ...validRegistration, email: email.toUpperCase() }),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
      const token = await mailedToken(email, '/verify-email');
      const verified = await inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
      expect(verified.statusCode).toBe(200);
      const verifyMails = (await listOutbox(t.platform.db)).filter(
        (m) => m.to === email && m.text.includes('/verify-email'),
      );
      expect(verifyMails).toHaveLength(1);
    });

    it('takes over an address whose registration never completed, once 10 minutes have passed', async () => {
      const reserveForGhost = async (email: string, minutesAgo: number) => {
        const ghost = randomUUID();
        await t.platform.eventStore.appendToStream(
          emailStreamId(email, sha256Hex),
          [
            {
              id: randomUUID(),
              type: 'EmailReserved',
              data: {
                email,
                userId: ghost,
                reservedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
              },
              metadata: {
                userId: ghost,
                correlationId: randomUUID(),
                causationId: null,
                recordedAt: new Date().toISOString(),
                schemaVersion: 1,
              },
            },
          ],
          { expectedVersion: 'no_stream' },
        );
      };
      const abandoned = `abandoned.${randomUUID()}@example.in`;
      await reserveForGhost(abandoned, 11);
      expect((await register(t.app, { ...validRegistration, email: abandoned })).statusCode).toBe(201);
      await mailedToken(abandoned, '/verify-email');
      const inFlight = `inflight.${randomUUID()}@example.in`;
      await reserveForGhost(inFlight, 1);
      expect((await register(t.app, { ...validRegistration, email: inFlight })).statusCode).toBe(201);
      await t.app.afterAnswerSettled();
      const reservation = await t.platform.eventStore.readStream(emailStreamId(inFlight, sha256Hex));
      expect(reservation.events.map((e) => e.type)).toEqual(['EmailReserved']);
    });

    it('stores SQL and HTML in names verbatim and returns them as given', async () => {
      const first = "Robert'); DROP TABLE users;--";
      const last = '<script>alert("x")</script>';
      const user = await signedUpUser({ first_name: first, last_name: last });
      const profile = await inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(user.token) });
      expect(profile.statusCode).toBe(200);
      expect(profile.json().data.user).toMatchObject({ first_name: first, last_name: last });
      expect(profile.headers['content-type']).toContain('application/json');
    });
  });

  describe('verify and resend', () => {
    it('refuses a verification token used twice, or unknown', async () => {
      const email = `twice.${randomUUID()}@example.in`;
      await register(t.app, { ...validRegistration, email });
      const token = await mailedToken(email, '/verify-email');
      expect(
        (await inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } })).statusCode,
      ).toBe(200);
      for (const payload of [{ token }, { token: 'not-a-token' }, {}]) {
        const response = await inject({ method: 'POST', url: '/api/auth/verify-email', payload });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toBe('Invalid or expired verification link');
      }
    });

    it('answers resend the same for unknown, unverified and verified addresses; mails only the unverified', async () => {
      const email = `resend.${randomUUID()}@example.in`;
      await register(t.app, { ...validRegistration, email });
      await mailedToken(email, '/verify-email');
      const verifiedUser = await signedUpUser();
      const answers = await Promise.all(
        [email, 'nobody@example.in', verifiedUser.email].map((address) =>
          inject({ method: 'POST', url: '/api/auth/resend-verification', payload: { email: address } }),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((a) => a.body.replace(/"timestamp":"[^"]*"/, ''))).size).toBe(1);
      await mailedToken(email, '/verify-email', 1);
      const toVerified = (await listOutbox(t.platform.db)).filter((m) => m.to === verifiedUser.email);
      expect(toVerified).toHaveLength(1);
    });

    it('kills the earlier verification link when a new one is sent', async () => {
      const email = `newer.${randomUUID()}@example.in`;
      await register(t.app, { ...validRegistration, email });
      const first = await mailedToken(email, '/verify-email');
      await inject({ method: 'POST', url: '/api/auth/resend-verification', payload: { email } });
      const second = await mailedToken(email, '/verify-email', 1);
      expect(
        (await inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token: first } }))
          .statusCode,
      ).toBe(400);
      expect(
        (await inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token: second } }))
          .statusCode,
      ).toBe(200);
    });
  });

  describe('login', () => {
    it.each([
      [{ email: '', password: 'x' }, 'email', 'Email is required'],
      [{ email: 'nope', password: 'Secret12' }, 'email', 'Enter a valid email'],
      [{ email: 'a@b.in', password: '' }, 'password', 'Password is required'],
      [
        { email: 'a@b.in', password: '12345' },
        'password',
        'Password should be of minimum 6 characters length',
      ],
    ])('%j → 422 on %s', async (payload, field, message) => {
      const response = await inject({ method: 'POST', url: '/api/auth/login', payload });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toContainEqual({ field, message });
    });

    it('gives one 401 message for an unknown e-mail and a wrong password', async () => {
      const user = await signedUpUser();
      const unknown = await inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'ghost@example.in', password: 'Secret12' },
      });
      const wrong = await inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: 'Wrong123' },
      });
      expect(unknown.statusCode).toBe(401);
      expect(wrong.statusCode).toBe(401);
      expect(unknown.json().message).toBe(wrong.json().message);
    });

    it('issues a 1-day token without remember_me', async () => {
      const user = await signedUpUser();
      const login = await inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: 'Secret12', remember_me: false },
      });
      const claims = t.app.jwt.decode<{ iat: number; exp: number; sub: string }>(login.json().data.token);
      expect(claims).toMatchObject({ sub: user.id });
      expect(claims && claims.exp - claims.iat).toBe(24 * 3600);
    });
  });

  describe('forgot and reset password', () => {
    it('validates the e-mail', async () => {
      const response = await inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: 'x' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual([{ field: 'email', message: 'Enter a valid email' }]);
    });

    it("applies register's password rule", async () => {
      const response = await inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: 'whatever', password: 'alllower1' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual([
        {
          field: 'password',
          message:
            'Password must contain at least one uppercase letter, one lowercase letter, and one number',
        },
      ]);
    });

    it('refuses an expired reset token (after 1 hour) and an earlier one once a new one is sent', async () => {
      const user = await signedUpUser();
      await inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } });
      const first = await mailedToken(user.email, '/reset-password');
      await inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } });
      const second = await mailedToken(user.email, '/reset-password', 1);
      const reset = (token: string) =>
        inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'Newer123' } });

      const superseded = await reset(first);
      expect(superseded.statusCode).toBe(400);
      offsetMs = 60 * 60 * 1000 + 1000;
      try {
        const expired = await reset(second);
        expect(expired.statusCode).toBe(400);
        expect(expired.json().message).toBe('Invalid or expired password reset link');
      } finally {
        offsetMs = 0;
      }
      expect((await reset(second)).statusCode).toBe(200);
    });
  });

  describe('change password', () => {
    it.each([
      [
        { current_password: '', new_password: 'Better12' },
        'current_password',
        'Current password is required',
      ],
      [{ current_password: 'Secret12', new_password: '' }, 'new_password', 'New password is required'],
      [
        { current_password: 'Secret12', new_password: '12345' },
        'new_password',
        'Password must be at least 6 characters',
      ],
      [
        { current_password: 'Wrong123', new_password: 'Better12' },
        'current_password',
        'Current password is incorrect',
      ],
    ])('%j → 422 on %s', async (payload, field, message) => {
      const user = await signedUpUser();
      const response = await inject({
        method: 'PUT',
        url: '/api/auth/change-password',
        headers: bearer(user.token),
        payload,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual([{ field, message }]);
    });
  });

  describe('profile', () => {
    it.each([
      [{ first_name: '', last_name: 'Rao', email: 'x@y.in' }, 'first_name', 'First name is required'],
      [{ first_name: 'Asha', last_name: 'Rao', email: '' }, 'email', 'Email is required'],
      [{ first_name: 'Asha', last_name: 'Rao', email: 'bad@' }, 'email', 'Enter a valid email'],
    ])('%j → 422 on %s', async (payload, field, message) => {
      const user = await signedUpUser();
      const response = await inject({
        method: 'PUT',
        url: '/api/auth/profile',
        headers: bearer(user.token),
        payload,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual([{ field, message }]);
    });

    it("answers a change to another user's e-mail as to a free one; only a confirmed change applies", async () => {
      const asha = await signedUpUser();
      const ravi = await signedUpUser();
      const changeTo = (email: string) =>
        inject({
          method: 'PUT',
          url: '/api/auth/profile',
          headers: bearer(asha.token),
          payload: { first_name: 'Asha', last_name: 'Rao', email },
        });
      const newEmail = `moved.${randomUUID()}@example.in`;
      const taken = await changeTo(ravi.email);
      const moved = await changeTo(newEmail);
      expect(taken.statusCode).toBe(200);
      expect(moved.statusCode).toBe(200);
      const shape = (body: string, address: string) =>
        body.replace(/"timestamp":"[^"]*"/, '').replace(address, '<new address>');
      expect(shape(taken.body, ravi.email)).toBe(shape(moved.body, newEmail));
      expect(moved.json().data.user).toMatchObject({ email: asha.email, email_verified: true });

      const notice = await waitUntil(async () =>
        (await listOutbox(t.platform.db)).find((m) => m.to === ravi.email && !m.text.includes('token=')),
      );
      expect(notice.text).toContain('Someone tried to change the address of another Kosh account to yours.');

      const token = await mailedToken(newEmail, '/verify-email');
      const confirmed = await inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json().data.user).toMatchObject({
        id: asha.id,
        email: newEmail,
        email_verified: true,
      });
      // The old address is free again.
      const reuse = await register(t.app, { ...validRegistration, email: asha.email });
      expect(reuse.statusCode).toBe(201);
      await mailedToken(asha.email, '/verify-email', 1);
    });
  });

  describe('profile picture', () => {
    const upload = (token: string, payload: object | Buffer, headers: Record<string, string> = {}) =>
      inject({
        method: 'POST',
        url: '/api/auth/profile-picture',
        headers: { ...bearer(token), ...headers },
        payload,
      });
    const sixMegabytes = Buffer.concat([PNG_1PX, Buffer.alloc(6 * 1024 * 1024)]);

    it('refuses a 6 MB picture, as JSON and as multipart', async () => {
      const user = await signedUpUser();
      const asJson = await upload(user.token, { profile_picture: dataUrl(sixMegabytes) });
      expect(asJson.statusCode).toBe(422);
      expect(asJson.json().errors).toEqual([
        { field: 'profile_picture', message: 'Image size must be less than 5MB' },
      ]);
      const form = multipartFile('profile_picture', 'big.png', 'image/png', sixMegabytes);
      const asForm = await upload(user.token, form.payload, form.headers);
      expect(asForm.statusCode).toBe(422);
      expect(asForm.json().errors).toEqual([
        { field: 'profile_picture', message: 'Image size must be less than 5MB' },
      ]);
    });

    it('refuses a text file renamed .png, whatever the declared type', async () => {
      const user = await signedUpUser();
      const text = Buffer.from('just some text, not an image\n');
      const form = multipartFile('profile_picture', 'photo.png', 'image/png', text);
      const asForm = await upload(user.token, form.payload, form.headers);
      expect(asForm.statusCode).toBe(422);
      expect(asForm.json().errors).toEqual([
        { field: 'profile_picture', message: 'Please select an image file' },
      ]);
      const asJson = await upload(user.token, { profile_picture: dataUrl(text) });
      expect(asJson.statusCode).toBe(422);
      expect(asJson.json().message).toBe('Please select an image file');
    });

    it.each([
      ['not base64', 'data:image/png,hello-world'],
      ['bad base64 characters', 'data:image/png;base64,%%%not*base64'],
      ['no data URL at all', 'hello'],
    ])('refuses a data URL that is %s', async (_label, value) => {
      const user = await signedUpUser();
      const response = await upload(user.token, { profile_picture: value });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual([
        { field: 'profile_picture', message: 'Please select an image file' },
      ]);
    });

    it('accepts a GIF by multipart, replaces and removes it', async () => {
      const user = await signedUpUser();
      const form = multipartFile('profile_picture', 'anything.bin', 'application/octet-stream', GIF_1PX);
      const first = await upload(user.token, form.payload, form.headers);
      expect(first.statusCode).toBe(200);
      const gif: string = first.json().data.user.profile_picture;
      expect(gif).toMatch(/\.gif$/);
      const served = await inject({ method: 'GET', url: `/uploads/profile-pictures/${gif}` });
      expect(served.headers['content-type']).toBe('image/gif');

      const second = await upload(user.token, { profile_picture: dataUrl(PNG_1PX, 'image/gif') });
      expect(second.json().data.user.profile_picture).toMatch(/\.png$/);
      expect((await inject({ method: 'GET', url: `/uploads/profile-pictures/${gif}` })).statusCode).toBe(404);

      const removed = await inject({
        method: 'DELETE',
        url: '/api/auth/profile-picture',
        headers: bearer(user.token),
      });
      expect(removed.statusCode).toBe(200);
      expect(removed.json().data.user.profile_picture).toBeNull();
    });
  });

  describe('tokens and isolation', () => {
    it('answers 401 without a token, with a bad one, or an expired one', async () => {
      const user = await signedUpUser();
      const expiredClaims = { sub: user.id, iat_ms: Date.now(), exp: Math.floor(Date.now() / 1000) - 60 };
      const expired = t.app.jwt.sign(expiredClaims as { sub: string; iat_ms: number });
      for (const headers of [{}, bearer('not.a.jwt'), bearer(`${user.token}x`), bearer(expired)]) {
        const response = await inject({ method: 'GET', url: '/api/auth/profile', headers });
        expect(response.statusCode).toBe(401);
        expect(response.json().success).toBe(false);
      }
    });

    it("one user's token never reads or changes another user's profile", async () => {
      const asha = await signedUpUser();
      const ravi = await signedUpUser({ first_name: 'Ravi', last_name: 'Kumar' });
      const updated = await inject({
        method: 'PUT',
        url: '/api/auth/profile',
        headers: bearer(asha.token),
        payload: {
          first_name: 'Changed',
          last_name: 'Name',
          email: asha.email,
          user_id: ravi.id,
          id: ravi.id,
        },
      });
      expect(updated.statusCode).toBe(200);
      expect(updated.json().data.user.id).toBe(asha.id);
      await upload(asha.token);

      const raviProfile = await inject({
        method: 'GET',
        url: '/api/auth/profile',
        headers: bearer(ravi.token),
      });
      expect(raviProfile.json().data.user).toMatchObject({
        id: ravi.id,
        first_name: 'Ravi',
        last_name: 'Kumar',
        email: ravi.email,
        profile_picture: null,
      });
      const ashaProfile = await inject({
        method: 'GET',
        url: '/api/auth/profile',
        headers: bearer(asha.token),
      });
      expect(ashaProfile.json().data.user).toMatchObject({ id: asha.id, first_name: 'Changed' });

      async function upload(token: string) {
        const response = await inject({
          method: 'POST',
          url: '/api/auth/profile-picture',
          headers: bearer(token),
          payload: { profile_picture: dataUrl(PNG_1PX) },
        });
        expect(response.statusCode).toBe(200);
      }
    });

    it("a password change voids only that user's tokens", async () => {
      const asha = await signedUpUser();
      const ravi = await signedUpUser();
      const changed = await inject({
        method: 'PUT',
        url: '/api/auth/change-password',
        headers: bearer(asha.token),
        payload: { current_password: 'Secret12', new_password: 'Better12' },
      });
      expect(changed.statusCode).toBe(200);
      expect(
        (await inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(asha.token) })).statusCode,
      ).toBe(401);
      expect(
        (await inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(ravi.token) })).statusCode,
      ).toBe(200);
    });
  });
});

describe('auth rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 with the spec message once an e-mail asks for too many reset links', async () => {
    const ask = (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
    for (let i = 0; i < 5; i++) expect((await ask('target@example.in')).statusCode).toBe(200);
    const limited = await ask('TARGET@example.in');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      success: false,
      message: 'Too many requests. Please try again later.',
    });
    expect(limited.headers['retry-after']).toBeDefined();
    // Another address from the same client is still served.
    expect((await ask('other@example.in')).statusCode).toBe(200);
  });

  it('limits one client spreading requests over many addresses', async () => {
    const ask = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/resend-verification',
        payload: { email: `spread.${i}@example.in` },
        remoteAddress: '10.0.0.9',
      });
    for (let i = 0; i < AUTH_LIMITS.resendVerification.perIp.max; i++)
      expect((await ask(i)).statusCode).toBe(200);
    const limited = await ask(-1);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe('Too many requests. Please try again later.');
  });

  it('limits login attempts per e-mail', async () => {
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'victim@example.in', password: 'Guess123' },
      });
    for (let i = 0; i < 10; i++) expect((await attempt()).statusCode).toBe(401);
    expect((await attempt()).statusCode).toBe(429);
  });
});
