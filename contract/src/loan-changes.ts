import { type Static, Type } from 'typebox';
import { success } from './envelope';

/**
 * Issue 15: a loan's life after it starts. Bodies take any value so that each bad one gets its
 * own message (command-api/src/routes/loans/change-input.ts).
 */
const Loose = (description: string) => Type.Optional(Type.Unknown({ description }));

export const PrepaymentBody = Type.Object({
  date: Loose('YYYY-MM-DD, not in the future'),
  amount: Loose('Rupees of principal prepaid, less than the outstanding principal'),
  charge: Loose('Prepayment charge in rupees (default 0)'),
  choice: Loose('reduce-emi or reduce-tenure'),
});
export type PrepaymentBody = Static<typeof PrepaymentBody>;

export const ForeclosureBody = Type.Object({
  date: Loose('YYYY-MM-DD, not in the future'),
  charge: Loose('Rupees (default 0)'),
});
export type ForeclosureBody = Static<typeof ForeclosureBody>;

export const RateChangeBody = Type.Object({
  date: Loose('YYYY-MM-DD: the rate applies from the next EMI'),
  annual_rate_percent: Loose('New annual rate, 0.1 to 50'),
  option: Loose(
    'RBI reset options (circular of 18 August 2023): increase-emi, extend-tenure, combination (with new_emi) or switch-to-fixed',
  ),
  new_emi: Loose('Rupees, before GST; combination only'),
});
export type RateChangeBody = Static<typeof RateChangeBody>;

export const EmiOverrideBody = Type.Object({ date: Loose('YYYY-MM-DD'), emi: Loose('Rupees, before GST') });
export type EmiOverrideBody = Static<typeof EmiOverrideBody>;

export const EmiPaymentBody = Type.Object({
  paid_on: Loose('YYYY-MM-DD, not in the future (default: the debit’s date)'),
  amount: Loose('Rupees (default: the debit’s amount, else the EMI)'),
  transaction_id: Loose('Id of a debit in your transaction book'),
  confirm: Loose('true to match a debit whose amount differs from the EMI’s (else 422)'),
});
export type EmiPaymentBody = Static<typeof EmiPaymentBody>;

export const PaidUpToBody = Type.Object({
  up_to: Loose(
    'YYYY-MM-DD, not in the future: every EMI due on or before it with nothing marked is paid on its due date',
  ),
});
export type PaidUpToBody = Static<typeof PaidUpToBody>;

export const PreEmiInterestBody = Type.Object({
  date: Loose('YYYY-MM-DD, not in the future'),
  amount: Loose('Rupees of pre-EMI (pre-construction) interest paid'),
});
export type PreEmiInterestBody = Static<typeof PreEmiInterestBody>;

export const ConstructionCompletedBody = Type.Object({
  date: Loose('YYYY-MM-DD: the house was completed (not before the start date, not in the future)'),
});
export type ConstructionCompletedBody = Static<typeof ConstructionCompletedBody>;

/** A mark of a loan. */
export const MarkParams = Type.Object({ id: Type.String(), markId: Type.String() });
export type MarkParams = Static<typeof MarkParams>;

export const DebitMatchParams = Type.Object({ transactionId: Type.String() });
export type DebitMatchParams = Static<typeof DebitMatchParams>;

export const DebitMatchResponse = success(
  Type.Object({
    match: Type.Union([
      Type.Object({
        loan_id: Type.String(),
        payment_number: Type.Integer(),
        loan: Type.String({ description: 'The loan in words: bank, loan type, account number' }),
      }),
      Type.Null(),
    ]),
  }),
);
export type DebitMatchResponse = Static<typeof DebitMatchResponse>;

export const ForeclosureQuoteQuery = Type.Object({
  date: Type.Optional(Type.String({ description: 'YYYY-MM-DD (default today)' })),
  charge: Type.Optional(Type.String({ description: 'Rupees (default 0)' })),
});
export type ForeclosureQuoteQuery = Static<typeof ForeclosureQuoteQuery>;

export const ForeclosureQuoteResponse = success(
  Type.Object({
    quote: Type.Object({
      date: Type.String(),
      outstanding_principal: Type.Number(),
      interest: Type.Number({ description: 'Since the last EMI, actual/365' }),
      interest_from: Type.String({ description: 'The last EMI on or before the date, or the start date' }),
      days: Type.Integer(),
      annual_rate: Type.Number(),
      gst: Type.Number({ description: 'GST on the interest' }),
      charge: Type.Number(),
      total: Type.Number({ description: 'principal + interest + gst + charge' }),
      advance_emis: Type.Array(
        Type.Object({ payment_number: Type.Integer(), due_date: Type.String(), amount: Type.Number() }),
        { description: 'EMIs paid before the date that fall due after it: credited' },
      ),
      advance_credit: Type.Number(),
      payable: Type.Number({ description: 'total − advance_credit' }),
    }),
  }),
);
export type ForeclosureQuoteResponse = Static<typeof ForeclosureQuoteResponse>;

/** EMI `n` of a loan. */
export const PaymentParams = Type.Object({ id: Type.String(), n: Type.String() });
export type PaymentParams = Static<typeof PaymentParams>;

const Outcome = Type.Object({
  emi: Type.Number({ description: 'Level EMI before GST after the prepayment, rupees' }),
  number_of_emis: Type.Integer(),
  closed_on: Type.String(),
  interest: Type.Number(),
  gst: Type.Number(),
});
const Saved = Type.Object({
  interest_saved: Type.Number(),
  gst_saved: Type.Number(),
  months_saved: Type.Integer(),
  balances: Type.Array(
    Type.Object({ date: Type.String({ description: 'YYYY-MM-DD' }), remaining_principal: Type.Number() }),
    { description: 'Outstanding principal after each row from the part-payment on (the what-if chart line)' },
  ),
});
export const WhatIfResponse = success(
  Type.Object({
    without_prepayment: Outcome,
    accrued: Type.Object(
      {
        from: Type.String({ description: 'The last EMI before the part-payment, or the start date' }),
        days: Type.Integer(),
        annual_rate: Type.Number(),
        interest: Type.Number(),
        gst: Type.Number(),
      },
      { description: 'Interest collected with the part-payment: amount × rate × days ÷ 365' },
    ),
    reduce_emi: Type.Intersect([Outcome, Saved]),
    reduce_tenure: Type.Intersect([Outcome, Saved]),
  }),
);
export type WhatIfResponse = Static<typeof WhatIfResponse>;

export const CertificateQuery = Type.Object({
  fy: Type.Optional(Type.String({ description: 'Financial year, e.g. 2025-26' })),
  format: Type.Optional(Type.String({ description: 'json (default), html or pdf' })),
});
export type CertificateQuery = Static<typeof CertificateQuery>;

export const WireCertificate = Type.Object({
  fy: Type.String(),
  from: Type.String(),
  to: Type.String(),
  interest: Type.Number({
    description:
      'Section 24(b), due basis: interest of every EMI falling due in the year plus that of part-payments and a foreclosure in it',
  }),
  principal: Type.Number({
    description: 'Section 80C, paid basis: principal of the EMIs paid in the year plus principal prepaid',
  }),
  gst: Type.Number(),
  charges: Type.Number({ description: 'Part-payment and foreclosure charges: not interest' }),
  emis_due: Type.Integer(),
  emis_paid: Type.Integer(),
  unpaid_emis: Type.Array(
    Type.Object({
      payment_number: Type.Integer(),
      due_date: Type.String(),
      amount: Type.Number(),
      remainder: Type.Number(),
      state: Type.String(),
    }),
    { description: 'EMIs due in the year and not paid (or paid in part)' },
  ),
  pre_emi_interest: Type.Object({
    total: Type.Number({ description: 'All pre-EMI interest recorded' }),
    construction_completed_on: Type.Union([Type.String(), Type.Null()]),
    instalment: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Which of the five years from construction’s completion this is (1 to 5)',
    }),
    deductible: Type.Number({ description: 'The fifth deductible in this year' }),
  }),
  borrower: Type.String(),
  account_number: Type.String(),
  bank_name: Type.String(),
  loan_type: Type.String(),
  note: Type.String(),
});
export type WireCertificate = Static<typeof WireCertificate>;

export const CertificateResponse = success(Type.Object({ certificate: WireCertificate }));
export type CertificateResponse = Static<typeof CertificateResponse>;
