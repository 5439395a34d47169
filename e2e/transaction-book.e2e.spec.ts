import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { TransactionsPage } from './page-models/transactions-page';
import { MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

/**
 * 25 entries on 1..25 March 2025, entry i for ₹(i × 100): every fifth a 'Grocery run' debit,
 * other odd ones 'Freelance payment' credits, other even ones 'Utility bill' debits
 * (10 credits, 15 debits, 5 groceries).
 */
function entry(i: number): { notes: string; type: 'C' | 'D'; date: string; amount: number } {
  const date = `2025-03-${String(i).padStart(2, '0')}`;
  if (i % 5 === 0) return { notes: `Grocery run #${i}`, type: 'D', date, amount: i * 100 };
  if (i % 2 === 1) return { notes: `Freelance payment #${i}`, type: 'C', date, amount: i * 100 };
  return { notes: `Utility bill #${i}`, type: 'D', date, amount: i * 100 };
}

/** A new user's book of the 25 entries above, open at /transactions. */
async function bookOfTwentyFive(page: Page, request: APIRequestContext): Promise<TransactionsPage> {
  const user = await createVerifiedUser(request, 'Kiran');
  const api = await MoneyApi.signIn(request, user);
  for (let i = 1; i <= 25; i++) {
    const e = entry(i);
    await api.createTransaction(e.notes, e.type, e.date, e.amount);
  }
  await signInThroughUi(page, user);
  const book = new TransactionsPage(page);
  await book.goto();
  return book;
}

test('25 transactions: filters apply on Search or Enter, show as badges, clear, and every pagination edge', async ({
  page,
  request,
}) => {
  const book = await bookOfTwentyFive(page, request);

  // Newest first, 10 a page, the caption because there is more than one page.
  await expect(book.stat('Total Transactions')).toContainText('25');
  await expect(book.rows).toHaveCount(10);
  await expect(book.rows.first()).toContainText('Grocery run #25');
  await expect(book.rows.first()).toContainText('25 Mar 2025');
  await expect(book.caption).toHaveText('Showing 1 to 10 of 25 transactions');
  await expect(book.clearButton).toHaveCount(0);
  await expect(book.badges).toHaveCount(0);
  await expect(book.pageButton('First page')).toBeDisabled();
  await expect(book.pageButton('Previous page')).toBeDisabled();
  await expect(book.pageButton('Page 1')).toHaveAttribute('aria-current', 'page');

  // Every pagination edge: next, last, first, a numbered page, previous.
  await book.pageButton('Next page').click();
  await expect(book.caption).toHaveText('Showing 11 to 20 of 25 transactions');
  await expect(book.rows.first()).toContainText('Grocery run #15');
  await book.pageButton('Last page').click();
  await expect(book.caption).toHaveText('Showing 21 to 25 of 25 transactions');
  await expect(book.rows).toHaveCount(5);
  await expect(book.rows.last()).toContainText('Freelance payment #1');
  await expect(book.pageButton('Next page')).toBeDisabled();
  await expect(book.pageButton('Last page')).toBeDisabled();
  await book.pageButton('First page').click();
  await expect(book.caption).toHaveText('Showing 1 to 10 of 25 transactions');
  await book.pageButton('Page 2').click();
  await expect(book.caption).toHaveText('Showing 11 to 20 of 25 transactions');
  await book.pageButton('Previous page').click();
  await expect(book.caption).toHaveText('Showing 1 to 10 of 25 transactions');

  // A typed filter does nothing until Search; applying it returns to page 1 and shows a badge.
  await book.pageButton('Page 2').click();
  await expect(book.caption).toHaveText('Showing 11 to 20 of 25 transactions');
  await book.type.selectOption({ label: 'Debit' });
  // Clear undoes an applied filter: none while only typed (issue 13).
  await expect(book.clearButton).toHaveCount(0);
  await expect(book.badges).toHaveCount(0);
  await expect(book.caption).toHaveText('Showing 11 to 20 of 25 transactions');
  await book.searchButton.click();
  await expect(book.caption).toHaveText('Showing 1 to 10 of 15 transactions');
  await expect(book.badges).toHaveText(['Type: Debit']);
  await expect(book.rows.filter({ hasText: 'Credit' })).toHaveCount(0);

  // Enter in the search box applies the typed notes search; one page hides the caption.
  await book.search.fill('grocery');
  await expect(book.caption).toHaveText('Showing 1 to 10 of 15 transactions');
  await book.search.press('Enter');
  await expect(book.rows).toHaveCount(5);
  await expect(book.badges).toHaveText(['Search: grocery', 'Type: Debit']);
  await expect(book.caption).toHaveCount(0);
  await expect(book.pagination).toHaveCount(0);

  // Clear resets every filter and the page.
  await book.clearButton.click();
  await expect(book.caption).toHaveText('Showing 1 to 10 of 25 transactions');
  await expect(book.badges).toHaveCount(0);
  await expect(book.clearButton).toHaveCount(0);
  await expect(book.search).toHaveValue('');

  // Dates, inclusive at both ends.
  await book.dateFrom.fill('2025-03-05');
  await book.dateTo.fill('2025-03-09');
  await book.searchButton.click();
  await expect(book.rows).toHaveCount(5);
  await expect(book.rows.first()).toContainText('09 Mar 2025');
  await expect(book.rows.last()).toContainText('05 Mar 2025');
  await expect(book.badges).toHaveText(['From: 05 Mar 2025', 'To: 09 Mar 2025']);

  // Credits only within those dates.
  await book.type.selectOption({ label: 'Credit' });
  await book.searchButton.click();
  await expect(book.rows).toHaveCount(2);
  await expect(book.rows.filter({ hasText: '+₹900.00' })).toHaveCount(1);
  await expect(book.rows.filter({ hasText: '+₹700.00' })).toHaveCount(1);

  // Nothing found while filtered offers 'Clear all filters'.
  await book.search.fill('no such note');
  await book.search.press('Enter');
  await expect(book.table).toContainText('No transactions found');
  await page.getByRole('button', { name: 'Clear all filters' }).click();
  await expect(book.caption).toHaveText('Showing 1 to 10 of 25 transactions');
  await expect(book.badges).toHaveCount(0);
});

test('many pages: the first and last page with the pages within 2 of the current, and ellipses', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Nisha');
  const api = await MoneyApi.signIn(request, user);
  for (let i = 1; i <= 90; i++) {
    const day = `2024-${String(Math.ceil(i / 28)).padStart(2, '0')}-${String(((i - 1) % 28) + 1).padStart(2, '0')}`;
    await api.createTransaction(`Entry ${i}`, i % 2 ? 'C' : 'D', day, i);
  }
  await signInThroughUi(page, user);
  const book = new TransactionsPage(page);
  await book.goto();
  const pageNumbers = book.pagination.getByRole('button', { name: /^Page \d+$/ });
  const ellipses = book.pagination.getByText('…');

  await expect(book.caption).toHaveText('Showing 1 to 10 of 90 transactions');
  await expect(pageNumbers).toHaveText(['1', '2', '3', '9']);
  await expect(ellipses).toHaveCount(1);

  await book.pageButton('Page 3').click();
  await book.pageButton('Page 5').click();
  await expect(book.caption).toHaveText('Showing 41 to 50 of 90 transactions');
  await expect(pageNumbers).toHaveText(['1', '3', '4', '5', '6', '7', '9']);
  await expect(ellipses).toHaveCount(2);

  await book.pageButton('Last page').click();
  await expect(book.caption).toHaveText('Showing 81 to 90 of 90 transactions');
  await expect(pageNumbers).toHaveText(['1', '7', '8', '9']);
  await expect(ellipses).toHaveCount(1);
});

test('quick clicks on Previous while a page is still on its way move one page each', async ({
  page,
  request,
}) => {
  const book = await bookOfTwentyFive(page, request);
  await book.pageButton('Last page').click();
  await expect(book.caption).toHaveText('Showing 21 to 25 of 25 transactions');
  // Each page now takes 800 ms to come: the second click lands while the first is on its way.
  await page.route('**/api/transactions?**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await book.pageButton('Previous page').click();
  // At once, before its rows come: page 2 is the one asked for.
  await expect(book.pageButton('Page 2')).toHaveAttribute('aria-current', 'page', { timeout: 500 });
  await book.pageButton('Previous page').click();
  await expect(book.caption).toHaveText('Showing 1 to 10 of 25 transactions');
  await expect(book.rows.first()).toContainText('Grocery run #25');
  await expect(book.pageButton('Previous page')).toBeDisabled();
});
