import { readFile, writeFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { AsOfMode } from './page-models/history-page';
import { ProfilePage } from './page-models/profile-page';
import { isoDate, MoneyApi, signInThroughUi } from './support/money';
import { captureScreen } from './support/screens';
import { createVerifiedUser } from './support/users';

/** Issue 14, item 6: the export and verify buttons on /profile; as-of mode on the loan screens. */

function yesterday(): string {
  return isoDate(new Date(Date.now() - 24 * 60 * 60 * 1000));
}

test('profile: download the signed history export, verify it in the browser, and see an altered line named', async ({
  page,
  request,
}, testInfo) => {
  const user = await createVerifiedUser(request, 'Farhan');
  const api = await MoneyApi.signIn(request, user);
  await api.createTransaction('Salary', 'C', isoDate(new Date()), 85000);
  await api.createTransaction('Groceries', 'D', isoDate(new Date()), 2400.5);
  await signInThroughUi(page, user);
  const profile = new ProfilePage(page);
  await profile.goto();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download history export' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.jsonl$/);
  const original = testInfo.outputPath('history.jsonl');
  await download.saveAs(original);
  const lines = (await readFile(original, 'utf8')).trimEnd().split('\n');
  // Register, verify e-mail, two transactions, then the signed summary.
  expect(lines.length).toBeGreaterThanOrEqual(5);

  const file = page.getByLabel('Verify an export');
  const result = page.getByRole('status').filter({ hasText: /Export|Checking/ });
  await file.setInputFiles(original);
  await expect(result).toContainText('Export OK');
  await expect(result).toContainText('no line was altered, removed or reordered');

  // The groceries line with another amount: the chain breaks exactly there.
  const at = lines.findIndex((line) => line.includes('Groceries'));
  expect(at).toBeGreaterThan(0);
  const altered = testInfo.outputPath('altered.jsonl');
  await writeFile(
    altered,
    [...lines.slice(0, at), lines[at]!.replace('240050', '24005'), ...lines.slice(at + 1)].join('\n'),
  );
  expect(await readFile(altered, 'utf8')).not.toBe(await readFile(original, 'utf8'));
  await file.setInputFiles(altered);
  await expect(result).toContainText(`Export altered at line ${at + 1}`);
  await captureScreen(page, 'profile-export-altered', async () => {
    await expect(result).toBeVisible();
  });

  // A removed line is named too.
  const removed = testInfo.outputPath('removed.jsonl');
  await writeFile(removed, [...lines.slice(0, 1), ...lines.slice(2)].join('\n'));
  await file.setInputFiles(removed);
  await expect(result).toContainText('Export altered at line 2');
});

test('as of a past date on the loans list, loan details and schedule: read-only, the past shown, back to today', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Lakshmi');
  const api = await MoneyApi.signIn(request, user);
  const bankId = await api.createBank('Kosh As-of Bank', 'Mysuru');
  const loanTypeId = await api.createLoanType('As-of Loan');
  const loanId = await api.createLoan({
    bankId,
    loanTypeId,
    accountNumber: 'ASOF0001',
    principal: 300000,
    rate: 9,
    months: 24,
    startDate: '2025-01-10',
  });
  await signInThroughUi(page, user);
  const asOf = new AsOfMode(page);
  const past = yesterday();

  await page.goto('/loans');
  await expect(page.getByText('ASOF0001')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create New Loan' })).toBeVisible();
  await asOf.choose(past);
  await expect(page).toHaveURL(new RegExp(`/loans\\?as_of=${past}$`));
  await expect(asOf.banner).toBeVisible();
  // Created today, so yesterday there was no loan, and nothing can be added to the past.
  await expect(page.getByText('No loans found')).toBeVisible();
  await expect(page.getByText('ASOF0001')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Create New Loan' })).toHaveCount(0);
  await asOf.backToToday.click();
  await expect(page.getByText('ASOF0001')).toBeVisible();

  // The loan did not exist yet on that day: the screens say so (issue 28), not 'Loan not found'.
  await page.goto(`/loans/${loanId}?as_of=${past}`);
  await expect(asOf.banner).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Not in your loans on / })).toBeVisible();
  await page.goto(`/loans/${loanId}/amortization?as_of=${past}`);
  await expect(asOf.banner).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Not in your loans on / })).toBeVisible();

  // As of today the details are the live ones, with their actions.
  await page.goto(`/loans/${loanId}`);
  await expect(page.getByText('ASOF0001').first()).toBeVisible();
  await expect(asOf.banner).toBeHidden();
});
