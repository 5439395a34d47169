import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import type { Mail } from './support/mailbox';
import { fifteenth, isoDate, MoneyApi, signInThroughUi } from './support/money';
import { captureScreen } from './support/screens';
import { createVerifiedUser, type TestUser } from './support/users';

/** Issue 14, item 5 (web): an owner grants an auditor read-only access, then revokes it. */

/** The path of the newest grant mail to `to` (it links to /audits on the configured app URL). */
async function auditLinkFromMail(request: APIRequestContext, to: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await request.get('/dev/mailbox.json')).json()) as Mail[];
        link = mails
          .filter((mail) => mail.to.toLowerCase() === to.toLowerCase())
          .map((mail) => /https?:\/\/[^\s"<>]+\/audits\b/.exec(mail.text)?.[0])
          .find(Boolean);
        return link;
      },
      { message: `a grant mail to ${to}`, timeout: 15_000 },
    )
    .toBeTruthy();
  return new URL(link as string).pathname;
}

async function signedInPage(browser: Browser, user: TestUser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInThroughUi(page, user);
  return page;
}

test('an auditor reads the owner’s ledger and loans read-only until the owner revokes the grant', async ({
  page,
  request,
  browser,
}) => {
  test.slow();
  const owner = await createVerifiedUser(request, 'Rohan');
  const auditor = await createVerifiedUser(request, 'Priya');
  const api = await MoneyApi.signIn(request, owner);
  const bankId = await api.createBank('Audit Trust Bank', 'Pune');
  const loanTypeId = await api.createLoanType('Audit Car Loan');
  await api.createLoan({
    bankId,
    loanTypeId,
    accountNumber: 'AUD000777',
    principal: 200000,
    rate: 10,
    months: 12,
    startDate: fifteenth(-2),
  });
  await api.createTransaction('Office rent', 'D', fifteenth(0), 1800);

  // The owner grants access on /profile: the server's 422 lands on its field first.
  await signInThroughUi(page, owner);
  await page.goto('/profile');
  const section = page.getByRole('form', { name: 'Grant auditor access' });
  await section.getByLabel("Auditor's email").fill(owner.email);
  await section.getByLabel('Access until').fill(isoDate(new Date(Date.now() + 30 * 86_400_000)));
  await section.getByRole('button', { name: 'Grant access' }).click();
  await expect(section.getByText('You cannot grant access to your own account')).toBeVisible();
  await section.getByLabel("Auditor's email").fill(auditor.email);
  await section.getByRole('button', { name: 'Grant access' }).click();
  await expect(page.getByText(`Access granted. We sent a link to ${auditor.email}.`)).toBeVisible();
  const grants = page.getByRole('table', { name: 'Auditor grants' });
  const row = grants.getByRole('row').filter({ hasText: auditor.email });
  await expect(row).toContainText('active');
  await captureScreen(page, 'auditor-access', async () => {
    await expect(row).toBeVisible();
  });

  // The auditor follows the mail's link to /audits and opens the owner's account.
  const path = await auditLinkFromMail(request, auditor.email);
  expect(path).toBe('/audits');
  const auditorPage = await signedInPage(browser, auditor);
  // Signing in lands on the dashboard, which points to the shared account too.
  await expect(auditorPage.getByText('Rohan Verma shared their account with you, read-only.')).toBeVisible();
  await auditorPage.goto(path);
  const shared = auditorPage.getByRole('region', { name: 'Accounts shared with you' });
  await captureScreen(auditorPage, 'audits', async () => {
    await expect(shared.getByRole('row').filter({ hasText: 'Rohan Verma' })).toBeVisible();
  });
  await shared.getByRole('button', { name: "Open Rohan Verma's account" }).click();
  await expect(auditorPage).toHaveURL(/\/ledger$/);
  const banner = auditorPage.getByText(
    /^Viewing Rohan Verma's account, read-only \(until \d{2} \w{3} \d{4}\)$/,
  );
  await expect(banner).toBeVisible();
  await expect(auditorPage.getByRole('table', { name: 'Debit entries' })).toContainText('Office rent');
  await captureScreen(auditorPage, 'audit-banner-ledger', async () => {
    await expect(banner).toBeVisible();
  });

  // A reload stays in audit mode; no screen offers a write.
  await auditorPage.goto('/loans');
  await expect(banner).toBeVisible();
  await expect(auditorPage.getByRole('table', { name: 'Loans' })).toContainText('AUD000777');
  await expect(auditorPage.getByRole('button', { name: 'Create New Loan' })).toHaveCount(0);
  await expect(auditorPage.getByRole('button', { name: /^Delete loan/ })).toHaveCount(0);
  await expect(auditorPage.getByRole('button', { name: /^Edit loan/ })).toHaveCount(0);
  await auditorPage.getByRole('button', { name: /^View loan AUD000777/ }).click();
  await expect(auditorPage.getByRole('heading', { name: 'Loan Details', level: 1 })).toBeVisible();
  await expect(auditorPage.getByRole('button', { name: 'Edit Loan' })).toHaveCount(0);
  await expect(auditorPage.getByRole('toolbar', { name: 'Loan changes' })).toHaveCount(0);
  await auditorPage.goto('/transactions');
  await expect(auditorPage.getByRole('table', { name: 'Transactions' })).toContainText('Office rent');
  await expect(auditorPage.getByRole('button', { name: 'Add Transaction' })).toHaveCount(0);
  await expect(auditorPage.getByRole('button', { name: /^(Edit|Delete) transaction/ })).toHaveCount(0);
  await auditorPage.goto('/loans/create');
  await expect(auditorPage.getByText('Read-only', { exact: true })).toBeVisible();

  // The owner revokes (after confirming); the auditor's next load says access has ended.
  await page.setViewportSize({ width: 1280, height: 800 });
  await row.getByRole('button', { name: `Revoke access of ${auditor.email}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Access revoked')).toBeVisible();
  await expect(row).toContainText('revoked');
  await expect(row.getByRole('button', { name: /Revoke/ })).toHaveCount(0);

  await auditorPage.goto('/ledger');
  await expect(auditorPage.getByText("Your access to Rohan Verma's account has ended")).toBeVisible();
  await expect(auditorPage.getByText('You do not have access to this account').first()).toBeVisible();
  await expect(auditorPage.getByText('Office rent')).toHaveCount(0);
  await auditorPage.getByRole('button', { name: 'Leave' }).click();
  await expect(auditorPage).toHaveURL(/\/audits$/);
  await expect(auditorPage.getByText('No account is shared with you')).toBeVisible();
  await expect(auditorPage.getByText(/^Viewing /)).toHaveCount(0);
  // Back in their own account: their own (empty) ledger, no banner.
  await auditorPage.goto('/transactions');
  await expect(auditorPage.getByRole('button', { name: 'Add Transaction' })).toBeVisible();
});

test('a grant with an as-of limit shows the account as it was then, and says so in the banner', async ({
  page,
  request,
}) => {
  const owner = await createVerifiedUser(request, 'Kiran');
  const auditor = await createVerifiedUser(request, 'Dev');
  const api = await MoneyApi.signIn(request, owner);
  await api.createTransaction('Recorded today', 'C', fifteenth(0), 900);
  const yesterday = isoDate(new Date(Date.now() - 86_400_000));
  const login = await request.post('/api/auth/login', {
    data: { email: owner.email, password: owner.password },
  });
  const granted = await request.post('/api/audit-grants', {
    headers: { Authorization: `Bearer ${(await login.json()).data.token}` },
    data: {
      email: auditor.email,
      expires_at: isoDate(new Date(Date.now() + 7 * 86_400_000)),
      as_of_limit: yesterday,
    },
  });
  expect(granted.status(), await granted.text()).toBe(201);

  await signInThroughUi(page, auditor);
  await page.goto('/audits');
  await page.getByRole('button', { name: "Open Kiran Verma's account" }).click();
  await expect(
    page.getByText(
      /^Viewing Kiran Verma's account, read-only \(until \d{2} \w{3} \d{4}\), as it stood at the end of \d{2} \w{3} \d{4}$/,
    ),
  ).toBeVisible();
  await page.goto('/transactions');
  // Recorded after the limit: the auditor's book is empty, though the owner's live one is not.
  await expect(page.getByText('No transactions found')).toBeVisible();
  await expect(page.getByText('Recorded today')).toHaveCount(0);
});
