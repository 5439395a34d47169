import { expect, test } from '@playwright/test';
import { LoanFormPage } from './page-models/loan-form-page';
import { isoDate, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

test('a refused loan form takes the person to its first field in error, by click or by Enter', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Kavya');
  const api = await MoneyApi.signIn(request, user);
  await api.createBank('Focus Test Bank', 'Pune');
  await api.createLoanType('Focus Home Loan');
  await signInThroughUi(page, user);
  const form = new LoanFormPage(page);
  await form.gotoCreate();

  // The button is at the foot of a long form: the first field in error is at its head.
  await form.createLoan.click();
  await expect(form.errorOf(form.bank)).toHaveText('Bank selection is required');
  await expect(form.bank).toBeFocused();
  await expect(form.bank).toBeInViewport();

  // Enter in a valid field goes to the first field still in error, past the ones now right.
  await form.fill({
    bank: 'Focus Test Bank - Pune',
    loanType: 'Focus Home Loan',
    accountNumber: 'HDFC0012345',
  });
  await form.accountNumber.press('Enter');
  await expect(form.principal).toBeFocused();
  await expect(form.errorOf(form.principal)).toHaveText('Principal amount is required');
  // Typing on from there is not interrupted.
  await page.keyboard.type('5,00,000');
  await expect(form.principal).toHaveValue('5,00,000');
  await expect(form.principal).toBeFocused();

  // Every control writes in the page's font (a textarea wrote in monospace, inputs in Arial).
  const fonts = await page.evaluate(() =>
    [...document.querySelectorAll('main input[type="text"], main textarea, main select, main button')].map(
      (control) => getComputedStyle(control).fontFamily,
    ),
  );
  const pageFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  expect(fonts.length).toBeGreaterThan(5);
  expect(new Set(fonts)).toEqual(new Set([pageFont]));
});

test("the server's refusal moves focus to the field it names; typing elsewhere first keeps one's place", async ({
  page,
  request,
}) => {
  const owner = await createVerifiedUser(request, 'Meera');
  await signInThroughUi(page, owner);
  await page.goto('/profile');
  const section = page.getByRole('form', { name: 'Grant auditor access' });
  const email = section.getByLabel("Auditor's email");
  const until = section.getByLabel('Access until');
  await email.fill(owner.email);
  await until.fill(isoDate(new Date(Date.now() + 30 * 86_400_000)));
  await until.press('Enter');
  await expect(section.getByText('You cannot grant access to your own account')).toBeVisible();
  await expect(email).toBeFocused();

  // While a slow answer is on its way the person moves on: the answer does not pull them back.
  await page.route('**/api/audit-grants', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await email.fill(`${owner.email.toUpperCase()}`);
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/audit-grants'));
  await section.getByRole('button', { name: 'Grant access' }).click();
  await until.click();
  await page.keyboard.press('ArrowUp');
  expect((await answered).status()).toBe(422);
  await expect(section.getByText('You cannot grant access to your own account')).toBeVisible();
  await expect(until).toBeFocused();
});
