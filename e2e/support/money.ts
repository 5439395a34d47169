import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { LoginPage } from '../page-models/login-page';
import type { TestUser } from './users';

/** Business dates relative to today, as `YYYY-MM-DD` (the browser and the test share the clock). */
export function isoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The 15th of the month `offset` months from now (safe from month-end clamping). */
export function fifteenth(offset: number, now = new Date()): string {
  return isoDate(new Date(now.getFullYear(), now.getMonth() + offset, 15));
}

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export type LoanSeed = {
  bankId: number;
  loanTypeId: number;
  accountNumber: string;
  principal: number;
  rate: number;
  months: number;
  startDate: string;
  /** GST on the interest, in percent; none when absent. */
  gstPercentage?: number;
  /** EMIs auto-debited (the default); false: past EMIs not marked paid are overdue. */
  emisAutoDebited?: boolean;
};

function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** Seeds money data through the public API, as the signed-in user. */
export class MoneyApi {
  private constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  static async signIn(request: APIRequestContext, user: TestUser): Promise<MoneyApi> {
    const answer = await request.post('/api/auth/login', {
      data: { email: user.email, password: user.password },
    });
    expect(answer.ok(), await answer.text()).toBe(true);
    return new MoneyApi(request, (await answer.json()).data.token);
  }

  private get headers() {
    return { Authorization: `Bearer ${this.token}` };
  }

  private async post(path: string, data: object): Promise<{ data: Record<string, never> }> {
    const answer = await this.request.post(`/api${path}`, { data, headers: this.headers });
    expect(answer.ok(), `${path}: ${await answer.text()}`).toBe(true);
    return answer.json();
  }

  async createBank(bankName: string, branchName: string): Promise<number> {
    const answer = await this.post('/banks', { bank_name: bankName, branch_name: branchName });
    return (answer.data.bank as unknown as { id: number }).id;
  }

  async createLoanType(typeName: string): Promise<number> {
    const answer = await this.post('/banks/loan-types', { type_name: typeName });
    return (answer.data.loanType as unknown as { id: number }).id;
  }

  async createLoan(loan: LoanSeed): Promise<string> {
    const answer = await this.post('/loans', {
      bank_id: loan.bankId,
      loan_type_id: loan.loanTypeId,
      account_number: loan.accountNumber,
      short_detail: '',
      principal_amount: loan.principal,
      interest_rate: loan.rate,
      is_interest_rate_yearly: 1,
      duration: loan.months,
      is_duration_yearly: 0,
      start_date: loan.startDate,
      end_date: addMonths(loan.startDate, loan.months),
      processing_fee: 0,
      has_gst: loan.gstPercentage ? 1 : 0,
      gst_percentage: loan.gstPercentage ?? 0,
      emis_auto_debited: loan.emisAutoDebited === false ? 0 : 1,
    });
    return (answer.data.loan as unknown as { id: string }).id;
  }

  /** GET /api{path} as this user: the answer's `data`. */
  async get<T>(path: string): Promise<T> {
    const answer = await this.request.get(`/api${path}`, { headers: this.headers });
    expect(answer.ok(), `${path}: ${await answer.text()}`).toBe(true);
    return (await answer.json()).data as T;
  }

  async createAccount(name: string, openingBalance: number, openingDate: string): Promise<string> {
    const answer = await this.post('/accounts', {
      name,
      kind: 'savings',
      opening_balance: openingBalance,
      opening_date: openingDate,
    });
    return (answer.data.account as unknown as { id: string }).id;
  }

  async createTransfer(
    fromAccountId: string,
    toAccountId: string,
    amount: number,
    date: string,
  ): Promise<void> {
    await this.post('/transfers', {
      from_account_id: fromAccountId,
      to_account_id: toAccountId,
      amount,
      transfer_date: date,
    });
  }

  /** `fields`: more of the transaction's wire fields (account_id, category_id, …). */
  async createTransaction(
    notes: string,
    type: 'C' | 'D',
    date: string,
    amount: number,
    fields: Record<string, unknown> = {},
  ): Promise<string> {
    const answer = await this.post('/transactions', {
      notes,
      transaction_type: type,
      transaction_date: date,
      amount,
      ...fields,
    });
    return (answer.data.transaction as unknown as { id: string }).id;
  }
}

/** Signs in through the login screen and waits for the dashboard. */
export async function signInThroughUi(page: Page, user: TestUser): Promise<void> {
  const login = new LoginPage(page);
  await login.goto();
  await login.signInAs(user.email, user.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}
