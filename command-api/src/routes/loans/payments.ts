import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ConstructionCompletedBody,
  DebitMatchParams,
  DebitMatchResponse,
  EmiPaymentBody,
  errorResponses,
  ForeclosureQuoteQuery,
  ForeclosureQuoteResponse,
  LoanParams,
  MarkParams,
  PaidUpToBody,
  PaymentParams,
  PreEmiInterestBody,
  ScheduleResponse,
} from '@kosh/contract';
import {
  ConflictError,
  foreclosureQuote,
  fromPaise,
  LOAN_CHANGE_MESSAGES,
  scheduleTermsOf,
  ValidationError,
} from '@kosh/domain';
import { getTransaction } from '@kosh/projections';
import type { FastifyInstance } from 'fastify';
import { wireFieldErrors } from '../../commands/route';
import {
  CHANGE_INPUT_MESSAGES,
  parseConstructionCompleted,
  parseEmiPayment,
  parseForeclosureQuote,
  parsePaidUpTo,
  parsePaymentNumber,
  parsePreEmiInterest,
} from './change-input';
import { loanIdOf } from './loan-id';
import { matchOfDebit } from './release-matches';
import type { LoanRouteKit } from './route-kit';

const tags = ['Loan payments'];
const security = [{ bearerAuth: [] }];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How EMIs are paid (issue 27): marked paid by hand, paid up to a date in one go, matched to a
 * debit of the transaction book, missed; pre-EMI interest and construction's completion; any mark
 * undone. Each is an event with its own mark id; bad input is a 422 and records nothing.
 */
export function loanPaymentRoutes(fastify: FastifyInstance, kit: LoanRouteKit) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  const responses = { 201: ScheduleResponse, ...errorResponses(401, 404, 409, 422) };

  /** The caller's debit, not matched to an EMI yet; 422 else. */
  async function unmatchedDebit(userId: string, transactionId: unknown) {
    const refuse = (message: string) => new ValidationError([{ field: 'transaction_id', message }]);
    if (typeof transactionId !== 'string' || !UUID.test(transactionId))
      throw refuse(CHANGE_INPUT_MESSAGES.transactionInvalid);
    const found = await getTransaction(platform.db, userId, transactionId);
    if (found?.transactionType !== 'D') throw refuse(CHANGE_INPUT_MESSAGES.transactionInvalid);
    const { rows } = await platform.db.query(
      'SELECT 1 FROM loan_emi_marks WHERE user_id = $1 AND transaction_id = $2 LIMIT 1',
      [userId, found.id],
    );
    if (rows.length > 0) throw refuse(CHANGE_INPUT_MESSAGES.transactionMatched);
    return { transactionId, paidOn: found.transactionDate, amount: found.amount };
  }

  kit.loanCommand({
    method: 'POST',
    url: '/:id/emis/:n/payment',
    status: 201,
    idempotent: true,
    schema: {
      tags,
      security,
      summary:
        'EMI n paid by hand (paid_on, amount: default the EMI), or matched to a debit of the transaction book (transaction_id; a debit of another amount needs confirm: true)',
      params: PaymentParams,
      body: EmiPaymentBody,
      response: responses,
    },
    command: async ({ userId, params, body }, now) => {
      const loanId = loanIdOf(params.id);
      const paymentNumber = parsePaymentNumber(params.n);
      const matched = body.transaction_id ?? null;
      const debit = matched === null ? undefined : await unmatchedDebit(userId, matched);
      const input = parseEmiPayment(body, { paidOn: debit?.paidOn, amount: debit?.amount });
      const ids = { loanId, userId, now, markId: randomUUID(), paymentNumber };
      if (debit === undefined)
        return { type: 'MarkEmiPaid', data: { ...ids, paidOn: input.paidOn, amount: input.amount } };
      // What was matched is what the debit paid: its amount, whatever the body says.
      const { transactionId, amount } = debit;
      return {
        type: 'MatchEmi',
        data: { ...ids, transactionId, paidOn: input.paidOn, amount, confirm: input.confirm },
      };
    },
    answer: kit.answerSchedule((result) =>
      result.events[0]?.type === 'EmiMatched' ? 'Debit matched to the EMI' : 'EMI marked paid',
    ),
  });

  kit.loanCommand({
    method: 'POST',
    url: '/:id/emis/paid-up-to',
    status: 201,
    idempotent: true,
    schema: {
      tags,
      security,
      summary:
        'Every EMI due on or before up_to with nothing marked, paid on its own due date for its amount (one mark, undone at once)',
      params: LoanParams,
      body: PaidUpToBody,
      response: responses,
    },
    command: async ({ userId, params, body }, now) => {
      const loanId = loanIdOf(params.id);
      const { upTo } = parsePaidUpTo(body);
      return { type: 'MarkEmisPaidUpTo', data: { loanId, userId, now, markId: randomUUID(), upTo } };
    },
    answer: kit.answerSchedule((result) => {
      const event = result.events[0];
      const count = event?.type === 'EmisMarkedPaidUpTo' ? event.data.paymentNumbers.length : 0;
      return `${count} ${count === 1 ? 'EMI' : 'EMIs'} marked paid`;
    }),
  });

  kit.loanCommand({
    method: 'POST',
    url: '/:id/emis/:n/missed',
    status: 201,
    idempotent: true,
    schema: {
      tags,
      security,
      summary: 'EMI n bounced: it counts as overdue until what is paid for it covers it',
      params: PaymentParams,
      response: responses,
    },
    command: async ({ userId, params }, now) => {
      const loanId = loanIdOf(params.id);
      const paymentNumber = parsePaymentNumber(params.n);
      return { type: 'MarkEmiMissed', data: { loanId, userId, now, markId: randomUUID(), paymentNumber } };
    },
    answer: kit.answerSchedule('EMI marked missed'),
  });

  kit.loanCommand({
    method: 'DELETE',
    url: '/:id/marks/:markId',
    schema: {
      tags,
      security,
      summary: 'Undo a mark (paid, paid up to, missed, pre-EMI interest) or release a match',
      params: MarkParams,
      response: { 200: ScheduleResponse, ...errorResponses(401, 404, 409) },
    },
    command: async ({ userId, params }, now) => {
      const loanId = loanIdOf(params.id);
      return { type: 'UndoEmiMark', data: { loanId, userId, now, markId: params.markId } };
    },
    answer: kit.answerSchedule((result) =>
      result.events[0]?.type === 'EmiMatchReleased' ? 'Match released' : 'Mark undone',
    ),
  });

  kit.loanCommand({
    method: 'POST',
    url: '/:id/pre-emi-interest',
    status: 201,
    idempotent: true,
    schema: {
      tags,
      security,
      summary: 'Pre-EMI (pre-construction) interest paid on a date: deductible in fifths from completion',
      params: LoanParams,
      body: PreEmiInterestBody,
      response: responses,
    },
    command: async ({ userId, params, body }, now) => {
      const loanId = loanIdOf(params.id);
      const input = parsePreEmiInterest(body);
      return { type: 'RecordPreEmiInterest', data: { loanId, userId, now, markId: randomUUID(), ...input } };
    },
    answer: kit.answerSchedule('Pre-EMI interest recorded'),
  });

  kit.loanCommand({
    method: 'PUT',
    url: '/:id/construction-completed',
    schema: {
      tags,
      security,
      summary: 'The date construction was completed (the first of the five years of pre-EMI interest)',
      params: LoanParams,
      body: ConstructionCompletedBody,
      response: { 200: ScheduleResponse, ...errorResponses(401, 404, 422) },
    },
    command: async ({ userId, params, body }, now) => {
      const loanId = loanIdOf(params.id);
      return {
        type: 'CompleteConstruction',
        data: { loanId, userId, now, ...parseConstructionCompleted(body) },
      };
    },
    answer: kit.answerSchedule('Construction completion recorded'),
  });

  app.get(
    '/debit-matches/:transactionId',
    {
      schema: {
        tags,
        security,
        summary: 'The EMI a debit of your book is matched to (its delete releases the match), or null',
        params: DebitMatchParams,
        response: { 200: DebitMatchResponse, ...errorResponses(401) },
      },
    },
    async (request) => {
      const { transactionId } = request.params;
      const found = UUID.test(transactionId)
        ? await matchOfDebit(platform.db, request.userId, transactionId)
        : null;
      const loan =
        found && [found.bank_name, found.type_name, found.account_number].filter(Boolean).join(' ');
      return {
        success: true as const,
        data: {
          match:
            found && loan
              ? { loan_id: found.loan_id, payment_number: Number(found.payment_number), loan }
              : null,
        },
      };
    },
  );

  app.get(
    '/:id/foreclosure/quote',
    {
      schema: {
        tags,
        security,
        summary:
          'What closing the loan on a date would cost (outstanding principal, interest since the last EMI, GST, charge, EMIs paid in advance credited); nothing is recorded',
        params: LoanParams,
        querystring: ForeclosureQuoteQuery,
        response: { 200: ForeclosureQuoteResponse, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const state = await kit.ownLoanState(request.userId, request.params.id);
      const { date, charge } = parseForeclosureQuote(request.query, kit.today());
      if (state.foreclosedOn !== null)
        throw new ConflictError(LOAN_CHANGE_MESSAGES.loanForeclosed(state.foreclosedOn));
      let quote: ReturnType<typeof foreclosureQuote>;
      try {
        quote = foreclosureQuote(
          scheduleTermsOf(state.details),
          state.changes,
          state.payments.marks,
          date,
          charge,
        );
      } catch (error) {
        if (error instanceof ValidationError)
          throw new ValidationError(wireFieldErrors(error.errors), error.message);
        throw error;
      }
      return {
        success: true as const,
        data: {
          quote: {
            date: quote.date,
            outstanding_principal: fromPaise(quote.principal),
            interest: fromPaise(quote.interest),
            interest_from: quote.interestFrom,
            days: quote.days,
            annual_rate: quote.annualRatePercent,
            gst: fromPaise(quote.gst),
            charge: fromPaise(quote.charge),
            total: fromPaise(quote.total),
            advance_emis: quote.advanceEmis.map((emi) => ({
              payment_number: emi.paymentNumber,
              due_date: emi.dueDate,
              amount: fromPaise(emi.amount),
            })),
            advance_credit: fromPaise(quote.advanceCredit),
            payable: fromPaise(quote.payable),
          },
        },
      };
    },
  );
}
