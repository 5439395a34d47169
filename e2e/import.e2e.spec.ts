import { expect, type Locator, test } from '@playwright/test';
import { signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

const HEADER = 'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance';
/** An HDFC statement whose balances start ₹100 above the account's opening balance (₹10,000). */
const STATEMENT = [
  'HDFC BANK Ltd.',
  'Statement of account',
  '',
  HEADER,
  '01/03/25,UPI-SWIGGY-swiggy@axisbank-UTIB0000000-527411112222-Dinner,0000527411112222,01/03/25,527.00,,9573.00',
  '02/03/25,NEFT CR-HDFC0000001-ACME PAYROLL LTD-SALARY MAR,HDFCN52025030200001,02/03/25,,"85,000.00","94,573.00"',
  '03/03/25,POS 416021XXXXXX1234 BIG BAZAAR HYPERMARKET PHOENIX MARKETCITY KURLA WEST MUMBAI MAHARASHTRA,0000000000000301,03/03/25,"2,340.50",,"92,232.50"',
  '',
].join('\r\n');

/** The decisions whose chosen word does not fit their box (they showed "Impor"). */
async function clippedDecisions(table: Locator): Promise<string[]> {
  return table.locator('select').evaluateAll((selects) =>
    selects.flatMap((select) => {
      const s = select as HTMLSelectElement;
      const style = getComputedStyle(s);
      const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room =
        s.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      const word = s.selectedOptions[0]?.text ?? '';
      return context.measureText(word).width > room ? [`${word}: ${room.toFixed(0)} px`] : [];
    }),
  );
}

test('import a statement: file and account, preview with statuses and a filter, balance confirmation, commit, undo', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Ishita');
  const login = await request.post('/api/auth/login', {
    data: { email: user.email, password: user.password },
  });
  const token = (await login.json()).data.token as string;
  const account = await request.post('/api/accounts', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name: 'HDFC Savings',
      kind: 'savings',
      bank_name: 'HDFC Bank',
      last_four: '4321',
      opening_balance: '10000',
      opening_date: '2025-02-01',
    },
  });
  expect(account.ok(), await account.text()).toBe(true);
  await signInThroughUi(page, user);

  await page.getByRole('link', { name: 'Import' }).first().click();
  await expect(page).toHaveURL(/\/import$/);
  await expect(page.getByLabel('Account')).toContainText('HDFC Savings');
  await page
    .getByLabel('Statement file')
    .setInputFiles({ name: 'march.csv', mimeType: 'text/csv', buffer: Buffer.from(STATEMENT) });
  await page.getByRole('button', { name: 'Read statement' }).click();

  await expect(page.getByText('Detected: CSV, HDFC Bank layout (header on line 4) · 3 rows')).toBeVisible();
  const table = page.locator('.kosh-import-table');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(table).toContainText('UPI · Swiggy · 527411112222');
  await expect(page.getByText("The statement's balance differs from the account's")).toBeVisible();
  await expect(page.getByText('First at line 5')).toContainText('₹100.00');

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'screenshots/import-preview-1280.png', fullPage: true });
  expect(await clippedDecisions(table)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'screenshots/import-preview-390.png', fullPage: true });
  expect(await clippedDecisions(table)).toEqual([]);
  // Nothing wider than the phone: the table scrolls in its own box.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The status filter.
  await page.getByLabel('Show').selectOption('duplicate');
  await expect(table.locator('tbody tr')).toHaveCount(0);
  await page.getByLabel('Show').selectOption('new');
  await expect(table.locator('tbody tr')).toHaveCount(3);

  // Skip one row, by keyboard.
  const decision = page.getByLabel('Import line 7');
  await decision.focus();
  await decision.selectOption('skip');
  await expect(decision).toHaveValue('skip');

  const commit = page.getByRole('button', { name: /^Import \d+ rows$/ });
  await expect(commit).toBeDisabled();
  await page.getByText('The balance differs: record these rows anyway').click();
  await commit.click();
  await expect(page.getByText('Import summary')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '2 transactions imported' })).toBeVisible();

  const book = await request.get('/api/transactions?limit=10', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect((await book.json()).data.transactions).toHaveLength(2);

  await page.getByRole('button', { name: 'Undo import' }).click();
  await expect(page.getByText('Import undone: 2 transactions removed')).toBeVisible();
  const after = await request.get('/api/transactions?limit=10', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect((await after.json()).data.transactions).toHaveLength(0);
});
