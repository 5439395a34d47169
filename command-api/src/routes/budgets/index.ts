import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  BudgetBody,
  BudgetDeletedResponse,
  BudgetListResponse,
  BudgetParams,
  BudgetResponse,
  BudgetStatusQuery,
  BudgetStatusResponse,
  errorResponses,
  type WireBudget,
} from '@kosh/contract';
import {
  type BudgetCommand,
  type BudgetEvent,
  type BudgetState,
  budgetDecider,
  budgetStreamId,
  fromPaise,
  isUuid,
  monthName,
  monthOf,
  NotFoundError,
  ValidationError,
} from '@kosh/domain';
import { BUDGET_MESSAGES, parseBudgetCategory, parseBudgetTerms } from '@kosh/domain/validation/budget';
import {
  type BudgetView,
  budgetOfCategory,
  budgetStatus,
  evolveBudgetRow,
  getBudget,
  listBudgets,
} from '@kosh/projections';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { etagOf } from '../../commands/handle';
import { type CommandOutcome, commandRoutes, readOrFold } from '../../commands/route';
import { cachedReadAt, createAnswerCache } from '../../reads/answer-cache';
import { readAt } from '../../reads/read-at';
import { ownCategory } from '../categories/own-category';
import { parseLedgerQuery } from '../ledger/index';
import { ok, shareOf } from '../reports/index';

const tags = ['Budgets'];
const security = [{ bearerAuth: [] }];

/** YYYY-MM of `now` in India: the month a budget is set or changed in. */
const monthKey = (now: Date) => {
  const { year, month } = monthOf(now);
  return `${year}-${String(month).padStart(2, '0')}`;
};

export const budgetToWire = (b: BudgetView): WireBudget => ({
  id: b.id,
  category_id: b.categoryId,
  category_name: b.categoryName,
  parent_name: b.parentName,
  category_gone: b.categoryGone,
  amount: fromPaise(b.amount),
  rollover: b.rollover,
  start_month: b.startMonth,
  created_at: b.createdAt,
  updated_at: b.updatedAt,
});

/**
 * Issue 31 item 3: a monthly amount per expense category (`budget-{id}` streams), and where each
 * stands in a month. Another user's budget is a 404; a category not the user's own expense
 * category, or one that already has a budget, is a 422 on `category_id`.
 */
export async function budgetRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  const cache = createAnswerCache(platform);
  app.addHook('onRequest', app.authenticate);

  const notFound = () => new NotFoundError(BUDGET_MESSAGES.budgetNotFound);
  const categoryError = (message: string) => new ValidationError([{ field: 'category_id', message }]);

  const budgetCommand = commandRoutes(app, {
    decider: budgetDecider,
    streamId: (command) => budgetStreamId(command.data.budgetId),
    waitFor: ['budgets'],
  });

  /** The budget as the list shows it: the read model's row once it has the events, else the fold. */
  const answerBudget =
    (message: string) =>
    async (
      result: CommandOutcome<BudgetState, BudgetCommand, BudgetEvent>,
      request: { userId: string },
      reply: FastifyReply,
    ) => {
      const id = result.command.data.budgetId;
      const stale = await getBudget(platform.db, request.userId, id).catch(() => null);
      const row = await readOrFold<BudgetView>(reply, {
        read: async () => stale,
        current: (r) => r.version >= result.nextVersion,
        fold: async () => {
          const folded = result.history.reduce(evolveBudgetRow, null);
          if (!folded || folded.deleted) return null;
          const category = await ownCategory(platform, request.userId, folded.categoryId);
          return {
            ...folded,
            categoryName: category?.name ?? stale?.categoryName ?? 'Deleted category',
            parentName: stale?.parentName ?? null,
            categoryGone: category === null,
          };
        },
      });
      if (!row) throw notFound();
      reply.header('ETag', etagOf(row.version));
      return { success: true as const, message, data: { budget: budgetToWire(row) } };
    };

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'The budgets, by category',
        querystring: BudgetStatusQuery,
        response: { 200: BudgetListResponse, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) =>
      cachedReadAt(platform, cache, request, reply, {
        models: ['budgets', 'categories'],
        body: async ({ db }) => ({
          success: true as const,
          data: { budgets: (await listBudgets(db, request.userId)).map(budgetToWire) },
        }),
      }),
  );

  app.get(
    '/status',
    {
      schema: {
        tags,
        security,
        summary:
          'Each budget against what its category (and subcategories) spent in a month (default this one), rollover included; overspent ones first',
        querystring: BudgetStatusQuery,
        response: { 200: BudgetStatusResponse, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) =>
      cachedReadAt(platform, cache, request, reply, {
        models: ['budgets', 'categories', 'transactions', 'ledger', 'schedules'],
        body: async ({ db, now }) => {
          const parsed = parseLedgerQuery(request.query, monthOf(now));
          const { year, month } = ok(parsed);
          const key = `${year}-${String(month).padStart(2, '0')}`;
          const rows = await budgetStatus(db, request.userId, key);
          const budgets = rows
            .map((b) => ({
              ...budgetToWire(b),
              month_amount: fromPaise(b.standing.amount),
              carried: fromPaise(b.standing.carried),
              available: fromPaise(b.standing.available),
              spent: fromPaise(b.standing.spent),
              remaining: fromPaise(b.standing.remaining),
              overspent: b.standing.overspent,
              percent_used: shareOf(b.standing.spent, b.standing.available),
            }))
            .sort(
              (a, b) =>
                Number(b.overspent) - Number(a.overspent) ||
                b.percent_used - a.percent_used ||
                a.category_name.localeCompare(b.category_name),
            );
          const sum = (key: 'available' | 'spent' | 'remaining') =>
            fromPaise(rows.reduce((total, b) => total + b.standing[key], 0));
          return {
            success: true as const,
            data: {
              month,
              year,
              month_name: monthName(month),
              budgets,
              totals: { available: sum('available'), spent: sum('spent'), remaining: sum('remaining') },
              overspent_count: budgets.filter((b) => b.overspent).length,
            },
          };
        },
      }),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One budget (ETag: its version)',
        params: BudgetParams,
        querystring: BudgetStatusQuery,
        response: { 200: BudgetResponse, ...errorResponses(401, 404, 422) },
      },
    },
    async (request, reply) =>
      readAt(platform, request, ['budgets', 'categories'], async ({ db }) => {
        const { id } = request.params;
        const row = isUuid(id) ? await getBudget(db, request.userId, id) : null;
        if (!row) throw notFound();
        reply.header('ETag', etagOf(row.version));
        return { success: true as const, data: { budget: budgetToWire(row) } };
      }),
  );

  budgetCommand({
    method: 'POST',
    url: '/',
    status: 201,
    idempotent: true,
    schema: {
      tags,
      security,
      summary: 'Set a monthly budget for an expense category (it counts from this month)',
      body: BudgetBody,
      response: { 201: BudgetResponse, ...errorResponses(401, 422) },
    },
    newStream: true,
    command: async ({ userId, body }, now) => {
      const category = parseBudgetCategory(body);
      const terms = parseBudgetTerms(body);
      if (!category.ok || !terms.ok)
        throw new ValidationError([
          ...(category.ok ? [] : category.errors),
          ...(terms.ok ? [] : terms.errors),
        ]);
      const node = await ownCategory(platform, userId, category.value);
      if (node?.kind !== 'expense') throw categoryError(BUDGET_MESSAGES.categoryInvalid);
      if (await budgetOfCategory(platform.db, userId, node.categoryId))
        throw categoryError(BUDGET_MESSAGES.categoryTaken);
      return {
        type: 'SetBudget',
        data: {
          budgetId: randomUUID(),
          userId,
          now,
          month: monthKey(new Date(now)),
          categoryId: node.categoryId,
          categoryName: node.name,
          ...terms.value,
        },
      };
    },
    answer: answerBudget('Budget set successfully!'),
  });

  budgetCommand({
    method: 'PUT',
    url: '/:id',
    ifMatch: true,
    schema: {
      tags,
      security,
      summary: "Change a budget's amount or rollover (from this month on; only what changed is recorded)",
      params: BudgetParams,
      body: BudgetBody,
      response: { 200: BudgetResponse, ...errorResponses(401, 404, 409, 422) },
    },
    command: async ({ userId, params, body }, now) => {
      if (!isUuid(params.id)) throw notFound();
      const budgetId = params.id.toLowerCase();
      const current = await getBudget(platform.db, userId, budgetId);
      const category = body.category_id;
      if (
        current &&
        category !== undefined &&
        category !== null &&
        category !== '' &&
        category !== current.categoryId
      )
        throw categoryError(BUDGET_MESSAGES.categoryFixed);
      const terms = ok(parseBudgetTerms(body));
      return {
        type: 'ChangeBudget',
        data: { budgetId, userId, now, month: monthKey(new Date(now)), ...terms },
      };
    },
    answer: answerBudget('Budget updated successfully!'),
  });

  budgetCommand({
    method: 'DELETE',
    url: '/:id',
    ifMatch: true,
    schema: {
      tags,
      security,
      summary: 'Delete a budget (its history stays)',
      params: BudgetParams,
      response: { 200: BudgetDeletedResponse, ...errorResponses(401, 404, 409) },
    },
    command: async ({ userId, params }, now) => {
      if (!isUuid(params.id)) throw notFound();
      return {
        type: 'DeleteBudget',
        data: { budgetId: params.id.toLowerCase(), userId, now, month: monthKey(new Date(now)) },
      };
    },
    answer: async () => ({ success: true as const, message: 'Budget deleted successfully!', data: null }),
  });
}
