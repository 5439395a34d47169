import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  CertificateQuery,
  CertificateResponse,
  EmiOverrideBody,
  errorResponses,
  ForeclosureBody,
  LoanParams,
  PrepaymentBody,
  RateChangeBody,
  ScheduleResponse,
  WhatIfResponse,
} from '@kosh/contract';
import {
  type ActualScheduleRow,
  comparePrepayment,
  financialYearFigures,
  fromPaise,
  type LoanCommand,
  type PrepaymentOutcome,
  scheduleTermsOf,
  ValidationError,
} from '@kosh/domain';
import { getSchedule, getUser, type ScheduleView } from '@kosh/projections';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TSchema } from 'typebox';
import { wireFieldErrors } from '../../commands/route';
import { CERTIFICATE_CSP, CERTIFICATE_NOTE, certificateHtml, certificatePdf } from './certificate-document';
import {
  parseEmiOverride,
  parseForeclosure,
  parsePrepayment,
  parsePrepaymentAmounts,
  parseRateChange,
} from './change-input';
import { loanIdOf } from './loan-id';
import { loanPaymentRoutes } from './payments';
import type { LoanRouteKit } from './route-kit';

/** What every change command carries: the caller's loan, the caller, the time. */
type ChangeIds = { loanId: string; userId: string; now: string };

const tags = ['Loan changes'];
const security = [{ bearerAuth: [] }];

const wireOutcome = (o: PrepaymentOutcome) => ({
  emi: fromPaise(o.emi),
  number_of_emis: o.numberOfEmis,
  closed_on: o.closedOn,
  interest: fromPaise(o.interest),
  gst: fromPaise(o.gst),
});

/** The domain's field names (annualRatePercent, newEmi, paidOn) as the wire spells them. */
async function wireNamed<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ValidationError)
      throw new ValidationError(wireFieldErrors(error.errors), error.message);
    throw error;
  }
}

/** A schedule read model row as the domain's actual-schedule row (for the certificate figures). */
function actualRowOf(row: ScheduleView['rows'][number]): ActualScheduleRow {
  return {
    kind: row.kind,
    paymentNumber: row.paymentNumber,
    date: row.emiDate,
    principal: row.principal,
    interest: row.interest,
    gst: row.gst,
    charge: row.charge,
    amount: row.emi,
    remainingPrincipal: row.remainingPrincipal,
    annualRatePercent: row.annualRatePercent ?? 0,
  };
}

/**
 * A loan's life after it starts (issue 15): part-payments with their what-if, foreclosure, RBI
 * rate resets, the lender's EMI, paid EMIs and the financial-year interest certificate. Each
 * change is an event followed by a new schedule version; bad input is a 422 and records nothing.
 */
export function loanChangeRoutes(fastify: FastifyInstance, kit: LoanRouteKit) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;

  const changeResponses = { 201: ScheduleResponse, ...errorResponses(401, 404, 409, 422) };

  /**
   * A change of terms from a date, recorded as an event: the answer is the schedule version it
   * made. Honours If-Match and Idempotency-Key.
   */
  function termsChange(route: {
    url: string;
    summary: string;
    body: TSchema;
    message: string;
    command: (ids: ChangeIds, body: Record<string, unknown>) => LoanCommand;
  }) {
    kit.loanCommand({
      method: 'POST',
      url: route.url,
      status: 201,
      idempotent: true,
      ifMatch: true,
      schema: {
        tags,
        security,
        summary: route.summary,
        params: LoanParams,
        body: route.body,
        response: changeResponses,
      },
      command: ({ userId, params, body }, now) =>
        route.command({ loanId: loanIdOf(params.id), userId, now }, body as Record<string, unknown>),
      answer: kit.answerSchedule(route.message),
    });
  }

  termsChange({
    url: '/:id/prepayments',
    summary: 'Record a part-payment; the schedule from its date follows the choice (a new version)',
    body: PrepaymentBody,
    message: 'Prepayment recorded successfully',
    command: (ids, body) => ({ type: 'RecordPrepayment', data: { ...ids, ...parsePrepayment(body) } }),
  });

  app.post(
    '/:id/prepayments/what-if',
    {
      schema: {
        tags,
        security,
        summary:
          'What a part-payment would do under each choice, side by side; nothing is saved (the date may be ahead)',
        params: LoanParams,
        body: PrepaymentBody,
        response: { 200: WhatIfResponse, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const { userId } = request;
      const state = await kit.ownLoanState(userId, request.params.id);
      const input = parsePrepaymentAmounts(request.body);
      const comparison = await wireNamed(() =>
        comparePrepayment(scheduleTermsOf(state.details), state.changes, input),
      );
      const withSaved = (choice: 'reduce-emi' | 'reduce-tenure') => {
        const c = comparison.choices[choice];
        return {
          ...wireOutcome(c),
          interest_saved: fromPaise(c.interestSaved),
          gst_saved: fromPaise(c.gstSaved),
          months_saved: c.monthsSaved,
          balances: c.balances.map((b) => ({
            date: b.date,
            remaining_principal: fromPaise(b.remainingPrincipal),
          })),
        };
      };
      return {
        success: true as const,
        data: {
          without_prepayment: wireOutcome(comparison.withoutPrepayment),
          accrued: {
            from: comparison.accrued.from,
            days: comparison.accrued.days,
            annual_rate: comparison.accrued.annualRatePercent,
            interest: fromPaise(comparison.accrued.interest),
            gst: fromPaise(comparison.accrued.gst),
          },
          reduce_emi: withSaved('reduce-emi'),
          reduce_tenure: withSaved('reduce-tenure'),
        },
      };
    },
  );

  termsChange({
    url: '/:id/foreclosure',
    summary:
      'Close the loan on a date: outstanding principal, interest since the last EMI (actual/365) and a charge',
    body: ForeclosureBody,
    message: 'Loan foreclosed successfully',
    command: (ids, body) => ({ type: 'ForecloseLoan', data: { ...ids, ...parseForeclosure(body) } }),
  });

  termsChange({
    url: '/:id/rate-changes',
    summary:
      'A new annual rate from a date with the RBI reset option taken; an EMI that does not cover the interest is refused (422)',
    body: RateChangeBody,
    message: 'Interest rate changed successfully',
    command: (ids, body) => ({ type: 'ChangeLoanRate', data: { ...ids, ...parseRateChange(body) } }),
  });

  termsChange({
    url: '/:id/emi-override',
    summary: 'The EMI the lender debits from a date (banks round differently); the tenure follows',
    body: EmiOverrideBody,
    message: 'EMI updated successfully',
    command: (ids, body) => ({ type: 'OverrideEmi', data: { ...ids, ...parseEmiOverride(body) } }),
  });

  loanPaymentRoutes(app, kit);

  app.get(
    '/:id/certificate',
    {
      schema: {
        tags,
        security,
        summary:
          'Interest and principal repaid in a financial year (April–March): JSON, or a printable page (format=html or Accept: text/html) or a PDF (format=pdf)',
        params: LoanParams,
        querystring: CertificateQuery,
        response: { 200: CertificateResponse, ...errorResponses(401, 404, 422) },
      },
    },
    async (request, reply) => {
      const { userId } = request;
      const loan = await kit.ownLoan(userId, request.params.id);
      const [schedule, user] = await Promise.all([
        getSchedule(platform.db, userId, loan.id),
        getUser(platform.db, userId),
      ]);
      const figures = await wireNamed(() =>
        financialYearFigures((schedule?.rows ?? []).map(actualRowOf), request.query.fy ?? '', {
          marks: schedule?.marks ?? [],
          emisAutoDebited: loan.emisAutoDebited,
          constructionCompletedOn: schedule?.constructionCompletedOn ?? null,
          today: kit.today(),
        }),
      );
      const facts = {
        borrower: user ? `${user.firstName} ${user.lastName}`.trim() : '',
        bankName: loan.bank.bankName,
        branchName: loan.bank.branchName,
        loanType: loan.loanType.typeName,
        accountNumber: loan.accountNumber,
        principalAmount: loan.principalAmount,
        startDate: loan.startDate,
        issuedOn: kit.today(),
        figures,
      };
      const format =
        request.query.format ??
        (request.headers.accept?.includes('text/html')
          ? 'html'
          : request.headers.accept?.includes('application/pdf')
            ? 'pdf'
            : 'json');
      const fileName = `interest-certificate-${figures.fy.label}-${loan.accountNumber}`;
      // Pages and files bypass the JSON schema of the answer.
      const raw = reply as FastifyReply;
      if (format === 'html')
        return raw
          .type('text/html; charset=utf-8')
          .header('Content-Security-Policy', CERTIFICATE_CSP)
          .send(certificateHtml(facts));
      if (format === 'pdf')
        return raw
          .type('application/pdf')
          .header('Content-Disposition', `inline; filename="${fileName}.pdf"`)
          .send(await certificatePdf(facts));
      if (format !== 'json')
        throw new ValidationError([{ field: 'format', message: 'Format must be json, html or pdf' }]);
      return {
        success: true as const,
        data: {
          certificate: {
            fy: figures.fy.label,
            from: figures.fy.from,
            to: figures.fy.to,
            interest: fromPaise(figures.interest),
            principal: fromPaise(figures.principal),
            gst: fromPaise(figures.gst),
            charges: fromPaise(figures.charges),
            emis_due: figures.emisDue,
            emis_paid: figures.emisPaid,
            unpaid_emis: figures.unpaidEmis.map((e) => ({
              payment_number: e.paymentNumber,
              due_date: e.dueDate,
              amount: fromPaise(e.amount),
              remainder: fromPaise(e.remainder),
              state: e.state,
            })),
            pre_emi_interest: {
              total: fromPaise(figures.preEmiInterest.total),
              construction_completed_on: figures.preEmiInterest.completedOn,
              instalment: figures.preEmiInterest.instalment,
              deductible: fromPaise(figures.preEmiInterest.deductible),
            },
            borrower: facts.borrower,
            account_number: loan.accountNumber,
            bank_name: loan.bank.bankName,
            loan_type: loan.loanType.typeName,
            note: CERTIFICATE_NOTE,
          },
        },
      };
    },
  );
}
