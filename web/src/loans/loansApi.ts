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

export type ScheduleRow = {
  id?: string | number;
  paymentNumber: number;
  emiDate: string;
  principal: number;
  interest: number;
  gst: number;
  emi: number;
  remainingPrincipal: number;
};

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
  useGetBanksQuery,
  useGetLoanTypesQuery,
} = loansApi;

/** The amortization screen's answers (the loan and its schedule), before the page renders. */
export function prefetchSchedule(dispatch: AppDispatch, id: string): void {
  dispatch(loansApi.util.prefetch('getLoan', id, {}));
  dispatch(loansApi.util.prefetch('getSchedule', id, {}));
}
