import { expect, test } from '@playwright/test';
import { AppShell } from './page-models/app-shell';
import { ForgotPasswordPage } from './page-models/forgot-password-page';
import { LoanDetailsPage } from './page-models/loan-details-page';
import { LoginPage } from './page-models/login-page';
import { RegisterPage } from './page-models/register-page';
import { ResetPasswordPage } from './page-models/reset-password-page';
import { VerifyEmailPage } from './page-models/verify-email-page';
import { fifteenth, MoneyApi, signInThroughUi } from './support/money';
import { captureScreen, expectAccessible, screenshotPath } from './support/screens';
import { createVerifiedUser } from './support/users';

/** Every screen, at 1280×800 and 390×844: no serious or critical axe violation, and a screenshot. */
test.describe('every screen: accessibility and screenshots', () => {
  test('signed-out screens', async ({ page }) => {
    test.slow();
    const login = new LoginPage(page);
    await login.goto();
    await captureScreen(page, 'login');

    await login.email.fill('x');
    await login.email.blur();
    await login.password.focus();
    await login.password.blur();
    await captureScreen(page, 'login-errors');

    await new RegisterPage(page).goto();
    await captureScreen(page, 'register');

    const forgot = new ForgotPasswordPage(page);
    await forgot.goto();
    await captureScreen(page, 'forgot-password');
    await forgot.requestLink('someone@example.com');
    await expect(forgot.checkYourEmail).toBeVisible();
    await captureScreen(page, 'forgot-password-sent');

    await page.goto('/reset-password?token=abc');
    await expect(new ResetPasswordPage(page).heading).toBeVisible();
    await captureScreen(page, 'reset-password');

    await page.goto('/verify-email?token=not-a-real-token');
    await expect(new VerifyEmailPage(page).failed).toBeVisible();
    await captureScreen(page, 'verify-email-failed');
  });

  test('the screens of a loan, its history and its dialogs', async ({ page, request }) => {
    // Issue 28, item 10: every screen, not only the first sixteen, passes axe.
    test.setTimeout(400_000);
    const user = await createVerifiedUser(request, 'Priya');
    const api = await MoneyApi.signIn(request, user);
    const bankId = await api.createBank('Axe Bank', 'Chennai');
    const loanTypeId = await api.createLoanType('Axe Home Loan');
    const loanId = await api.createLoan({
      bankId,
      loanTypeId,
      accountNumber: 'AXESCREEN1',
      principal: 600000,
      rate: 9,
      months: 36,
      startDate: fifteenth(-3),
    });
    await api.createTransaction('Salary', 'C', fifteenth(0), 75000);
    await signInThroughUi(page, user);
    const heading = page.getByRole('main').getByRole('heading', { level: 1 }).first();
    for (const [path, name] of [
      [`/loans/${loanId}`, 'loan-details'],
      [`/loans/${loanId}/edit`, 'loan-edit'],
      [`/loans/${loanId}/amortization`, 'amortization'],
      [`/loans/${loanId}/certificate`, 'certificate'],
      ['/history', 'history'],
      ['/audits', 'audits-empty'],
    ] as const) {
      await page.goto(path);
      await expect(heading).toBeVisible();
      await captureScreen(page, name);
    }

    const details = new LoanDetailsPage(page);
    await details.goto(loanId);
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: /^History of loan/ });
    await expect(drawer.getByRole('listitem').first()).toBeVisible();
    await captureScreen(page, 'history-drawer', async () => {
      await expect(drawer.getByRole('listitem').first()).toBeVisible();
    });
    await page.keyboard.press('Escape');
    for (const [button, title] of [
      ['Part-payment', 'Part-payment'],
      ['Rate Change', 'Rate Change'],
      ['Foreclose', 'Foreclose Loan'],
    ] as const) {
      await details.change(button).click();
      await expect(details.dialog(title)).toBeVisible();
      await expectAccessible(page, `${title} dialog`);
      await page.keyboard.press('Escape');
      await expect(details.dialog(title)).toBeHidden();
    }
  });

  test('signed-in screens', async ({ page, request }) => {
    // Sixteen screens, each at two sizes with an axe run: minutes on a shared machine.
    test.setTimeout(400_000);
    const user = await createVerifiedUser(request, 'Priya');
    const login = new LoginPage(page);
    await login.goto();
    await login.signInAs(user.email, user.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    const shell = new AppShell(page);

    const screens = [
      ['/dashboard', 'dashboard'],
      ['/loans', 'loans'],
      ['/loans/create', 'loans-create'],
      ['/transactions', 'transactions'],
      ['/ledger', 'ledger'],
      ['/profile', 'profile'],
      ['/change-password', 'change-password'],
      ['/settings', 'settings'],
    ] as const;
    for (const [path, name] of screens) {
      await page.goto(path);
      // Part 2 of the web app fills these screens in; any main heading means the route rendered.
      await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible();
      await captureScreen(page, name);
    }

    // The dark theme (Settings → Appearance), which every screen must also read well in.
    await page.evaluate(() =>
      localStorage.setItem(
        'kosh.settings',
        JSON.stringify({ appearance: { darkMode: true, compactView: false } }),
      ),
    );
    for (const [path, name] of screens) {
      await page.goto(path);
      await expect(page.locator('body')).toHaveClass(/bp6-dark/);
      await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible();
      await captureScreen(page, `${name}-dark`);
    }
    await page.evaluate(() => localStorage.removeItem('kosh.settings'));

    await page.goto('/dashboard');
    await shell.userMenu.click();
    await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
    await captureScreen(page, 'user-menu', async () => {
      if (!(await page.getByRole('menuitem', { name: 'Logout' }).isVisible())) await shell.userMenu.click();
    });

    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 390, height: 844 });
    await shell.openNavigation.click();
    await expect(shell.navLink('Ledger View')).toBeVisible();
    await expectAccessible(page, 'open navigation at mobile size');
    await page.screenshot({ path: screenshotPath('navigation-open-mobile'), fullPage: true });
  });
});
