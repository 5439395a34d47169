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
  ScheduleResponse,
} from '@kosh/contract';
import {
  calendarDateOf,
  fromPaise,
  LOAN_MESSAGES,
  LOAN_NOT_FOUND,
  type LoanCommand,
  type LoanState,
  type LoanStreamEvent,
  type LoanValidationMode,
  loanApr,
  loanDecider,
  loanStreamId,
  NotFoundError,
  parseLoan,
  ValidationError,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store/db';
import { getBank, getLoanType } from '@kosh/projections/catalog/queries';
import { evolveLoanRow } from '@kosh/projections/loans/projector';
import { getLoan, getLoanStats, type LoanView, listLoans } from '@kosh/projections/loans/queries';
import { allProjections } from '@kosh/projections/registry';
import { evolveSchedule } from '@kosh/projections/schedules/projector';
import {
  getSchedule,
  loanStandings,
  type ScheduleView,
  standingOf,
} from '@kosh/projections/schedules/queries';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  etagOf,
  type HandleResult,
  handleCommand,
  loadAggregate,
  parseIfMatch,
  READ_MODEL_LAG_HEADER,
} from '../../commands/handle';
import { readAt, readsLive } from '../../history/read-at';
import { createAnswerCache } from '../answer-cache';
import { registerLoanTypeList } from '../banks/loan-type-list';
import { loanChangeRoutes } from './changes';
import { parseLoanListQuery } from './list-query';
import { loanInputOf, toWireLoan, toWireSchedule, wireErrors } from './wire';

/** Every read model that folds loan events (loan list, schedules, the ledger's EMI debits). */
const READ_MODELS = allProjections.filter((p) => p.handles.includes('ScheduleGenerated')).map((p) => p.name);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const tags = ['Loans'];

/** The loan's APR, or undefined when the fee takes the whole principal (no rate to state). */
function aprOf(loan: LoanView): number | undefined {
  try {
    return loanApr(loan);
  } catch {
    return undefined;
  }
}
const security = [{ bearerAuth: [] }];

/** Spec section 7, Loans. Every read filters by the caller; another user's loan is a 404. */
export async function loanRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.addHook('onRequest', app.authenticate);
  const scheduleCache = createAnswerCache(platform.db);

  const today = () => calendarDateOf(platform.clock());

  /** The caller's loan or 404 (a malformed id is simply not found). */
  async function ownLoan(userId: string, id: string, db: Queryable = platform.db): Promise<LoanView> {
    const loan = UUID.test(id) ? await getLoan(db, userId, id) : null;
    if (!loan) throw new NotFoundError(LOAN_NOT_FOUND);
    return loan;
  }

  /**
   * The caller's loan as its stream says, or 404: commands check against the aggregate, so a
   * loan just created can be edited before the loan list has caught up.
   */
  async function ownLoanId(userId: string, id: string): Promise<string> {
    if (UUID.test(id)) {
      const { state } = await loadAggregate(platform, loanStreamId(id), loanDecider);
      if (state.status === 'active' && state.userId === userId) return state.loanId;
    }
    throw new NotFoundError(LOAN_NOT_FOUND);
  }

  /** The spec's rules, then: the bank and loan type must be ones the caller can see. */
  async function loanFields(userId: string, body: LoanBody, mode: LoanValidationMode) {
    const parsed = parseLoan(loanInputOf(body), mode, today());
    if (!parsed.ok) throw new ValidationError(wireErrors(parsed.errors));
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

  async function run(
    userId: string,
    loanId: string,
    command: LoanCommand,
    reply: FastifyReply,
    ifMatch?: string,
  ) {
    return handleCommand(
      { platform, userId, reply },
      {
        streamId: loanStreamId(loanId),
        decider: loanDecider,
        command,
        expectedVersion: parseIfMatch(ifMatch),
        waitFor: READ_MODELS,
      },
    );
  }

  /** The stream's events, which the loan and schedule read models fold. */
  const projectedHistory = (result: HandleResult<LoanState, LoanStreamEvent>) => result.history;

  /**
   * The loan as the list shows it; when the list lags behind the command (bounded wait timed
   * out), the same fold the projection runs, over the stream's events, answers instead.
   */
  async function loanAfter(
    userId: string,
    result: HandleResult<LoanState, LoanStreamEvent>,
    reply: FastifyReply,
  ): Promise<LoanView> {
    if (result.state.status === 'none') throw new NotFoundError(LOAN_NOT_FOUND);
    // The events are stored: a read model out of reach is answered like one lagging behind.
    const projected = await getLoan(platform.db, userId, result.state.loanId).catch(() => null);
    if (projected && projected.version >= result.nextVersion) return projected;
    const row = projectedHistory(result).reduce(evolveLoanRow, null);
    if (!row) throw new NotFoundError(LOAN_NOT_FOUND);
    reply.header(READ_MODEL_LAG_HEADER, 'true');
    const [bank, loanType] = await Promise.all([
      getBank(platform.db, userId, row.bankId),
      getLoanType(platform.db, userId, row.loanTypeId),
    ]);
    return {
      ...row,
      bank: { bankName: bank?.bankName ?? '', branchName: bank?.branchName ?? null },
      loanType: { typeName: loanType?.typeName ?? '' },
    };
  }

  /** The current schedule, from the read model or (lagging) from the stream's events. */
  async function scheduleAfter(
    userId: string,
    loanId: string,
    result: HandleResult<LoanState, LoanStreamEvent>,
    reply: FastifyReply,
  ): Promise<ScheduleView | null> {
    const folded = projectedHistory(result).reduce(evolveSchedule, null);
    const projected = await getSchedule(platform.db, userId, loanId);
    if (projected && (!folded || projected.version >= folded.version)) return projected;
    if (folded) reply.header(READ_MODEL_LAG_HEADER, 'true');
    return folded;
  }

  async function answerWithLoan(
    reply: FastifyReply,
    userId: string,
    result: HandleResult<LoanState, LoanStreamEvent>,
    status: number,
    message: string,
  ) {
    const loan = await loanAfter(userId, result, reply);
    // The same fields as GET /api/loans/{id} answers afterwards (status, overdue EMIs, APR).
    const schedule = await scheduleAfter(userId, loan.id, result, reply);
    const standing = schedule ? standingOf(schedule, today()) : undefined;
    return reply
      .status(status)
      .header('ETag', etagOf(loan.version))
      .send({ success: true as const, message, data: { loan: toWireLoan(loan, standing, aprOf(loan)) } });
  }

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
    async (request) =>
      readAt(platform, request, ['loans', 'schedules'], async ({ db, now }) => {
        const parsed = parseLoanListQuery(request.query);
        if (!parsed.ok) throw new ValidationError(parsed.errors);
        const query = parsed.value;
        const { rows, totalItems } = await listLoans(db, request.userId, query);
        const standings = await loanStandings(
          db,
          request.userId,
          rows.map((row) => row.id),
          calendarDateOf(now),
        );
        return {
          success: true as const,
          data: rows.map((row) => toWireLoan(row, standings.get(row.id))),
          meta: {
            pagination: {
              page: query.page,
              limit: query.limit,
              total_items: totalItems,
              total_pages: Math.ceil(totalItems / query.limit),
            },
          },
        };
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
    async (request) =>
      readAt(platform, request, ['loans', 'schedules'], async ({ db, now }) => {
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
      }),
  );

  registerLoanTypeList(app, '/types', tags);
  loanChangeRoutes(app, { ownLoan, ownLoanId, run, scheduleAfter, today });

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
    async (request, reply) =>
      readAt(platform, request, ['loans', 'schedules'], async ({ db, now, asOf }) => {
        const loan = await ownLoan(request.userId, request.params.id, db);
        const standings = await loanStandings(db, request.userId, [loan.id], calendarDateOf(now));
        // A past version is not one to send back in If-Match.
        if (!asOf) reply.header('ETag', etagOf(loan.version));
        return {
          success: true as const,
          data: { loan: toWireLoan(loan, standings.get(loan.id), aprOf(loan)) },
        };
      }),
  );

  app.post(
    '/',
    {
      config: { idempotent: true },
      schema: {
        tags,
        security,
        summary: 'Create a loan and its repayment schedule (version 1)',
        body: LoanBody,
        response: { 201: LoanResponse, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) => {
      const fields = await loanFields(request.userId, request.body, 'create');
      const loanId = randomUUID();
      const now = platform.clock().toISOString();
      const result = await run(
        request.userId,
        loanId,
        { type: 'CreateLoan', data: { loanId, userId: request.userId, fields, now } },
        reply,
      );
      return answerWithLoan(reply, request.userId, result, 201, 'Loan created successfully');
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Edit a loan; new terms make a new schedule version. Honours If-Match (409 when stale)',
        params: LoanParams,
        body: LoanBody,
        response: { 200: LoanResponse, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { userId } = request;
      const loanId = await ownLoanId(userId, request.params.id);
      const fields = await loanFields(userId, request.body, 'edit');
      const now = platform.clock().toISOString();
      const result = await run(
        userId,
        loanId,
        { type: 'UpdateLoan', data: { loanId, userId, fields, now } },
        reply,
        request.headers['if-match'],
      );
      return answerWithLoan(reply, userId, result, 200, 'Loan updated successfully');
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a loan (its EMIs leave the ledger). Honours If-Match (409 when stale)',
        params: LoanParams,
        response: { 200: LoanDeletedResponse, ...errorResponses(401, 404, 409) },
      },
    },
    async (request, reply) => {
      const { userId } = request;
      const loanId = await ownLoanId(userId, request.params.id);
      const now = platform.clock().toISOString();
      await run(
        userId,
        loanId,
        { type: 'DeleteLoan', data: { loanId, userId, now } },
        reply,
        request.headers['if-match'],
      );
      return { success: true as const, message: 'Loan deleted successfully', data: null };
    },
  );

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
    async (request, reply) => {
      // Live answers are served again while the schedules read model has not moved (ETag, 304);
      // an as-of answer is a replay.
      if (readsLive(request)) {
        const loan = await ownLoan(request.userId, request.params.id);
        return scheduleCache.answer(request, reply, {
          key: `${request.userId}/${loan.id}`,
          projections: ['schedules'],
          build: async () => ({
            success: true as const,
            data: toWireSchedule(await getSchedule(platform.db, request.userId, loan.id)),
          }),
        });
      }
      return readAt(platform, request, ['loans', 'schedules'], async ({ db }) => {
        const loan = await ownLoan(request.userId, request.params.id, db);
        const schedule = await getSchedule(db, request.userId, loan.id);
        return { success: true as const, data: toWireSchedule(schedule) };
      });
    },
  );

  app.post(
    '/:id/amortization/regenerate',
    {
      config: { idempotent: true },
      schema: {
        tags,
        security,
        summary: 'Generate the next schedule version from the current terms',
        params: LoanParams,
        response: { 200: ScheduleResponse, ...errorResponses(401, 404, 409) },
      },
    },
    async (request, reply) => {
      const { userId } = request;
      const loanId = await ownLoanId(userId, request.params.id);
      const now = platform.clock().toISOString();
      const result = await run(
        userId,
        loanId,
        { type: 'RegenerateSchedule', data: { loanId, userId, now } },
        reply,
        request.headers['if-match'],
      );
      const schedule = await scheduleAfter(userId, loanId, result, reply);
      return {
        success: true as const,
        message: 'Amortization schedule generated successfully',
        data: toWireSchedule(schedule),
      };
    },
  );
}
