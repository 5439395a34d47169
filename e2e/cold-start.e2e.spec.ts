import { expect, type Page, test } from '@playwright/test';
import { AmortizationPage } from './page-models/amortization-page';
import { LedgerPage } from './page-models/ledger-page';
import { TransactionsPage } from './page-models/transactions-page';
import { fifteenth, isoDate, MoneyApi, signInThroughUi } from './support/money';
import { createVerifiedUser } from './support/users';

type DataCall = { name: string; matches: (url: URL) => boolean };

/**
 * Opens `path` in a fresh load of the app (signed in, token stored) while the session check (the
 * profile request) is held until the screen's own data requests have gone out, for at most 5 s.
 * Returns the data calls the screen made while the profile was still unanswered.
 */
async function openWhileSessionIsChecked(page: Page, path: string, calls: DataCall[]): Promise<string[]> {
  const seen = new Set<string>();
  let allSeen: () => void = () => undefined;
  const everyCallSent = new Promise<void>((resolve) => {
    allSeen = resolve;
  });
  let profileReleased: (names: string[]) => void = () => undefined;
  const sentWhileChecking = new Promise<string[]>((resolve) => {
    profileReleased = resolve;
  });
  const onRequest = (request: { url(): string }) => {
    const url = new URL(request.url());
    for (const call of calls) if (call.matches(url)) seen.add(call.name);
    if (seen.size === calls.length) allSeen();
  };
  page.on('request', onRequest);
  await page.route(
    '**/api/auth/profile',
    async (route) => {
      await Promise.race([everyCallSent, new Promise((resolve) => setTimeout(resolve, 5000))]);
      profileReleased([...seen].sort());
      await route.continue();
    },
    { times: 1 },
  );
  await page.goto(path);
  const sent = await sentWhileChecking;
  page.off('request', onRequest);
  return sent;
}

test('a cold start on a money screen asks for its data alongside the session check, not after it', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Meera');
  const api = await MoneyApi.signIn(request, user);
  const bank = await api.createBank('Cold Start Bank', 'Mumbai');
  const type = await api.createLoanType('Cold Start Loan');
  const loanId = await api.createLoan({
    bankId: bank,
    loanTypeId: type,
    accountNumber: 'COLD00001',
    principal: 240000,
    rate: 9,
    months: 24,
    startDate: fifteenth(-1),
  });
  await api.createTransaction('Cold start salary', 'C', isoDate(new Date()), 50000);
  await signInThroughUi(page, user);

  const book = new TransactionsPage(page);
  const bookCalls = await openWhileSessionIsChecked(page, '/transactions', [
    { name: 'list', matches: (url) => url.pathname === '/api/transactions' },
    { name: 'stats', matches: (url) => url.pathname === '/api/transactions/stats' },
  ]);
  expect(bookCalls).toEqual(['list', 'stats']);
  await expect(book.rows.filter({ hasText: 'Cold start salary' })).toBeVisible();

  const now = new Date();
  const ledger = new LedgerPage(page);
  const ledgerCalls = await openWhileSessionIsChecked(page, '/ledger', [
    { name: 'periods', matches: (url) => url.pathname === '/api/ledger/periods' },
    {
      name: 'this month',
      matches: (url) =>
        url.pathname === '/api/ledger' &&
        url.searchParams.get('month') === String(now.getMonth() + 1) &&
        url.searchParams.get('year') === String(now.getFullYear()),
    },
  ]);
  expect(ledgerCalls).toEqual(['periods', 'this month']);
  await expect(ledger.creditTable).toContainText('Cold start salary');

  const schedule = new AmortizationPage(page);
  const scheduleCalls = await openWhileSessionIsChecked(page, `/loans/${loanId}/amortization`, [
    { name: 'loan', matches: (url) => url.pathname === `/api/loans/${loanId}` },
    { name: 'schedule', matches: (url) => url.pathname === `/api/loans/${loanId}/amortization` },
  ]);
  expect(scheduleCalls).toEqual(['loan', 'schedule']);
  await expect(schedule.rows).toHaveCount(24);

  const dashboardCalls = await openWhileSessionIsChecked(page, '/dashboard', [
    { name: 'stats', matches: (url) => url.pathname === '/api/loans/stats' },
    { name: 'loans', matches: (url) => url.pathname === '/api/loans' },
  ]);
  expect(dashboardCalls).toEqual(['loans', 'stats']);
  await expect(page.getByRole('region', { name: 'Your loans today' })).toContainText('COLD00001');
});

test('a cold start asks for each of its first reads once: the answers sent for before the app loaded are the ones shown', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Kavya');
  const api = await MoneyApi.signIn(request, user);
  await api.createTransaction('Early salary', 'C', isoDate(new Date()), 75000);
  await signInThroughUi(page, user);

  for (const [path, shown, text] of [
    ['/dashboard', () => page.getByRole('group', { name: 'Total Loans', exact: true }), '0'],
    ['/ledger', () => new LedgerPage(page).creditTable, 'Early salary'],
    [
      '/transactions',
      () => new TransactionsPage(page).rows.filter({ hasText: 'Early salary' }),
      'Early salary',
    ],
  ] as const) {
    const reads = new Map<string, number>();
    const onRequest = (sent: { url(): string; method(): string }) => {
      const url = new URL(sent.url());
      if (sent.method() === 'GET' && url.pathname.startsWith('/api/')) {
        const key = url.pathname + url.search;
        reads.set(key, (reads.get(key) ?? 0) + 1);
      }
    };
    // The page before (the dashboard signing in lands on, the previous screen) is left first: its
    // reads still on their way are not this cold start's (they made the test flaky under load).
    await page.goto('about:blank');
    page.on('request', onRequest);
    await page.goto(path);
    await expect(shown()).toContainText(text);
    page.off('request', onRequest);
    expect([...reads.keys()]).toContain('/api/auth/profile');
    const repeated = [...reads].filter(([, times]) => times > 1);
    expect(repeated, `${path}: reads sent more than once`).toEqual([]);
  }
});
