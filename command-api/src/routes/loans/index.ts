import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AsOfQuery,
  errorResponses,
  LoanBody,
  LoanDeletedResponse,
  LoanListQuery,
  LoanListResponse,
  LoanParams,
  LoanResponse,
  LoanStatsResponse,
  paginationOf,
  ScheduleResponse,
} from '@kosh/contract';
import {
  annualRatePercent,
  calendarDateOf,
  type ExistingLoan,
  feeGstPercentOf,
  fromPaise,
  inputOf,
  LOAN_FIELDS,
  LOAN_MESSAGES,
  LOAN_NOT_FOUND,
  type LoanValidationMode,
  loanApr,
  loanDecider,
  loanStreamId,
  NotFoundError,
  ownLoan as ownedLoan,
  parseLoan,
  paymentsApr,
  ValidationError,
  wireOfKey,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import {
  evolveSchedule,
  foldLoanView,
  getBank,
  getLoan,
  getLoanStats,
  getLoanType,
  getSchedule,
  type LoanView,
  listLoansWithFigures,
  loanPresentParts,
  loanStandings,
  type PresentParts,
  presentOf,
  presentPartsOf,
  type ScheduleView,
  standingOf,
} from '@kosh/projections';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagOf, loadAggregate } from '../../commands/handle';
import { commandRoutes } from '../../commands/route';
import { fileNamePart, sendCsv } from '../../csv';
import { cachedReadAt, createAnswerCache } from '../../reads/answer-cache';
import { readAt, readEach } from '../../reads/read-at';
import { registerLoanTypeList } from '../banks/loan-type-list';
import { loanChangeRoutes } from './changes';
import { parseLoanListQuery } from './list-query';
import { loanIdOf } from './loan-id';
import type { LoanOutcome } from './route-kit';
import { type LoanFigures, toWireLoan, toWireSchedule } from './wire';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const tags = ['Loans'];

const SCHEDULE_KINDS = {
  emi: 'EMI',
  prepayment: 'Part-payment',
  foreclosure: 'Foreclosure',
  'pre-emi-interest': 'Pre-EMI interest',
} as const;

const PAYMENT_STATES = {
  paid: 'Paid',
  'auto-debited': 'Auto-debited',
  'partly-paid': 'Partly paid',
  missed: 'Missed',
  overdue: 'Overdue',
  due: 'Due',
} as const;

/** A rate, or undefined when there is none to state (the fee takes the whole principal). */
function rateOrNone(rate: () => number): number | undefined {
  try {
    return rate();
  } catch {
    return undefined;
  }
}

/**
 * The contract's APR and the APR of the actual payments: every row of the current schedule
 * (EMIs, part-payments with their charges, a foreclosure) at its own date, as `actualLoanApr`
 * computes it from the changes; the schedule read model holds those rows already.
 */
function aprsOf(loan: LoanView, schedule: ScheduleView | null): Pick<LoanFigures, 'apr' | 'actualApr'> {
  const fee = {
    principal: loan.principalAmount,
    processingFee: loan.processingFee,
    feeGstPercent: feeGstPercentOf(loan),
  };
  const rows = schedule?.rows ?? [];
  return {
    apr: rateOrNone(() => loanApr(loan)),
    actualApr:
      rows.length === 0
        ? undefined
        : rateOrNone(() =>
            paymentsApr(
              fee,
              loan.startDate,
              rows.map((row) => ({ date: row.emiDate, amount: row.emi })),
            ),
          ),
  };
}

/** The loan's present on `asOf` from its schedule's parts (none: no schedule yet). */
function presentOfLoan(loan: LoanView, parts: PresentParts | undefined, asOf: string) {
  if (!parts) return undefined;
  return presentOf(parts, { principal: loan.principalAmount, contractRate: annualRatePercent(loan) }, asOf);
}
const security = [{ bearerAuth: [] }];

/** Spec section 7, Loans. Every read filters by the caller; another user's loan is a 404. */
export async function loanRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.addHook('onRequest', app.authenticate);
  // The list, the totals and the schedules, each keyed by user, route and query.
  const cache = createAnswerCache(platform);

  const today = () => calendarDateOf(platform.clock());

  /** The caller's loan or 404 (a malformed id is simply not found). */
  async function ownLoan(userId: string, id: string, db: Queryable = platform.db): Promise<LoanView> {
    const loan = UUID.test(id) ? await getLoan(db, userId, id) : null;
    if (!loan) throw new NotFoundError(LOAN_NOT_FOUND);
    return loan;
  }

  /**
   * The caller's live loan as its stream says (one read), or 404 like a missing one: a loan just
   * created can be worked with before the loan list has caught up.
   */
  async function ownLoanState(userId: string, id: string): Promise<ExistingLoan> {
    const { state } = await loadAggregate(platform, loanStreamId(loanIdOf(id)), loanDecider);
    return ownedLoan(state, userId);
  }

  /** The spec's rules, then: the bank and loan type must be ones the caller can see. */
  async function loanFields(userId: string, body: LoanBody, mode: LoanValidationMode) {
    const parsed = parseLoan(inputOf(LOAN_FIELDS, body), mode, today());
    if (!parsed.ok)
      throw new ValidationError(
        parsed.errors.map((e) => ({ ...e, field: wireOfKey(LOAN_FIELDS, e.field) ?? e.field })),
      );
    const [bank, loanType] = await Promise.all([
      getBank(platform.db, userId, parsed.value.bankId),
      getLoanType(platform.db, userId, parsed.value.loanTypeId),
    ]);
    const errors = [
      ...(bank ? [] : [{ field: 'bank_id', message: LOAN_MESSAGES.bankInvalid }]),
      ...(loanType ? [] : [{ field: 'loan_type_id', message: LOAN_MESSAGES.loanTypeInvalid }]),
    ];
    if (errors.length > 0) throw new ValidationError(errors);
    return parsed.value;
  }

  const loanCommand = commandRoutes(app, {
    decider: loanDecider,
    streamId: (command) => loanStreamId(command.data.loanId),
    // The loan list and stats, the schedule and the ledger's EMI debits show a change next; the
    // as-of views of them replay the history read model.
    waitFor: ['loans', 'schedules', 'ledger', 'history'],
  });

  /**
   * The loan as the list shows it after a command: the events the command read and those it
   * decided, folded by the loans read model's own fold (no second read of the stream, none of
   * `loans`). Were the read model lagging, appendEvents has said so (X-Read-Model-Lag).
   */
  async function loanAfter(userId: string, result: LoanOutcome): Promise<LoanView> {
    const loan = await foldLoanView(platform.db, userId, result.history);
    if (!loan) throw new NotFoundError(LOAN_NOT_FOUND);
    return loan;
  }

  /** The current schedule after a command, by the schedules read model's own fold likewise. */
  const scheduleAfter = (result: LoanOutcome) => result.history.reduce(evolveSchedule, null);

  /** The answer of a command that changes the loan: the same fields GET /api/loans/{id} answers. */
  const answerLoan =
    (message: string) => async (result: LoanOutcome, request: FastifyRequest, reply: FastifyReply) => {
      const loan = await loanAfter(request.userId, result);
      const schedule = scheduleAfter(result);
      const day = today();
      const standing = schedule ? standingOf(schedule, loan.emisAutoDebited, day) : undefined;
      const present = schedule ? presentOfLoan(loan, presentPartsOf(schedule, day), day) : undefined;
      reply.header('ETag', etagOf(loan.version));
      const figures = { ...aprsOf(loan, schedule), present };
      return { success: true as const, message, data: { loan: toWireLoan(loan, standing, figures) } };
    };

  /** The answer of a command that changes the schedule or its marks: that schedule, where each EMI stands. */
  const answerSchedule =
    (message: string | ((result: LoanOutcome) => string)) => async (result: LoanOutcome) => {
      const emisAutoDebited = result.state.status === 'none' || result.state.details.emisAutoDebited;
      return {
        success: true as const,
        message: typeof message === 'string' ? message : message(result),
        data: toWireSchedule(scheduleAfter(result), {
          emisAutoDebited,
          today: today(),
        }),
      };
    };

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: "One page of the user's loans: searched, filtered and sorted",
        querystring: LoanListQuery,
        response: { 200: LoanListResponse, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) =>
      cachedReadAt(platform, cache, request, reply, {
        models: ['loans', 'schedules'],
        alsoReads: ['catalog'],
        body: async ({ db, now }) => {
          const parsed = parseLoanListQuery(request.query);
          if (!parsed.ok) throw new ValidationError(parsed.errors);
          const query = parsed.value;
          const day = calendarDateOf(now);
          // One statement: the page, each loan's standing and present (issue 33).
          const { rows, totalItems } = await listLoansWithFigures(db, request.userId, query, day);
          return {
            success: true as const,
            data: rows.map(({ loan, standing, present }) =>
              toWireLoan(loan, standing, { present: presentOfLoan(loan, present, day) }),
            ),
            meta: { pagination: paginationOf(query.page, query.limit, totalItems) },
          };
        },
      }),
  );

  app.get(
    '/stats',
    {
      schema: {
        tags,
        security,
        summary: "Totals over the user's loans as of today (India time)",
        querystring: AsOfQuery,
        response: { 200: LoanStatsResponse, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) =>
      cachedReadAt(platform, cache, request, reply, {
        models: ['loans', 'schedules'],
        body: async ({ db, now }) => {
          const stats = await getLoanStats(db, request.userId, calendarDateOf(now));
          return {
            success: true as const,
            data: {
              total_loans: stats.totalLoans,
              active_loans: stats.activeLoans,
              total_amount: fromPaise(stats.totalAmount),
              remaining_amount: fromPaise(stats.remainingAmount),
              overdue_loans: stats.overdueLoans,
              overdue_emis: stats.overdueEmis,
            },
          };
        },
      }),
  );

  registerLoanTypeList(app, '/types', tags);
  loanChangeRoutes(app, { ownLoan, ownLoanState, loanCommand, answerSchedule, today });

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One loan (ETag: its version, for If-Match)',
        params: LoanParams,
        querystring: AsOfQuery,
        response: { 200: LoanResponse, ...errorResponses(401, 404, 422) },
      },
    },
    // Live answers are served again while neither the loans nor the schedules have moved (the
    // key holds the asking user and today's date: the present value and the standing are as of
    // today). Their ETag stays the loan's version, for If-Match. An as-of answer is a replay; a
    // past version is not one to send back in If-Match, so it has none.
    async (request, reply) => {
      // The version of the loan the body read (the answer's ETag; the wire loan does not carry it).
      let version: number | null = null;
      return cachedReadAt(platform, cache, request, reply, {
        models: ['loans', 'schedules'],
        // The bank's and the loan type's names.
        alsoReads: ['catalog'],
        routeEtag: () => {
          if (version === null)
            throw new Error('GET /api/loans/:id: the ETag asked for before the loan was read');
          return etagOf(version);
        },
        body: async ({ db, now, asOf }) => {
          const loan = await ownLoan(request.userId, request.params.id, db);
          version = loan.version;
          const day = calendarDateOf(now);
          const [standings, presents, schedule] = await readEach({ asOf }, [
            () => loanStandings(db, request.userId, [loan.id], day),
            () => loanPresentParts(db, request.userId, [loan.id], day),
            () => getSchedule(db, request.userId, loan.id),
          ]);
          const figures = {
            ...aprsOf(loan, schedule),
            present: presentOfLoan(loan, presents.get(loan.id), day),
          };
          return {
            success: true as const,
            data: { loan: toWireLoan(loan, standings.get(loan.id), figures) },
          };
        },
      });
    },
  );

  loanCommand({
    method: 'POST',
    url: '/',
    status: 201,
    idempotent: true,
    schema: {
      tags,
      security,
      summary: 'Create a loan and its repayment schedule (version 1)',
      body: LoanBody,
      response: { 201: LoanResponse, ...errorResponses(401, 422) },
    },
    newStream: true,
    command: async ({ userId, body }, now) => {
      const fields = await loanFields(userId, body, 'create');
      return { type: 'CreateLoan', data: { loanId: randomUUID(), userId, fields, now } };
    },
    answer: answerLoan('Loan created successfully'),
  });

  loanCommand({
    method: 'PUT',
    url: '/:id',
    ifMatch: true,
    schema: {
      tags,
      security,
      summary: 'Edit a loan; new terms make a new schedule version. Honours If-Match (409 when stale)',
      params: LoanParams,
      body: LoanBody,
      response: { 200: LoanResponse, ...errorResponses(401, 404, 409, 422) },
    },
    command: async ({ userId, params, body }, now) => {
      const loanId = loanIdOf(params.id);
      const fields = await loanFields(userId, body, 'edit');
      return { type: 'UpdateLoan', data: { loanId, userId, fields, now } };
    },
    answer: answerLoan('Loan updated successfully'),
  });

  loanCommand({
    method: 'DELETE',
    url: '/:id',
    ifMatch: true,
    schema: {
      tags,
      security,
      summary: 'Delete a loan (its EMIs leave the ledger). Honours If-Match (409 when stale)',
      params: LoanParams,
      response: { 200: LoanDeletedResponse, ...errorResponses(401, 404, 409) },
    },
    command: ({ userId, params }, now) => ({
      type: 'DeleteLoan',
      data: { loanId: loanIdOf(params.id), userId, now },
    }),
    answer: () => ({ success: true as const, message: 'Loan deleted successfully', data: null }),
  });

  app.get(
    '/:id/amortization',
    {
      schema: {
        tags,
        security,
        summary: "The loan's current repayment schedule with totals and version",
        params: LoanParams,
        querystring: AsOfQuery,
        response: { 200: ScheduleResponse, ...errorResponses(401, 404, 422) },
      },
    },
    // Live answers are served again while neither the loans nor the schedules have moved (ETag,
    // 304); the key holds the asking user, so an entry exists only once that user's ownership was
    // checked. An as-of answer is a replay.
    async (request, reply) =>
      cachedReadAt(platform, cache, request, reply, {
        models: ['loans', 'schedules'],
        body: async ({ db, now, asOf }) => {
          // Both read by the caller's id: the schedule of a loan not theirs is never read.
          const [loan, schedule] = await readEach({ asOf }, [
            () => ownLoan(request.userId, request.params.id, db),
            async () =>
              UUID.test(request.params.id) ? getSchedule(db, request.userId, request.params.id) : null,
          ]);
          return {
            success: true as const,
            data: toWireSchedule(schedule, {
              emisAutoDebited: loan.emisAutoDebited,
              today: calendarDateOf(now),
            }),
          };
        },
      }),
  );

  app.get(
    '/:id/amortization.csv',
    {
      schema: {
        tags,
        security,
        summary:
          "The loan's current repayment schedule as CSV (UTF-8 with BOM, dates YYYY-MM-DD, amounts in rupees), with where each EMI stands",
        params: LoanParams,
        querystring: AsOfQuery,
        produces: ['text/csv'],
        response: errorResponses(401, 404, 422),
      },
    },
    async (request, reply) => {
      const { loan, wire } = await readAt(platform, request, ['loans', 'schedules'], async ({ db, now }) => {
        const loan = await ownLoan(request.userId, request.params.id, db);
        const schedule = await getSchedule(db, request.userId, loan.id);
        const payments = { emisAutoDebited: loan.emisAutoDebited, today: calendarDateOf(now) };
        return { loan, wire: toWireSchedule(schedule, payments) };
      });
      const version = wire.summary ? `-v${wire.summary.version}` : '';
      return sendCsv(
        reply,
        `loan-${fileNamePart(loan.accountNumber)}-schedule${version}.csv`,
        [
          'No.',
          'Date',
          'Kind',
          'EMI',
          'Principal',
          'Interest',
          'GST',
          'Charge',
          'Principal remaining',
          'Status',
          'Paid on',
          'Paid amount',
        ],
        wire.schedule.map((row) => [
          String(row.payment_number),
          row.emi_date,
          SCHEDULE_KINDS[row.kind],
          row.emi,
          row.principal,
          row.interest,
          row.gst,
          row.charge,
          row.remaining_principal,
          row.payment_state ? PAYMENT_STATES[row.payment_state] : null,
          row.paid_on,
          row.paid_amount,
        ]),
      );
    },
  );

  loanCommand({
    method: 'POST',
    url: '/:id/amortization/regenerate',
    idempotent: true,
    ifMatch: true,
    schema: {
      tags,
      security,
      summary: 'Generate the next schedule version from the current terms',
      params: LoanParams,
      response: { 200: ScheduleResponse, ...errorResponses(401, 404, 409) },
    },
    command: ({ userId, params }, now) => ({
      type: 'RegenerateSchedule',
      data: { loanId: loanIdOf(params.id), userId, now },
    }),
    answer: answerSchedule('Amortization schedule generated successfully'),
  });
}
