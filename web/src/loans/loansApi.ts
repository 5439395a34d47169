import type * as wire from '@kosh/contract';
import type { Camel, CamelBody, CamelKey } from '@kosh/contract';
import type { FieldSpec, LOAN_FIELDS } from '@kosh/domain';
import { api, type ToastOptions } from '../api/baseApi';
import { idempotencyHeaders } from '../api/idempotency';
import type { AppDispatch } from '../app/store';
import { asOfParams, type OptionalAsOf } from '../history/asOf';

/** A loan as the screens read it (spec section 3, camelCase on receipt). */
export type Loan = Camel<wire.WireLoan>;

export type Bank = Camel<wire.WireBank>;
export type LoanType = Camel<wire.WireLoanType>;

/** `emi`, or a part-payment / foreclosure / pre-EMI interest row (numbered as the EMI before it). */
export type ScheduleRowKind = wire.WireScheduleRow['kind'];

export type ScheduleRow = Camel<wire.WireScheduleRow>;

export type PrepaymentChoice = 'reduce-emi' | 'reduce-tenure';
export type RateChangeOption = 'increase-emi' | 'extend-tenure' | 'combination' | 'switch-to-fixed';

/** The what-if comparison of a part-payment (rupees). */
export type PrepaymentComparison = Camel<wire.WhatIfResponse['data']>;
/** The principal still owed (rupees) after a row of a what-if schedule, for the balance chart. */
export type BalanceStep = PrepaymentComparison['reduceEmi']['balances'][number];

export type PrepaymentBody = CamelBody<
  wire.PrepaymentBody,
  { date: string; amount: string; charge: string; choice?: PrepaymentChoice }
>;
export type ForeclosureBody = CamelBody<wire.ForeclosureBody, { date: string; charge: string }>;
export type RateChangeBody = CamelBody<
  wire.RateChangeBody,
  { date: string; annualRatePercent: string; option: RateChangeOption; newEmi?: string }
>;
export type EmiOverrideBody = CamelBody<wire.EmiOverrideBody, { date: string; emi: string }>;
export type EmiPaymentBody = CamelBody<
  wire.EmiPaymentBody,
  { paidOn?: string; amount?: string; transactionId?: string; confirm?: boolean }
>;
export type PaidUpToBody = CamelBody<wire.PaidUpToBody, { upTo: string }>;
export type PreEmiInterestBody = CamelBody<wire.PreEmiInterestBody, { date: string; amount: string }>;
/** What closing the loan on a date would cost (rupees). */
export type ForeclosureQuote = Camel<wire.ForeclosureQuoteResponse['data']['quote']>;
/** The EMI a debit is matched to. */
export type DebitMatch = Camel<wire.DebitMatchResponse['data']['match']>;

/** The financial-year interest certificate's figures (rupees). */
export type Certificate = Camel<wire.WireCertificate>;

/** A change to one loan, sent once per submission key. */
type LoanChange<B> = { id: string; body: B; idempotencyKey: string };
type ScheduleAnswer = Camel<wire.ScheduleResponse>;

export type LoanStats = Camel<wire.LoanStatsResponse['data']>;

export type LoanPage = { loans: Loan[]; pagination: Camel<wire.Pagination> };

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

type Fields = typeof LOAN_FIELDS;
/** A field's value in the request, by kind: numbers as numbers, flags as 1/0, the rest as text. */
type BodyValue<F extends FieldSpec> = F['kind'] extends 'flag'
  ? 1 | 0
  : F['kind'] extends 'id' | 'int' | 'number' | 'money'
    ? number
    : string;

/**
 * The loan request payload in camelCase, one value per declared field (`LOAN_FIELDS`); the base
 * query sends it as snake_case (spec section 3).
 */
export type LoanBody = CamelBody<
  wire.LoanBody,
  { [K in keyof Fields as CamelKey<Fields[K]['wire']>]: BodyValue<Fields[K]> }
>;

type Never<T extends never> = T;
/** Compiles only while `LoanBody` sends every field of the wire's body (a field added there points here). */
export type LoanBodyIsComplete = Never<Exclude<keyof Camel<wire.LoanBody>, keyof LoanBody>>;

/** A loan with the stream version it was read at, sent back as If-Match on update. */
export type VersionedLoan = { loan: Loan; etag: string | null };

type ListAnswer = Camel<wire.LoanListResponse>;

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
      transformResponse: (answer: Camel<wire.LoanStatsResponse>) => answer.data,
      providesTags: ['LoanStats'],
    }),
    getLoan: build.query<VersionedLoan, LoanRef>({
      extraOptions: { errorFallback: 'Failed to load loan details', screenShowsNotFound: true },
      query: (ref) => refUrl(ref),
      transformResponse: (answer: Camel<wire.LoanResponse>, meta) => ({
        loan: answer.data.loan,
        etag: meta?.response?.headers.get('ETag') ?? null,
      }),
      providesTags: (_r, _e, ref) => [{ type: 'Loan', id: refId(ref) }],
    }),
    createLoan: build.mutation<Camel<wire.LoanResponse>, { body: LoanBody; idempotencyKey: string }>({
      extraOptions: { errorFallback: 'Failed to create loan' },
      query: ({ body, idempotencyKey }) => ({
        url: '/loans',
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: [...loanChanged],
    }),
    updateLoan: build.mutation<Camel<wire.LoanResponse>, { id: string; body: LoanBody; etag: string | null }>(
      {
        extraOptions: { errorFallback: 'Failed to update loan' },
        query: ({ id, body, etag }) => ({
          url: `/loans/${id}`,
          method: 'PUT',
          body,
          headers: etag ? { 'If-Match': etag } : {},
        }),
        invalidatesTags: (_r, _e, { id }) => [...loanChanged, { type: 'Loan', id }, { type: 'Schedule', id }],
      },
    ),
    deleteLoan: build.mutation<wire.MessageResponse, LoanCall>({
      extraOptions: { errorFallback: 'Failed to delete loan' },
      query: ({ id, errorToastMs }) => ({ url: `/loans/${id}`, method: 'DELETE', errorToastMs }),
      invalidatesTags: (_r, _e, { id }) => [...loanChanged, { type: 'Loan', id }, { type: 'Schedule', id }],
    }),
    getSchedule: build.query<ScheduleRow[], LoanRef>({
      extraOptions: { errorFallback: 'Failed to load amortization schedule', screenShowsNotFound: true },
      query: (ref) => refUrl(ref, '/amortization'),
      transformResponse: (answer: ScheduleAnswer) => answer.data.schedule,
      providesTags: (_r, _e, ref) => [{ type: 'Schedule', id: refId(ref) }],
    }),
    regenerateSchedule: build.mutation<ScheduleRow[], LoanCall>({
      extraOptions: { errorFallback: 'Failed to generate amortization schedule' },
      query: ({ id, errorToastMs }) => ({
        url: `/loans/${id}/amortization/regenerate`,
        method: 'POST',
        errorToastMs,
      }),
      transformResponse: (answer: ScheduleAnswer) => answer.data.schedule,
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Schedule', id }, 'LoanStats', 'Ledger', 'Periods'],
    }),
    whatIfPrepayment: build.mutation<PrepaymentComparison, { id: string; body: PrepaymentBody }>({
      extraOptions: { errorFallback: 'Failed to compare the part-payment choices' },
      query: ({ id, body }) => ({ url: `/loans/${id}/prepayments/what-if`, method: 'POST', body }),
      transformResponse: (answer: Camel<wire.WhatIfResponse>) => answer.data,
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
    markEmisPaidUpTo: build.mutation<ScheduleAnswer, LoanChange<PaidUpToBody>>({
      extraOptions: { errorFallback: 'Failed to mark the EMIs paid' },
      query: (change) => changeRequest(change, 'emis/paid-up-to'),
      invalidatesTags: changedLoan,
    }),
    markEmiMissed: build.mutation<
      ScheduleAnswer,
      LoanChange<Record<string, never>> & { paymentNumber: number }
    >({
      extraOptions: { errorFallback: 'Failed to mark the EMI missed' },
      query: ({ paymentNumber, ...change }) => changeRequest(change, `emis/${paymentNumber}/missed`),
      invalidatesTags: changedLoan,
    }),
    undoMark: build.mutation<ScheduleAnswer, { id: string; markId: string }>({
      extraOptions: { errorFallback: 'Failed to undo the mark' },
      query: ({ id, markId }) => ({ url: `/loans/${id}/marks/${markId}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { id }) => [
        ...loanChanged,
        { type: 'Loan' as const, id },
        { type: 'Schedule' as const, id },
        'Transaction',
      ],
    }),
    recordPreEmiInterest: build.mutation<ScheduleAnswer, LoanChange<PreEmiInterestBody>>({
      extraOptions: { errorFallback: 'Failed to record the pre-EMI interest' },
      query: (change) => changeRequest(change, 'pre-emi-interest'),
      invalidatesTags: changedLoan,
    }),
    completeConstruction: build.mutation<ScheduleAnswer, { id: string; date: string }>({
      extraOptions: { errorFallback: 'Failed to record the completion of construction' },
      query: ({ id, date }) => ({
        url: `/loans/${id}/construction-completed`,
        method: 'PUT',
        body: { date },
      }),
      invalidatesTags: changedLoan,
    }),
    getForeclosureQuote: build.query<ForeclosureQuote, { id: string; date: string; charge: string }>({
      extraOptions: { errorFallback: 'Failed to quote the foreclosure' },
      query: ({ id, date, charge }) => ({ url: `/loans/${id}/foreclosure/quote`, params: { date, charge } }),
      transformResponse: (answer: Camel<wire.ForeclosureQuoteResponse>) => answer.data.quote,
      providesTags: (_r, _e, { id }) => [{ type: 'Schedule', id }],
    }),
    getDebitMatch: build.query<DebitMatch, string>({
      extraOptions: { errorFallback: 'Failed to load the debit' },
      query: (transactionId) => `/loans/debit-matches/${transactionId}`,
      transformResponse: (answer: Camel<wire.DebitMatchResponse>) => answer.data.match,
      providesTags: ['Schedule'],
    }),
    getCertificate: build.query<Certificate, { id: string; fy: string }>({
      extraOptions: { errorFallback: 'Failed to load the interest certificate', screenShowsNotFound: true },
      query: ({ id, fy }) => ({ url: `/loans/${id}/certificate`, params: { fy } }),
      transformResponse: (answer: Camel<wire.CertificateResponse>) => answer.data.certificate,
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
      transformResponse: (answer: Camel<wire.BankListResponse>) => answer.data,
      providesTags: ['Bank'],
    }),
    getLoanTypes: build.query<LoanType[], void>({
      extraOptions: { errorFallback: 'Failed to load loan types.' },
      query: () => '/loans/types',
      transformResponse: (answer: Camel<wire.LoanTypeListResponse>) => answer.data.loanTypes,
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
  useMarkEmisPaidUpToMutation,
  useMarkEmiMissedMutation,
  useUndoMarkMutation,
  useRecordPreEmiInterestMutation,
  useCompleteConstructionMutation,
  useGetForeclosureQuoteQuery,
  useGetDebitMatchQuery,
  useGetCertificateQuery,
  useGetBanksQuery,
  useGetLoanTypesQuery,
} = loansApi;

/** The amortization screen's answers (the loan and its schedule), before the page renders. */
export function prefetchSchedule(dispatch: AppDispatch, id: string): void {
  dispatch(loansApi.util.prefetch('getLoan', id, {}));
  dispatch(loansApi.util.prefetch('getSchedule', id, {}));
}
