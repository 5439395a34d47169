import { expect, type Page, test } from '@playwright/test';
import { TransactionsPage } from './page-models/transactions-page';
import { MoneyApi, signInThroughUi } from './support/money';
import { captureScreen as captureAt } from './support/screens';
import { createVerifiedUser } from './support/users';

/** Toasts closed (they would cover the table), then the screen at both sizes. */
async function captureScreen(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  await captureAt(page, name, async () => {
    await ready();
    // Toasts close themselves too: close whichever is still there, one at a time.
    for (let i = 0; i < 10 && (await page.locator('.bp6-toast').count()) > 0; i++) {
      await page
        .locator('.bp6-toast')
        .getByRole('button')
        .first()
        .click({ timeout: 2000 })
        .catch(() => {});
    }
    await expect(page.locator('.bp6-toast')).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 0));
  });
}

/**
 * Issue 31: categorising a transaction by hand, a rule made from it, applied to existing entries
 * after a dry-run preview; the categories screen's tree, a merge. Keyboard where it matters.
 */
test('categorise a transaction, make a rule from it, apply it to existing entries', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const user = await createVerifiedUser(request, 'Kavya');
  const api = await MoneyApi.signIn(request, user);
  await api.createTransaction('Swiggy order 1142', 'D', '2025-03-04', 450);
  await api.createTransaction('swiggy instamart', 'D', '2025-03-06', 1210.5);
  await api.createTransaction('Electricity bill', 'D', '2025-03-07', 2300);
  await signInThroughUi(page, user);

  // Categorise one by hand, from the book's edit dialog.
  const book = new TransactionsPage(page);
  await book.goto();
  await book
    .row('Swiggy order 1142')
    .getByRole('button', { name: 'Edit transaction Swiggy order 1142' })
    .click();
  const form = book.dialog;
  await form.getByLabel('Category').selectOption({ label: 'Expense · Food › Dining out' });
  await form.getByLabel('Payee').fill('Swiggy');
  await form.getByRole('button', { name: 'Update Transaction' }).click();
  await expect(form).toHaveCount(0);
  await expect(book.row('Swiggy order 1142')).toContainText('Food › Dining out');
  await expect(book.row('Swiggy order 1142')).toContainText('Swiggy');

  // The book offers a rule made from it.
  const offer = page.getByRole('button', { name: 'Make a rule from this' });
  await expect(offer).toBeVisible();
  await captureScreen(page, 'categorised-transaction', async () => {
    await expect(offer).toBeVisible();
  });
  await offer.focus();
  await page.keyboard.press('Enter');
  const ruleForm = page.getByRole('dialog', { name: 'New Rule' });
  await expect(ruleForm.getByLabel('Contains text')).toHaveValue('Swiggy');
  await expect(ruleForm.getByLabel('Category')).toHaveValue(/.+/);
  // A pattern that could run away is refused, by the form and by the server alike.
  await ruleForm.getByLabel('Or matches pattern').fill('(a+)+');
  await ruleForm.getByRole('button', { name: 'Create Rule' }).click();
  await expect(ruleForm.getByText(/Pattern could run away/)).toBeVisible();
  await ruleForm.getByLabel('Or matches pattern').fill('');
  await ruleForm.getByRole('button', { name: 'Create Rule' }).click();
  await expect(ruleForm).toHaveCount(0);

  // The rules screen: apply to existing entries, with the dry run first.
  await page.getByRole('link', { name: 'Rules' }).first().click();
  await expect(page.getByRole('heading', { name: 'Rules', level: 1 })).toBeVisible();
  const rules = page.getByRole('table', { name: 'Rules' });
  await expect(rules.locator('tbody tr')).toHaveCount(1);
  await captureScreen(page, 'rules', async () => {
    await expect(rules).toContainText('contains “Swiggy”');
  });
  await rules.getByRole('button', { name: /^Apply rule .* to existing entries$/ }).click();
  const apply = page.getByRole('dialog', { name: /to existing entries/ });
  await expect(apply.getByText('1 transaction would change:')).toBeVisible();
  await expect(apply.getByRole('table', { name: 'Rule preview' })).toContainText('swiggy instamart');
  await captureScreen(page, 'rule-dry-run', async () => {
    await expect(apply.getByRole('table', { name: 'Rule preview' })).toBeVisible();
  });
  await apply.getByRole('button', { name: 'Apply to 1 transaction' }).click();
  await expect(apply).toHaveCount(0);
  await expect(rules.locator('tbody tr').first()).toContainText('1');

  // The book follows: both Swiggy rows are in Dining out; the category filter finds them.
  await book.goto();
  await expect(book.row('swiggy instamart')).toContainText('Food › Dining out');
  await expect(book.row('Electricity bill')).not.toContainText('Dining out');
  await page.getByLabel('Category', { exact: true }).selectOption({ label: 'Expense · Food › Dining out' });
  await book.searchButton.click();
  await expect(book.badges).toHaveText(['Category: Food › Dining out']);
  await expect(book.rows).toHaveCount(2);
  await captureScreen(page, 'book-by-category', async () => {
    await expect(book.rows).toHaveCount(2);
  });

  // The categories screen: the tree, and a merge that moves both transactions at once.
  await page.getByRole('link', { name: 'Categories' }).first().click();
  const expense = page.getByRole('table', { name: 'Expense categories' });
  await expect(
    expense
      .getByRole('row', { name: /Dining out/ })
      .getByRole('cell')
      .nth(1),
  ).toHaveText('2');
  await expect(expense.getByRole('row', { name: /Loan EMI/ })).toContainText('System');
  await captureScreen(page, 'categories', async () => {
    await expect(expense).toBeVisible();
  });
  await expense.getByRole('button', { name: 'Merge category Dining out' }).click();
  const merge = page.getByRole('dialog', { name: 'Merge Category' });
  await merge.getByLabel('Move transactions to').selectOption({ label: 'Food › Groceries' });
  await merge.getByRole('button', { name: 'Merge Category' }).click();
  await expect(merge).toHaveCount(0);
  await expect(expense.getByRole('row', { name: /Dining out/ })).toHaveCount(0);
  await expect(
    expense
      .getByRole('row', { name: /Groceries/ })
      .getByRole('cell')
      .nth(1),
  ).toHaveText('2');
});

test("an import's preview shows what the rules propose for each row", async ({ page, request }) => {
  test.setTimeout(90_000);
  const user = await createVerifiedUser(request, 'Rohan');
  const api = await MoneyApi.signIn(request, user);
  const login = await request.post('/api/auth/login', {
    data: { email: user.email, password: user.password },
  });
  const headers = { Authorization: `Bearer ${(await login.json()).data.token}` };
  const tree = await api.get<{ categories: { id: string; name: string }[] }>('/categories');
  const dining = tree.categories.find((c) => c.name === 'Dining out')?.id;
  const rule = await request.post('/api/rules', {
    headers,
    data: { name: 'Food delivery', match_pattern: 'swig+y|zomato', category_id: dining, payee: 'Swiggy' },
  });
  expect(rule.ok(), await rule.text()).toBe(true);
  const account = await request.post('/api/accounts', {
    headers,
    data: { name: 'HDFC Savings', kind: 'savings', opening_balance: '10000', opening_date: '2025-02-01' },
  });
  expect(account.ok(), await account.text()).toBe(true);
  await signInThroughUi(page, user);
  await page.getByRole('link', { name: 'Import' }).first().click();
  await expect(page.getByLabel('Account')).toContainText('HDFC Savings');
  const statement = [
    'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
    '01/03/25,UPI-SWIGGY-swiggy@axisbank-UTIB0000000-527411112222-Dinner,0000527411112222,01/03/25,527.00,,9473.00',
    '03/03/25,POS 416021XXXXXX1234 BIG BAZAAR,0000000000000301,03/03/25,"2,340.50",,"7,132.50"',
    '',
  ].join('\r\n');
  await page
    .getByLabel('Statement file')
    .setInputFiles({ name: 'march.csv', mimeType: 'text/csv', buffer: Buffer.from(statement) });
  await page.getByRole('button', { name: 'Read statement' }).click();
  const rows = page.locator('.kosh-import-table tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Rule: Food › Dining out · payee Swiggy');
  await expect(rows.nth(1)).not.toContainText('Rule:');
  await captureScreen(page, 'import-rule-proposals', async () => {
    await expect(rows.nth(0)).toContainText('Rule:');
  });
});
