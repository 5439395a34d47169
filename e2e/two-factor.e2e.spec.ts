import { expect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { AppShell } from './page-models/app-shell';
import { LoginPage } from './page-models/login-page';
import { ProfilePage } from './page-models/profile-page';
import type { Mail } from './support/mailbox';
import { captureScreen } from './support/screens';
import { createVerifiedUser } from './support/users';

/** The authenticator app: the code of `secret` at `at` (RFC 6238, as the app reads the QR code). */
const code = (secret: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at,
  });

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

async function logout(page: Page) {
  await new AppShell(page).chooseFromUserMenu('Logout');
  await expect(page).toHaveURL(/\/login$/);
  await expect(new LoginPage(page).heading).toBeVisible();
  await expect(page.getByLabel("Auditor's email")).toHaveCount(0);
}

/**
 * Issue 32: enrolling in two-factor sign-in from /profile, signing in with a code and with a
 * recovery code, and ending another session — by keyboard where a person would type, at 1280
 * and 390 px (screenshots in e2e/screenshots).
 */
test('two-factor sign-in from enrolment to ending another session', async ({ page, request }) => {
  test.setTimeout(120_000);
  const user = await createVerifiedUser(request);
  const login = new LoginPage(page);
  await login.goto();
  await login.signInAs(user.email, user.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  // Enrol: QR code, setup key, confirming code.
  const profile = new ProfilePage(page);
  await profile.goto();
  const twoFactor = page.getByRole('region', { name: 'Two-factor sign-in', exact: true });
  await expect(twoFactor.getByText('Off', { exact: true })).toBeVisible();
  await twoFactor.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  const qr = twoFactor.getByRole('img', { name: 'QR code to add Kosh to your authenticator app' });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const secret = (await twoFactor.getByTestId('setup-key').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await captureScreen(page, 'two-factor-enrol', async () => {
    await twoFactor.scrollIntoViewIfNeeded();
  });
  const codeField = twoFactor.getByLabel('Code from your app');
  await codeField.fill('12345');
  await codeField.press('Enter');
  await expect(twoFactor.getByText('Invalid authentication code')).toBeVisible();
  // The step used now; the sign-in below uses the next one (inside the ±1 step window).
  const enrolledAt = Date.now();
  await codeField.fill(code(secret, enrolledAt));
  await codeField.press('Enter');

  // The recovery codes, shown once.
  const list = twoFactor.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((c) => c.trim());
  await expect(twoFactor.getByRole('button', { name: 'Copy codes' })).toBeVisible();
  const download = page.waitForEvent('download');
  await twoFactor.getByRole('button', { name: 'Download codes' }).click();
  expect((await download).suggestedFilename()).toBe('kosh-recovery-codes.txt');
  await captureScreen(page, 'two-factor-recovery-codes', async () => {
    await twoFactor.scrollIntoViewIfNeeded();
  });
  await twoFactor.getByRole('button', { name: 'I have saved them' }).click();
  await expect(list).toHaveCount(0);
  await expect(twoFactor.getByText('On', { exact: true })).toBeVisible();
  await expect(twoFactor.getByText('Recovery codes left: 10')).toBeVisible();

  // Sign in with a code: the password first, then the second step.
  await logout(page);
  await login.signInAs(user.email, user.password);
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  const appCode = page.getByLabel('Authentication code');
  await expect(appCode).toBeFocused();
  await captureScreen(page, 'login-two-factor');
  await appCode.fill(code(secret, enrolledAt + 30_000));
  await appCode.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);

  // Sign in with a recovery code.
  await logout(page);
  await login.signInAs(user.email, user.password);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  const recoveryField = page.getByLabel('Recovery code');
  await expect(recoveryField).toBeFocused();
  await captureScreen(page, 'login-recovery-code');
  await recoveryField.fill(recoveryCodes[0] as string);
  await recoveryField.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);

  // Another session (another browser, here through the API) and ending it from this one.
  const pending = await request.post('/api/auth/login', {
    headers: { 'user-agent': FIREFOX },
    data: { email: user.email, password: user.password },
  });
  const pendingToken = (await pending.json()).data.pending_token;
  const other = await request.post('/api/auth/login/2fa', {
    headers: { 'user-agent': FIREFOX },
    data: { pending_token: pendingToken, code: recoveryCodes[1] },
  });
  expect(other.status(), await other.text()).toBe(200);
  const otherHeaders = { authorization: `Bearer ${(await other.json()).data.token}` };
  expect((await request.get('/api/auth/profile', { headers: otherHeaders })).status()).toBe(200);

  await profile.goto();
  const sessions = page.getByRole('region', { name: 'Sessions', exact: true });
  // The header, the sign-in of the verification link, this one and Firefox's (the logouts ended two).
  const rows = sessions.getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(sessions.getByRole('row', { name: /This session/ })).toContainText('Chrome on Linux');
  await expect(sessions.getByRole('row', { name: /Firefox on Linux/ })).toBeVisible();
  await expect(twoFactor.getByText('Recovery codes left: 8')).toBeVisible();
  await captureScreen(page, 'profile-sessions', async () => {
    await sessions.scrollIntoViewIfNeeded();
  });
  const end = sessions.getByRole('button', { name: /End the session of Firefox on Linux/ });
  await end.focus();
  await page.keyboard.press('Enter');
  await expect(new AppShell(page).toast('Session ended')).toBeVisible();
  await expect(rows).toHaveCount(3);
  expect((await request.get('/api/auth/profile', { headers: otherHeaders })).status()).toBe(401);
  // This session goes on.
  await page.reload();
  await expect(profile.heading).toBeVisible();

  // The new browser was mailed about.
  const mails = (await (await request.get('/dev/mailbox.json')).json()) as Mail[];
  expect(mails.some((m) => m.to === user.email && m.subject.startsWith('New sign-in'))).toBe(true);
});
