import { type APIRequestContext, expect, test } from '@playwright/test';
import { AppShell } from './page-models/app-shell';
import { isoDate, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser, type TestUser } from './support/users';

/**
 * Issue 28, item 9 (web): in audit mode the dashboard names whose figures they are, the banner
 * ends as soon as the grant is revoked (without a reload), and an as-of limit is stated as the
 * grant set it.
 */

async function grant(request: APIRequestContext, owner: TestUser, auditor: TestUser, asOfLimit?: string) {
  const login = await request.post('/api/auth/login', {
    data: { email: owner.email, password: owner.password },
  });
  const headers = { Authorization: `Bearer ${(await login.json()).data.token}` };
  const granted = await request.post('/api/audit-grants', {
    headers,
    data: {
      email: auditor.email,
      expires_at: isoDate(new Date(Date.now() + 7 * 86_400_000)),
      ...(asOfLimit ? { as_of_limit: asOfLimit } : {}),
    },
  });
  expect(granted.status(), await granted.text()).toBe(201);
  const id = (await granted.json()).data.grant.id as string;
  return {
    revoke: async () => {
      const revoked = await request.delete(`/api/audit-grants/${id}`, { headers });
      expect(revoked.ok(), await revoked.text()).toBe(true);
    },
  };
}

test('an auditor sees the owner named on the dashboard, and the banner ends when the grant is revoked', async ({
  page,
  request,
}) => {
  const owner = await createVerifiedUser(request, 'Rohan');
  const auditor = await createVerifiedUser(request, 'Priya');
  const api = await MoneyApi.signIn(request, owner);
  await api.createTransaction('Office rent', 'D', isoDate(new Date()), 1800);
  const access = await grant(request, owner, auditor);

  await signInThroughUi(page, auditor);
  await page.goto('/audits');
  await page.getByRole('button', { name: "Open Rohan Verma's account" }).click();
  await expect(page).toHaveURL(/\/ledger$/);
  const shell = new AppShell(page);
  await shell.navLink('Dashboard').click();
  await expect(page.getByRole('heading', { name: "Rohan Verma's dashboard", level: 1 })).toBeVisible();
  await expect(page.getByText(/Welcome back/)).toHaveCount(0);

  await access.revoke();
  // The next screen, reached inside the app (no reload), already knows.
  await shell.navLink('Transaction Book').click();
  await expect(page.getByText("Your access to Rohan Verma's account has ended")).toBeVisible();
  await expect(page.getByText(/^Viewing Rohan Verma's account/)).toHaveCount(0);
  await expect(page.getByText('Office rent')).toHaveCount(0);
});

test('an as-of limit with a time is stated with that time', async ({ page, request }) => {
  const owner = await createVerifiedUser(request, 'Kiran');
  const auditor = await createVerifiedUser(request, 'Dev');
  const yesterday = isoDate(new Date(Date.now() - 86_400_000));
  await grant(request, owner, auditor, `${yesterday}T15:30`);
  await signInThroughUi(page, auditor);
  await page.goto('/audits');
  await page.getByRole('button', { name: "Open Kiran Verma's account" }).click();
  await expect(
    page.getByText(
      /^Viewing Kiran Verma's account, read-only \(until \d{2} \w{3,4} \d{4}\), as it stood at \d{2} \w{3,4} \d{4}, 3:30 pm India time$/,
    ),
  ).toBeVisible();
});
