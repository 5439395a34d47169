import { type SmtpPeer, startSmtpPeer } from '@kosh/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { bearer, dataUrl, PNG_1PX, register, tokenFromLink } from './testing/fixtures';

/**
 * The "not done until" walk, on real PostgreSQL, Redis (BullMQ: projections, the mail
 * reactor and the mail jobs) and a real SMTP peer started here.
 */
describe('account walk: register → mail → verify → login → profile → picture → password → reset', () => {
  let t: TestApp;
  let smtp: SmtpPeer;
  const email = `asha.${Date.now()}@example.in`;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    t = await createTestApp({ queue: 'bullmq', smtpUrl: smtp.url });
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('walks the whole account life cycle', async () => {
    const { app } = t;

    // Register: 201, not signed in, and no account shown (a taken address gets the same answer).
    const registered = await register(app, {
      first_name: 'Asha',
      last_name: 'Rao',
      email: email.toUpperCase(),
      password: 'Secret12',
    });
    expect(registered.statusCode).toBe(201);
    const registeredBody = registered.json();
    expect(registeredBody).toMatchObject({
      success: true,
      message: 'Registration successful. Please check your email to verify your account.',
      data: null,
    });

    // The verification mail arrives over SMTP with the product name, text, HTML and the full link.
    const verifyMail = await smtp.waitForMail((m) => m.to.includes(email) && /verify/i.test(m.subject));
    expect(verifyMail.subject).toContain('Kosh');
    expect(verifyMail.text).toContain('Kosh');
    expect(verifyMail.text).toContain(`http://kosh.test/verify-email?token=`);
    expect(verifyMail.text).toContain(`&email=${encodeURIComponent(email)}`);
    const verifyToken = tokenFromLink(verifyMail.text, '/verify-email');
    expect(Buffer.from(verifyToken, 'base64url')).toHaveLength(32);
    expect(verifyMail.html).toContain(`/verify-email?token=${verifyToken}`);

    // Not verified yet: 403 with 'verify' in the message.
    const early = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'Secret12' },
    });
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toMatch(/verify/);

    // Verify: signs in; the link works once.
    const verified = await app.inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { token: verifyToken },
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data.user).toMatchObject({
      first_name: 'Asha',
      last_name: 'Rao',
      email,
      email_verified: true,
      profile_picture: null,
    });
    const userId: string = verified.json().data.user.id;
    expect(verified.json().data.token).toEqual(expect.any(String));
    const again = await app.inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { token: verifyToken },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Invalid or expired verification link');

    // Login.
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'Secret12', remember_me: true },
    });
    expect(login.statusCode).toBe(200);
    const firstToken: string = login.json().data.token;
    const claims = app.jwt.decode<{ iat: number; exp: number }>(firstToken);
    expect(claims && claims.exp - claims.iat).toBe(30 * 24 * 3600);

    // Profile update, read back through the users read model.
    const updated = await app.inject({
      method: 'PUT',
      url: '/api/auth/profile',
      headers: bearer(firstToken),
      payload: { first_name: 'Asha', last_name: 'Iyer', email },
    });
    expect(updated.statusCode).toBe(200);
    const profile = await app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: bearer(firstToken),
    });
    expect(profile.json().data.user).toMatchObject({
      first_name: 'Asha',
      last_name: 'Iyer',
      email_verified: true,
    });

    // Picture upload (the spec's JSON data URL), served back with its type and nosniff.
    const upload = await app.inject({
      method: 'POST',
      url: '/api/auth/profile-picture',
      headers: bearer(firstToken),
      payload: { profile_picture: dataUrl(PNG_1PX) },
    });
    expect(upload.statusCode).toBe(200);
    const picture: string = upload.json().data.user.profile_picture;
    expect(picture).toMatch(/^[0-9a-f]{32}\.png$/);
    const served = await app.inject({ method: 'GET', url: `/uploads/profile-pictures/${picture}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG_1PX)).toBe(true);

    // Change password: the old token stops working, the answer carries a fresh one.
    const changed = await app.inject({
      method: 'PUT',
      url: '/api/auth/change-password',
      headers: bearer(firstToken),
      payload: { current_password: 'Secret12', new_password: 'Better34' },
    });
    expect(changed.statusCode).toBe(200);
    const oldTokenRejected = await app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: bearer(firstToken),
    });
    expect(oldTokenRejected.statusCode).toBe(401);
    const freshToken: string = changed.json().data.token;
    const withFresh = await app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: bearer(freshToken),
    });
    expect(withFresh.statusCode).toBe(200);

    // Forgot password: same answer as for an unknown address; the mail links to /reset-password.
    const forgot = await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
    const forgotUnknown = await app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: 'nobody@example.in' },
    });
    expect(forgot.statusCode).toBe(200);
    expect(forgotUnknown.statusCode).toBe(200);
    expect(forgotUnknown.json().message).toBe(forgot.json().message);
    const resetMail = await smtp.waitForMail((m) => m.to.includes(email) && /reset/i.test(m.subject));
    expect(resetMail.text).toContain('http://kosh.test/reset-password?token=');
    expect(resetMail.text).toContain('1 hour');
    const resetToken = tokenFromLink(resetMail.text, '/reset-password');

    // Reset, then sign in with the new password only; the link works once.
    const reset = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: resetToken, password: 'Newest56' },
    });
    expect(reset.statusCode).toBe(200);
    const reused = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: resetToken, password: 'Other789' },
    });
    expect(reused.statusCode).toBe(400);
    const freshAfterReset = await app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: bearer(freshToken),
    });
    expect(freshAfterReset.statusCode).toBe(401);
    const oldPassword = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'Better34' },
    });
    expect(oldPassword.statusCode).toBe(401);
    const newPassword = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'Newest56' },
    });
    expect(newPassword.statusCode).toBe(200);
    expect(newPassword.json().data.user).toMatchObject({
      id: userId,
      last_name: 'Iyer',
      profile_picture: picture,
    });

    // Exactly one mail per event: one verification, one reset.
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(2);
  });
});
