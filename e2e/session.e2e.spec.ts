import { expect, test } from '@playwright/test';
import { AppShell } from './page-models/app-shell';
import { LoginPage } from './page-models/login-page';
import { VerifyEmailPage } from './page-models/verify-email-page';
import { createVerifiedUser, expiredToken } from './support/users';

test.describe('session and routing (spec sections 2 and 4)', () => {
  test('a protected route sends a signed-out visitor to /login', async ({ page }) => {
    for (const path of ['/dashboard', '/loans', '/transactions', '/ledger', '/profile', '/settings']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await expect(new LoginPage(page).heading).toBeVisible();
    }
    await expect(page.getByRole('navigation')).toHaveCount(0);
  });

  test('/ and unknown paths go to /dashboard (and on to /login when signed out)', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/no/such/screen');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('an expired token lands on /login with the session-expired toast', async ({ page }) => {
    const token = expiredToken();
    await page.addInitScript((value) => {
      if (!sessionStorage.getItem('kosh.e2e.seeded')) {
        sessionStorage.setItem('kosh.e2e.seeded', '1');
        localStorage.setItem('kosh.token', value);
      }
    }, token);
    const sentAuthorization: (string | undefined)[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/')) sentAuthorization.push(request.headers().authorization);
    });
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await expect(new AppShell(page).toast('Session expired. Please login again.')).toBeVisible();
    expect(sentAuthorization.filter(Boolean)).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('kosh.token'))).toBeNull();
  });

  test('a wrong password on /login is said by the form alone, with no session-expired toast', async ({
    page,
    request,
  }) => {
    const user = await createVerifiedUser(request);
    const login = new LoginPage(page);
    await login.goto();
    await login.signInAs(user.email, 'Wrong-pass-1');
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(new AppShell(page).toasts).toHaveCount(0);
  });

  test('Logout ends the session on the server: the token it held is refused afterwards', async ({
    page,
    request,
  }) => {
    const user = await createVerifiedUser(request);
    const login = new LoginPage(page);
    await login.goto();
    await login.signInAs(user.email, user.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    const token = await page.evaluate(() => sessionStorage.getItem('kosh.token'));
    expect(token).toBeTruthy();
    const headers = { authorization: `Bearer ${token}` };
    expect((await request.get('/api/auth/profile', { headers })).status()).toBe(200);
    const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/auth/logout'));
    await new AppShell(page).chooseFromUserMenu('Logout');
    await expect(page).toHaveURL(/\/login$/);
    expect((await loggedOut).status()).toBe(200);
    expect((await request.get('/api/auth/profile', { headers })).status()).toBe(401);
  });

  test('the brand is the page title and on the sign-in and registration screens', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveTitle('Kosh');
    await expect(page.getByRole('main').getByText('Kosh', { exact: true })).toBeVisible();
    await page.getByRole('link', { name: 'Create one' }).click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page).toHaveTitle('Kosh');
    await expect(page.getByRole('main').getByText('Kosh', { exact: true })).toBeVisible();
  });

  test('the login message parameter shows as a toast', async ({ page }) => {
    await page.goto('/login?message=Hello%20from%20the%20link');
    await expect(new AppShell(page).toast('Hello from the link')).toBeVisible();
  });

  test('at most three toasts show at once, each closing after 5 s; a repeated message is one toast', async ({
    page,
  }) => {
    await page.goto('/verify-email');
    const verify = new VerifyEmailPage(page);
    await expect(verify.failed).toBeVisible();
    await expect(page.getByText('Invalid verification link')).toBeVisible();
    const shell = new AppShell(page);
    // The same failure five times: one toast, refreshed, not a stack of copies.
    for (let i = 0; i < 5; i += 1) await verify.resendVerification.click();
    await expect(shell.toast('Email address not found. Please register again.')).toHaveCount(1);
    await expect(shell.toasts).toHaveCount(0, { timeout: 10_000 });
    // Five different failures: three show at once.
    let n = 0;
    await page.route('**/api/auth/login', (route) => {
      n += 1;
      return route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, message: `Failure number ${n}` }),
      });
    });
    const login = new LoginPage(page);
    await login.goto();
    await login.email.fill('someone@example.in');
    await login.password.fill('Secret123!');
    for (let i = 1; i <= 5; i += 1) {
      await login.signIn.click();
      await expect(shell.toast(`Failure number ${i}`)).toBeVisible();
    }
    await expect(shell.toasts).toHaveCount(3);
    const box = await page.locator('.bp6-toast').first().boundingBox();
    // Top-right, below the page header (issue 13: never over the title or the primary action).
    expect(box && box.y < 200 && box.x + box.width > 1280 - 100, 'toasts sit top-right').toBe(true);
    const shownAt = Date.now();
    await expect(shell.toasts).toHaveCount(0, { timeout: 10_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(3_500);
  });
});
