import { api, type Envelope, type ToastOptions } from '../api/baseApi';
import { idempotencyHeaders } from '../api/idempotency';
import type { AppDispatch } from '../app/store';
import { asOfParams, type OptionalAsOf } from '../history/asOf';

/** A loan as the screens read it (spec section 3, camelCase on receipt). */
export type Loan = {
  id: string;
  bankId: number;
  loanTypeId: number;
  accountNumber: string;
  shortDetail: string | null;
  principalAmount: number;
  interestRate: number;
  isInterestRateYearly: boolean | number;
  duration: number;
  isDurationYearly: boolean | number;
  startDate: string;
  endDate: string;
  processingFee: number;
  hasGst: boolean | number;
  gstPercentage: number;
  createdAt: string;
  updatedAt: string;
  bank?: { bankName: string; branchName?: string | null } | null;
  loanType?: { typeName: string } | null;
  /** The server's status today (Overdue once an EMI is marked paid and an earlier one is not). */
  status?: 'Active' | 'Completed' | 'Overdue';
  overdueEmis?: number;
  /** Date of the last payment after prepayments, resets or a foreclosure. */
  closedOn?: string | null;
  /** Annual percentage rate with the processing fee and its GST (one loan's answer). */
  apr?: number;
};

export type Bank = { id: number; bankName: string; branchName?: string | null };
export type LoanType = { id: number; typeName: string };

/** `emi`, or a part-payment / foreclosure / pre-EMI interest row (numbered as the EMI before it). */
export type ScheduleRowKind = 'emi' | 'prepayment' | 'foreclosure' | 'pre-emi-interest';

export type ScheduleRow = {
  id?: string | number;
  paymentNumber: number;
  emiDate: string;
  principal: number;
  interest: number;
  gst: number;
  /** What leaves the account on this row: principal + interest + GST (+ charge). */
  emi: number;
  remainingPrincipal: number;
  /** Absent from answers of before issue 15: an EMI. */
  kind?: ScheduleRowKind;
  charge?: number;
  annualRate?: number | null;
  /** EMIs marked paid. */
  paidOn?: string | null;
  paidAmount?: number | null;
  transactionId?: string | null;
};

export type PrepaymentChoice = 'reduce-emi' | 'reduce-tenure';
export type RateChangeOption = 'increase-emi' | 'extend-tenure' | 'combination' | 'switch-to-fixed';

/** One side of the what-if comparison (rupees). */
export type PrepaymentOutcome = {
  emi: number;
  numberOfEmis: number;
  closedOn: string;
  interest: number;
  gst: number;
};
/** The principal still owed (rupees) after a row of a what-if schedule. */
export type BalanceStep = { date: string; remainingPrincipal: number };
export type PrepaymentSaving = PrepaymentOutcome & {
  interestSaved: number;
  gstSaved: number;
  monthsSaved: number;
  /** From the part-payment's date on, for the balance chart. */
  balances: BalanceStep[];
};
export type PrepaymentComparison = {
  withoutPrepayment: PrepaymentOutcome;
  reduceEmi: PrepaymentSaving;
  reduceTenure: PrepaymentSaving;
};

export type PrepaymentBody = { date: string; amount: string; charge: string; choice?: PrepaymentChoice };
export type ForeclosureBody = { date: string; charge: string };
export type RateChangeBody = {
  date: string;
  annualRatePercent: string;
  option: RateChangeOption;
  newEmi?: string;
};
export type EmiOverrideBody = { date: string; emi: string };
export type EmiPaymentBody = { paidOn?: string; amount?: string; transactionId?: string };

/** The financial-year interest certificate's figures (rupees). */
export type Certificate = {
  fy: string;
  from: string;
  to: string;
  basis: 'paid' | 'schedule';
  interest: number;
  principal: number;
  preEmiInterest: number;
  gst: number;
  charges: number;
  emisCounted: number;
  borrower: string;
  accountNumber: string;
  bankName: string;
  loanType: string;
  note: string;
};

/** A change to one loan, sent once per submission key. */
type LoanChange<B> = { id: string; body: B; idempotencyKey: string };
type ScheduleAnswer = Envelope<{ schedule: ScheduleRow[] }>;

export type LoanStats = {
  totalLoans: number;
  activeLoans: number;
  totalAmount: number;
  remainingAmount: number;
};

export type LoanPage = {
  loans: Loan[];
  pagination: { page: number; limit: number; totalItems: number; totalPages: number };
};

export type LoanListArgs = {
  page: number;
  limit: number;
  search: string;
  bankId: string;
  asOf?: string;
} & ToastOptions;

/** One loan: its id, or its id and the past date to read it at (issue 14). */
export type LoanRef = string | { id: string; asOf: string };

const refId = (ref: LoanRef) => (typeof ref === 'string' ? ref : ref.id);
const refUrl = (ref: LoanRef, path = '') =>
  typeof ref === 'string'
    ? `/loans/${ref}${path}`
    : { url: `/loans/${ref.id}${path}`, params: asOfParams(ref.asOf) };

/** A call about one loan; the toast options say how long its failure toast stays. */
export type LoanCall = { id: string } & ToastOptions;

/** The loan request payload in camelCase; the base query sends it as snake_case (spec section 3). */
export type LoanBody = {
  bankId: number;
  loanTypeId: number;
  accountNumber: string;
  shortDetail: string;
  principalAmount: number;
  interestRate: number;
  isInterestRateYearly: 1 | 0;
  duration: number;
  isDurationYearly: 1 | 0;
  startDate: string;
  endDate: string;
  processingFee: number;
  hasGst: 1 | 0;
  gstPercentage: number;
};

/** A loan with the stream version it was read at, sent back as If-Match on update. */
export type VersionedLoan = { loan: Loan; etag: string | null };

type ListAnswer = Envelope<Loan[]> & {
  meta: { pagination: { page: number; limit: number; totalItems: number; totalPages: number } };
};

function listParams({ page, limit, search, bankId, asOf }: LoanListArgs): Record<string, string | number> {
  const params: Record<string, string | number> = {
    page,
    limit,
    sortBy: 'created_at',
    sortOrder: 'DESC',
    ...asOfParams(asOf),
  };
  if (search.trim()) params.search = search.trim();
  if (bankId) params.filter_bank_id = bankId;
  return params;
}

/** Anything that moves a loan's EMIs moves the stats, the ledger and its periods too. */
const loanChanged = [{ type: 'Loan', id: 'LIST' }, 'LoanStats', 'Ledger', 'Periods'] as const;

/** A change moves the loan (status, closing date), its schedule, the stats, the ledger. */
const changedLoan = (_r: unknown, _e: unknown, { id }: { id: string }) => [
  ...loanChanged,
  { type: 'Loan' as const, id },
  { type: 'Schedule' as const, id },
];

function changeRequest<B>({ id, body, idempotencyKey }: LoanChange<B>, path: string) {
  return {
    url: `/loans/${id}/${path}`,
    method: 'POST',
    body,
    headers: idempotencyHeaders(idempotencyKey),
  };
}

export const loansApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLoans: build.query<LoanPage, LoanListArgs>({
      extraOptions: { errorFallback: 'Failed to fetch loans' },
      query: ({ errorToastMs, ...args }) => ({ url: '/loans', params: listParams(args), errorToastMs }),
      transformResponse: (answer: ListAnswer) => ({ loans: answer.data, pagination: answer.meta.pagination }),
      providesTags: (result) => [
        { type: 'Loan', id: 'LIST' },
        ...(result?.loans ?? []).map((loan) => ({ type: 'Loan' as const, id: loan.id })),
      ],
    }),
    getLoanStats: build.query<LoanStats, OptionalAsOf>({
      extraOptions: { errorFallback: 'Failed to fetch statistics' },
      query: (asOf) => (asOf ? { url: '/loans/stats', params: asOfParams(asOf) } : '/loans/stats'),
      transformResponse: (answer: Envelope<LoanStats>) => answer.data,
      providesTags: ['LoanStats'],
    }),
    getLoan: build.query<VersionedLoan, LoanRef>({
      extraOptions: { errorFallback: 'Failed to load loan details', screenShowsNotFound: true },
      query: (ref) => refUrl(ref),
      transformResponse: (answer: Envelope<{ loan: Loan }>, meta) => ({
        loan: answer.data.loan,
        etag: meta?.response?.headers.get('ETag') ?? null,
      }),
      providesTags: (_r, _e, ref) => [{ type: 'Loan', id: refId(ref) }],
    }),
    createLoan: build.mutation<Envelope<{ loan?: Loan }>, { body: LoanBody; idempotencyKey: string }>({
      extraOptions: { errorFallback: 'Failed to create loan' },
      query: ({ body, idempotencyKey }) => ({
        url: '/loans',
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: [...loanChanged],
    }),
    updateLoan: build.mutation<
      Envelope<{ loan?: Loan }>,
      { id: string; body: LoanBody; etag: string | null }
    >({
      extraOptions: { errorFallback: 'Failed to update loan' },
      query: ({ id, body, etag }) => ({
        url: `/loans/${id}`,
        method: 'PUT',
        body,
        headers: etag ? { 'If-Match': etag } : {},
      }),
      invalidatesTags: (_r, _e, { id }) => [...loanChanged, { type: 'Loan', id }, { type: 'Schedule', id }],
    }),
    deleteLoan: build.mutation<Envelope<unknown>, LoanCall>({
      extraOptions: { errorFallback: 'Failed to delete loan' },
      query: ({ id, errorToastMs }) => ({ url: `/loans/${id}`, method: 'DELETE', errorToastMs }),
      invalidatesTags: (_r, _e, { id }) => [...loanChanged, { type: 'Loan', id }, { type: 'Schedule', id }],
    }),
    getSchedule: build.query<ScheduleRow[], LoanRef>({
      extraOptions: { errorFallback: 'Failed to load amortization schedule', screenShowsNotFound: true },
      query: (ref) => refUrl(ref, '/amortization'),
      transformResponse: (answer: Envelope<{ schedule: ScheduleRow[] }>) => answer.data.schedule ?? [],
      providesTags: (_r, _e, ref) => [{ type: 'Schedule', id: refId(ref) }],
    }),
    regenerateSchedule: build.mutation<ScheduleRow[], LoanCall>({
      extraOptions: { errorFallback: 'Failed to generate amortization schedule' },
      query: ({ id, errorToastMs }) => ({
        url: `/loans/${id}/amortization/regenerate`,
        method: 'POST',
        errorToastMs,
      }),
      transformResponse: (answer: Envelope<{ schedule: ScheduleRow[] }>) => answer.data.schedule ?? [],
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Schedule', id }, 'LoanStats', 'Ledger', 'Periods'],
    }),
    whatIfPrepayment: build.mutation<PrepaymentComparison, { id: string; body: PrepaymentBody }>({
      extraOptions: { errorFallback: 'Failed to compare the part-payment choices' },
      query: ({ id, body }) => ({ url: `/loans/${id}/prepayments/what-if`, method: 'POST', body }),
      transformResponse: (answer: Envelope<PrepaymentComparison>) => answer.data,
    }),
    recordPrepayment: build.mutation<ScheduleAnswer, LoanChange<PrepaymentBody>>({
      extraOptions: { errorFallback: 'Failed to record the part-payment' },
      query: (change) => changeRequest(change, 'prepayments'),
      invalidatesTags: changedLoan,
    }),
    forecloseLoan: build.mutation<ScheduleAnswer, LoanChange<ForeclosureBody>>({
      extraOptions: { errorFallback: 'Failed to foreclose the loan' },
      query: (change) => changeRequest(change, 'foreclosure'),
      invalidatesTags: changedLoan,
    }),
    changeRate: build.mutation<ScheduleAnswer, LoanChange<RateChangeBody>>({
      extraOptions: { errorFallback: 'Failed to change the interest rate' },
      query: (change) => changeRequest(change, 'rate-changes'),
      invalidatesTags: changedLoan,
    }),
    overrideEmi: build.mutation<ScheduleAnswer, LoanChange<EmiOverrideBody>>({
      extraOptions: { errorFallback: 'Failed to update the EMI' },
      query: (change) => changeRequest(change, 'emi-override'),
      invalidatesTags: changedLoan,
    }),
    markEmiPaid: build.mutation<ScheduleAnswer, LoanChange<EmiPaymentBody> & { paymentNumber: number }>({
      extraOptions: { errorFallback: 'Failed to mark the EMI paid' },
      query: ({ paymentNumber, ...change }) => changeRequest(change, `emis/${paymentNumber}/payment`),
      invalidatesTags: changedLoan,
    }),
    getCertificate: build.query<Certificate, { id: string; fy: string }>({
      extraOptions: { errorFallback: 'Failed to load the interest certificate', screenShowsNotFound: true },
      query: ({ id, fy }) => ({ url: `/loans/${id}/certificate`, params: { fy } }),
      transformResponse: (answer: Envelope<{ certificate: Certificate }>) => answer.data.certificate,
      providesTags: (_r, _e, { id }) => [{ type: 'Schedule', id }],
    }),
    getBanks: build.query<Bank[], ToastOptions | undefined>({
      extraOptions: { errorFallback: 'Failed to load banks. Please try again.' },
      // The dropdown loads up to 100, by name (spec section 9).
      query: (options) => ({
        url: '/banks',
        params: { page: 1, limit: 100, sortBy: 'bank_name', sortOrder: 'ASC' },
        errorToastMs: options?.errorToastMs,
      }),
      transformResponse: (answer: Envelope<Bank[]>) => answer.data,
      providesTags: ['Bank'],
    }),
    getLoanTypes: build.query<LoanType[], void>({
      extraOptions: { errorFallback: 'Failed to load loan types.' },
      query: () => '/loans/types',
      transformResponse: (answer: Envelope<{ loanTypes: LoanType[] }>) => answer.data.loanTypes ?? [],
      providesTags: ['LoanType'],
    }),
  }),
});

export const {
  useGetLoansQuery,
  useGetLoanStatsQuery,
  useGetLoanQuery,
  useCreateLoanMutation,
  useUpdateLoanMutation,
  useDeleteLoanMutation,
  useGetScheduleQuery,
  useRegenerateScheduleMutation,
  useWhatIfPrepaymentMutation,
  useRecordPrepaymentMutation,
  useForecloseLoanMutation,
  useChangeRateMutation,
  useOverrideEmiMutation,
  useMarkEmiPaidMutation,
  useGetCertificateQuery,
  useGetBanksQuery,
  useGetLoanTypesQuery,
} = loansApi;

/** The amortization screen's answers (the loan and its schedule), before the page renders. */
export function prefetchSchedule(dispatch: AppDispatch, id: string): void {
  dispatch(loansApi.util.prefetch('getLoan', id, {}));
  dispatch(loansApi.util.prefetch('getSchedule', id, {}));
}
