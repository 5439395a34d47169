import type { LOAN_FIELDS, WireNames, WireOf } from '@kosh/domain';
import { type Static, Type } from 'typebox';
import { MessageResponse, orNull, page, success } from './envelope';
import { AsOfParam, IdParams, QueryText } from './request';

/**
 * Spec sections 3 and 7 (Loans), wire names in snake_case. Body and query fields are loose at
 * the schema level so that a bad value gets the spec's own per-field message
 * (domain/src/validation/loan.ts, command-api/src/routes/loans/list-query.ts), never a generic one.
 * Unlike other bodies', a loan's fields also take booleans: its flags (has_gst, …) may come as such.
 */
const Loose = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], { description }));

export const LoanBody = Type.Object({
  bank_id: Loose('Id of a bank the user can see (GET /api/banks)'),
  loan_type_id: Loose('Id of a loan type the user can see (GET /api/banks/loan-types)'),
  account_number: Loose('5 to 30 letters and digits'),
  short_detail: Loose('Optional description, at most 200 characters'),
  principal_amount: Loose('Rupees, 100 to 100,000,000, at most 2 decimals'),
  interest_rate: Loose('Percent, 0.1 to 50 (create: at most 3 decimals)'),
  is_interest_rate_yearly: Loose('1 (default): rate per year; 0: per month'),
  duration: Loose('1 to 600 months, or 1 to 50 years'),
  is_duration_yearly: Loose('1 (default): duration in years; 0: in months'),
  start_date: Loose('YYYY-MM-DD, from 2000-01-01 (create: not in the future)'),
  end_date: Loose('YYYY-MM-DD; when sent it must equal start date + duration'),
  processing_fee: Loose('Rupees, 0 (default) to 1,000,000'),
  has_gst: Loose('1 or 0 (default)'),
  gst_percentage: Loose('Percent of each instalment’s interest, 0 to 100; required when has_gst is 1'),
  emis_auto_debited: Loose(
    '1 (default) or 0: EMIs are auto-debited, so a past EMI counts as paid on its due date unless marked missed or paid otherwise',
  ),
  processing_fee_has_gst: Loose('1 (default) or 0: GST (18%) is charged on top of the processing fee'),
});
export type LoanBody = Static<typeof LoanBody>;
// Every declared loan field is taken in (LOAN_FIELDS): a field missing here does not compile.
LoanBody.properties satisfies Record<WireNames<typeof LOAN_FIELDS>, unknown>;

export const LoanListQuery = Type.Object({
  page: QueryText('1-based page (default 1)'),
  limit: QueryText('5, 10 (default), 25 or 50'),
  sortBy: QueryText(
    'created_at (default), principal_amount, interest_rate, start_date, end_date, account_number or bank_name',
  ),
  sortOrder: QueryText('ASC or DESC (default)'),
  search: QueryText('Text in the account number, loan type or bank name, or digits of the principal'),
  filter_bank_id: QueryText('Only loans from this bank'),
  filter_loan_type_id: QueryText('Only loans of this type'),
  as_of: AsOfParam,
});
export type LoanListQuery = Static<typeof LoanListQuery>;

export const LoanParams = IdParams;

/** Issue 27 item 7: where the loan stands today, from its latest schedule; the terms above stay the contract's. */
export const WireLoanPresent = Type.Object(
  {
    as_of: Type.String({ description: 'YYYY-MM-DD: today in India, or the as_of date' }),
    annual_rate_percent: Type.Number({ description: 'Annual rate of the interest running now' }),
    rate_since: orNull('string', {
      description: 'YYYY-MM-DD from which a reset rate runs (null: the contract rate)',
    }),
    emi: orNull('number', {
      description: 'The next EMI before GST (principal + interest), rupees; null when none is left',
    }),
    next_emi_date: orNull('string'),
    next_emi_gst: orNull('number', { description: 'GST on the next EMI, rupees' }),
    next_emi_total: orNull('number', { description: 'The next EMI with its GST' }),
    emis_left: Type.Integer({ description: 'EMIs dated after as_of' }),
    closing_date: orNull('string', {
      description:
        'YYYY-MM-DD of the last payment of the current schedule (the contract end date is end_date)',
    }),
    outstanding_principal: Type.Number({ description: 'Principal owed on as_of, rupees' }),
  },
  { description: "The loan's present (after part-payments, resets, overrides, a foreclosure)" },
);
export type WireLoanPresent = Static<typeof WireLoanPresent>;

export const WireLoan = Type.Object({
  id: Type.String(),
  bank_id: Type.Integer(),
  loan_type_id: Type.Integer(),
  account_number: Type.String(),
  short_detail: orNull('string'),
  principal_amount: Type.Number({ description: 'Rupees, two decimals' }),
  interest_rate: Type.Number(),
  is_interest_rate_yearly: Type.Boolean(),
  duration: Type.Number(),
  is_duration_yearly: Type.Boolean(),
  start_date: Type.String({ description: 'YYYY-MM-DD' }),
  end_date: Type.String({ description: 'YYYY-MM-DD: start date + duration' }),
  processing_fee: Type.Number({ description: 'Rupees, two decimals' }),
  has_gst: Type.Boolean(),
  gst_percentage: Type.Number(),
  emis_auto_debited: Type.Boolean(),
  processing_fee_has_gst: Type.Boolean({ description: 'The APR counts 18% GST on the fee only when on' }),
  schedule_version: Type.Integer({ description: 'Current schedule version (0: none yet)' }),
  status: Type.Optional(
    Type.Unsafe<'Active' | 'Completed' | 'Overdue'>({
      type: 'string',
      enum: ['Active', 'Completed', 'Overdue'],
      description:
        'Today (India): Overdue when an EMI is missed, partly paid past its date, or (EMIs not auto-debited) past and not marked paid; Completed once the last payment (EMI or foreclosure) is past',
    }),
  ),
  overdue_emis: Type.Optional(Type.Integer({ description: 'EMIs (or remainders of EMIs) past due' })),
  closed_on: Type.Optional(
    orNull('string', {
      description:
        'YYYY-MM-DD of the last payment of the current schedule (after prepayments, resets, foreclosure)',
    }),
  ),
  apr: Type.Optional(
    Type.Number({
      description:
        "Annual percentage rate (RBI Key Facts Statement): IRR of the contract's cash flows with the processing fee (and 18% GST on it when processing_fee_has_gst), monthly ×12, percent",
    }),
  ),
  actual_apr: Type.Optional(
    Type.Number({
      description:
        'APR of the actual cash flows: the same IRR over every payment of the current schedule (EMIs, part-payments with their charges, a foreclosure) at its date, percent',
    }),
  ),
  current: Type.Optional(WireLoanPresent),
  created_at: Type.String({ description: 'ISO-8601 UTC' }),
  updated_at: Type.String({ description: 'ISO-8601 UTC' }),
  bank: Type.Object({ bank_name: Type.String(), branch_name: orNull('string') }),
  loan_type: Type.Object({ type_name: Type.String() }),
});
export type WireLoan = Static<typeof WireLoan>;
// Every declared loan field is answered, with the type the domain holds (LOAN_FIELDS).
({}) as WireOf<typeof LOAN_FIELDS> satisfies Pick<WireLoan, WireNames<typeof LOAN_FIELDS>>;

export const WireScheduleRow = Type.Object({
  id: Type.String({ description: '{loan id}:{schedule version}:{payment number}' }),
  payment_number: Type.Integer(),
  emi_date: Type.String({ description: 'YYYY-MM-DD' }),
  principal: Type.Number(),
  interest: Type.Number(),
  gst: Type.Number(),
  emi: Type.Number({ description: 'principal + interest + gst (+ charge): what leaves the account' }),
  remaining_principal: Type.Number(),
  // Enums and type lists, not unions: the serializer writes a union by validating each branch in
  // turn, on each of up to 600 rows (a third of a schedule's serialising).
  kind: Type.Unsafe<'emi' | 'prepayment' | 'foreclosure' | 'pre-emi-interest'>({
    type: 'string',
    enum: ['emi', 'prepayment', 'foreclosure', 'pre-emi-interest'],
    description:
      'emi, or a part-payment / foreclosure / pre-EMI interest row (numbered as the EMI before it)',
  }),
  charge: Type.Number({ description: 'Prepayment or foreclosure charge, rupees' }),
  annual_rate: Type.Unsafe<number | null>({
    type: ['number', 'null'],
    description: 'Annual rate in force (schedules revised after a change)',
  }),
  paid_on: Type.Unsafe<string | null>({
    type: ['string', 'null'],
    description: 'EMIs marked paid: YYYY-MM-DD',
  }),
  paid_amount: Type.Unsafe<number | null>({ type: ['number', 'null'] }),
  transaction_id: Type.Unsafe<string | null>({
    type: ['string', 'null'],
    description: 'The matched debit, if any',
  }),
  payment_state: Type.Unsafe<'paid' | 'auto-debited' | 'partly-paid' | 'missed' | 'overdue' | 'due' | null>({
    type: ['string', 'null'],
    enum: ['paid', 'auto-debited', 'partly-paid', 'missed', 'overdue', 'due', null],
    description: 'EMI rows: where the EMI stands today; null on other rows',
  }),
  remainder: Type.Number({ description: 'Rupees still to pay of this EMI (0 when covered)' }),
  overdue: Type.Boolean({ description: 'The remainder is past due' }),
  mark_ids: Type.Array(Type.String(), {
    description: 'Ids of the marks on this EMI (DELETE /api/loans/{id}/marks/{mark_id} undoes one)',
  }),
});
export type WireScheduleRow = Static<typeof WireScheduleRow>;

export const WireScheduleSummary = Type.Object({
  version: Type.Integer(),
  total_principal: Type.Number(),
  total_interest: Type.Number(),
  total_gst: Type.Number(),
  total_emi: Type.Number(),
  number_of_payments: Type.Integer(),
  total_charges: Type.Number(),
  closed_on: orNull('string', { description: 'YYYY-MM-DD of the last payment' }),
  reason: Type.String({
    description: 'created, updated, regenerated, prepaid, rate-changed, emi-overridden, foreclosed',
  }),
  generated_at: Type.String({ description: 'ISO-8601 UTC' }),
  emis_auto_debited: Type.Boolean(),
  construction_completed_on: orNull('string'),
  marks: Type.Array(
    Type.Object({
      mark_id: Type.String(),
      kind: Type.Union([
        Type.Literal('paid'),
        Type.Literal('paid-up-to'),
        Type.Literal('matched'),
        Type.Literal('missed'),
        Type.Literal('pre-emi-interest'),
      ]),
      payment_numbers: Type.Array(Type.Integer(), { description: 'The EMIs the mark is about' }),
      date: orNull('string', {
        description: 'Paid on (paid, matched), up to (paid-up-to), paid on (pre-EMI interest)',
      }),
      amount: orNull('number'),
      transaction_id: orNull('string'),
    }),
    { description: 'Every mark and match in the order made' },
  ),
});
export type WireScheduleSummary = Static<typeof WireScheduleSummary>;

export const LoanListResponse = page(WireLoan);
export type LoanListResponse = Static<typeof LoanListResponse>;

export const LoanStatsResponse = success(
  Type.Object({
    total_loans: Type.Integer(),
    active_loans: Type.Integer({ description: 'Ending today or later' }),
    total_amount: Type.Number({ description: 'Sum of principals, rupees' }),
    remaining_amount: Type.Number({ description: 'Sum of balances after the last instalment due by today' }),
    overdue_loans: Type.Integer({ description: 'Loans with an EMI due before today not marked paid' }),
    overdue_emis: Type.Integer(),
  }),
);
export type LoanStatsResponse = Static<typeof LoanStatsResponse>;

export const LoanResponse = success(Type.Object({ loan: WireLoan }));
export type LoanResponse = Static<typeof LoanResponse>;
export const LoanDeletedResponse = MessageResponse;

export const ScheduleResponse = success(
  Type.Object({
    schedule: Type.Array(WireScheduleRow),
    summary: Type.Union([WireScheduleSummary, Type.Null()]),
  }),
);
export type ScheduleResponse = Static<typeof ScheduleResponse>;
