import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { AmortizationPage } from './page-models/amortization-page';
import { HistoryPage } from './page-models/history-page';
import { LoanDetailsPage } from './page-models/loan-details-page';
import { LoanFormPage } from './page-models/loan-form-page';
import { fifteenth, MoneyApi, signInThroughUi } from './support/money';
import { screenshotPath, viewports } from './support/screens';
import { createVerifiedUser, type TestUser } from './support/users';

/**
 * Issue 28, item 2: on a 390 px phone no screen is wider than the screen (a table scrolls inside
 * its own region), the Loan Summary of a changed loan keeps each amount on one line, and the
 * create-loan preview leaves the form its room; at 1280 px no summary card breaks a figure.
 */

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** Lines a figure's text runs over (distinct tops of its text boxes), whatever its box's height. */
const linesOf = (locator: Locator) =>
  locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });

/** A ₹45 lakh home loan with GST, a part-payment and a rate reset (as in the issue). */
async function changedLoan(request: APIRequestContext): Promise<{ user: TestUser; loanId: string }> {
  const user = await createVerifiedUser(request, 'Ananya');
  const api = await MoneyApi.signIn(request, user);
  const bankId = await api.createBank('State Bank of India', 'Powai');
  const loanTypeId = await api.createLoanType('Home Loan');
  const loanId = await api.createLoan({
    bankId,
    loanTypeId,
    accountNumber: 'HOMEPHONE001',
    principal: 4500000,
    rate: 8.5,
    months: 240,
    startDate: fifteenth(-14),
    gstPercentage: 18,
  });
  const login = await request.post('/api/auth/login', {
    data: { email: user.email, password: user.password },
  });
  const headers = { Authorization: `Bearer ${(await login.json()).data.token}` };
  for (const [path, data] of [
    ['prepayments', { date: fifteenth(-6), amount: '250000', charge: '0', choice: 'reduce-tenure' }],
    ['rate-changes', { date: fifteenth(-3), annual_rate_percent: '9.25', option: 'increase-emi' }],
  ] as const) {
    const answer = await request.post(`/api/loans/${loanId}/${path}`, { headers, data });
    expect(answer.ok(), await answer.text()).toBe(true);
  }
  return { user, loanId };
}

test('at 390 px a changed loan: details, schedule and history fit the phone', async ({ page, request }) => {
  test.slow();
  const { user, loanId } = await changedLoan(request);
  await signInThroughUi(page, user);
  await page.setViewportSize(viewports.mobile);

  const details = new LoanDetailsPage(page);
  await details.goto(loanId);
  const summary = details.card('Loan Summary');
  await expect(summary).toContainText('EMI now (principal + interest)');
  for (const figure of await summary.locator('dd').all()) {
    const text = (await figure.innerText()).trim();
    // An amount never breaks; a value in words ("₹46,631.49 on 15 Dec 2026") may wrap between words.
    if (/^₹[\d,]+\.\d{2}$/.test(text)) expect(await linesOf(figure), text).toBe(1);
  }
  // Fourteen figures, each amount on one line (one digit per line made the card about 2,000 px).
  expect((await summary.boundingBox())?.height).toBeLessThan(1000);
  expect(await pageWidth(page)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: screenshotPath('issue28-loan-details-mobile'), fullPage: true });

  const schedule = new AmortizationPage(page);
  await schedule.goto(loanId);
  const versions = page.getByRole('table', { name: 'Schedule versions' });
  await expect(versions).toBeVisible();
  await expect(page.getByRole('heading', { name: /payments? differs?$/ })).toBeVisible();
  expect(await pageWidth(page)).toBeLessThanOrEqual(390);
  // Each wide table scrolls inside a region the keyboard can reach.
  for (const region of ['Schedule versions, scrollable', 'Differing payments'])
    await expect(page.getByRole('region', { name: region })).toHaveAttribute('tabindex', '0');
  await page.screenshot({ path: screenshotPath('issue28-amortization-mobile'), fullPage: true });

  const history = new HistoryPage(page);
  await page.goto('/history');
  await expect(history.heading).toBeVisible();
  await expect(history.entries.first()).toBeVisible();
  expect(await pageWidth(page)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: screenshotPath('issue28-history-mobile'), fullPage: true });
});

test('the create-loan preview takes two lines of a phone, not a fifth of it', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'Ananya');
  await signInThroughUi(page, user);
  await page.setViewportSize(viewports.mobile);
  const form = new LoanFormPage(page);
  await form.gotoCreate();
  await form.fill({ principal: '4500000', rate: '8.5', duration: '20', gst: '18' });
  await expect(form.previewEmi).not.toHaveText('₹0.00');
  const box = await form.preview.boundingBox();
  expect(box?.height).toBeLessThanOrEqual(viewports.mobile.height / 10);
  await expect(form.preview.getByText('First month’s outflow (EMI + GST)')).toBeVisible();
  expect(await pageWidth(page)).toBeLessThanOrEqual(390);
});

test('at 1280 px the amortization summary cards keep each figure whole', async ({ page, request }) => {
  const { user, loanId } = await changedLoan(request);
  await signInThroughUi(page, user);
  const schedule = new AmortizationPage(page);
  await schedule.goto(loanId);
  const values = page.locator('.kosh-stat-value');
  await expect(values.first()).toBeVisible();
  for (const value of await values.all()) expect(await linesOf(value), await value.innerText()).toBe(1);
});

test("at 390 px the accounts' total lines up under the balances, at the card's right edge", async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Ananya');
  const api = await MoneyApi.signIn(request, user);
  await api.createAccount('HDFC Savings', 113580.13, fifteenth(-1));
  await api.createAccount('Cash', 2500, fifteenth(-1));
  await signInThroughUi(page, user);
  await page.setViewportSize(viewports.mobile);
  await page.goto('/accounts');
  const table = page.getByRole('table').filter({ hasText: 'HDFC Savings' });
  const balance = table.locator('tbody td[data-label="Balance"]').first();
  const total = table.locator('tfoot th').filter({ hasText: '₹1,16,080.13' });
  await expect(total).toBeVisible();
  const right = async (cell: Locator) => {
    const box = await cell.boundingBox();
    return (box?.x ?? 0) + (box?.width ?? 0);
  };
  expect(Math.abs((await right(total)) - (await right(balance)))).toBeLessThanOrEqual(2);
  expect(await pageWidth(page)).toBeLessThanOrEqual(390);
});
