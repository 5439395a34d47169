import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  errorResponses,
  RuleApplyBody,
  RuleApplyResponse,
  RuleBody,
  RuleDeletedResponse,
  RuleListResponse,
  RuleParams,
  RuleResponse,
  type WireRule,
  type WireRuleChange,
} from '@kosh/contract';
import {
  type FieldError,
  fromPaise,
  isUuid,
  NotFoundError,
  RULE_FIELDS,
  RULE_MESSAGES,
  type RuleChange,
  type RuleFields,
  type RuleInput,
  ruleDecider,
  ruleStreamId,
  ValidationError,
  wireOf,
} from '@kosh/domain';
import { parseRuleChecked, ruleChangeOf, ruleMatcher } from '@kosh/domain/rule-engine';
import {
  evolveRuleRow,
  getRule,
  listRules,
  type RuleCandidate,
  type RuleRow,
  ruleCandidates,
} from '@kosh/projections';
import type { FastifyInstance } from 'fastify';
import { handleCommand } from '../../commands/handle';
import { commandContext, commandRoutes, readOrFold } from '../../commands/route';
import { ownsOpenAccount } from '../accounts/own-account';
import { ownsCategory } from '../categories/own-category';

const tags = ['Rules'];
const security = [{ bearerAuth: [] }];

export function ruleToWire(row: RuleRow): WireRule {
  return {
    id: row.id,
    ...wireOf(RULE_FIELDS, row),
    applied_count: row.appliedCount,
    changed_count: row.changedCount,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

function changeToWire(change: RuleChange, transaction: RuleCandidate): WireRuleChange {
  return {
    transaction_id: change.transactionId,
    transaction_date: transaction.transactionDate,
    notes: transaction.notes,
    amount: fromPaise(transaction.amount),
    transaction_type: transaction.transactionType,
    category_id: change.categoryId,
    payee: change.payee,
    previous_category_id: change.previousCategoryId,
    previous_payee: change.previousPayee,
  };
}

/** The rule a route names: a malformed id is simply not found. */
function ruleIdOf(id: string): string {
  if (!isUuid(id)) throw new NotFoundError(RULE_MESSAGES.notFound);
  return id.toLowerCase();
}

/**
 * Issue 31: the user's categorisation rules (`rule-{id}`), applied on demand to existing entries
 * (with a dry run first) and in a statement's preview. Another user's rule is a 404.
 */
export async function ruleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.addHook('onRequest', app.authenticate);

  /** The validated rule; its account and category must be the caller's own (else 422). */
  async function fields(userId: string, body: RuleInput): Promise<RuleFields> {
    const parsed = parseRuleChecked(body);
    if (!parsed.ok) throw new ValidationError(parsed.errors);
    const { accountId, categoryId } = parsed.value;
    const [accountOk, categoryOk] = await Promise.all([
      !accountId || ownsOpenAccount(platform, userId, accountId),
      !categoryId || ownsCategory(platform, userId, categoryId),
    ]);
    const errors: FieldError[] = [
      ...(accountOk ? [] : [{ field: 'account_id', message: RULE_MESSAGES.accountNotFound }]),
      ...(categoryOk ? [] : [{ field: 'category_id', message: RULE_MESSAGES.categoryNotFound }]),
    ];
    if (errors.length > 0) throw new ValidationError(errors);
    return parsed.value;
  }

  const ruleCommand = commandRoutes(app, {
    decider: ruleDecider,
    streamId: (command) => ruleStreamId(command.data.ruleId),
    waitFor: ['rules', 'history'],
  });

  /** The rule's row after a command: the read model's, else folded from its stream. */
  const answerRule = async (
    reply: Parameters<typeof readOrFold>[0],
    userId: string,
    ruleId: string,
    history: Parameters<typeof evolveRuleRow>[1][],
  ) => {
    const row = await readOrFold(reply, {
      read: () => getRule(platform.db, userId, ruleId),
      current: (r) => r.version >= history.length,
      fold: () => history.reduce(evolveRuleRow, null),
    });
    if (!row || row.deleted) throw new NotFoundError(RULE_MESSAGES.notFound);
    return ruleToWire(row);
  };

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'The user’s rules, oldest first (the order an import preview tries them)',
        response: { 200: RuleListResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { rules: (await listRules(platform.db, request.userId)).map(ruleToWire) },
    }),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One rule',
        params: RuleParams,
        response: { 200: RuleResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const row = await getRule(platform.db, request.userId, ruleIdOf(request.params.id));
      if (!row) throw new NotFoundError(RULE_MESSAGES.notFound);
      return { success: true as const, data: { rule: ruleToWire(row) } };
    },
  );

  ruleCommand({
    method: 'POST',
    url: '/',
    status: 201,
    idempotent: true,
    newStream: true,
    schema: {
      tags,
      security,
      summary: 'Create a rule',
      body: RuleBody,
      response: { 201: RuleResponse, ...errorResponses(401, 422) },
    },
    command: async ({ userId, body }, now) => ({
      type: 'CreateRule',
      data: { ...(await fields(userId, body)), ruleId: randomUUID(), userId, now },
    }),
    answer: async ({ history, command }, request, reply) => ({
      success: true as const,
      message: 'Rule created',
      data: { rule: await answerRule(reply, request.userId, command.data.ruleId, history) },
    }),
  });

  ruleCommand({
    method: 'PUT',
    url: '/:id',
    schema: {
      tags,
      security,
      summary: 'Change a rule (every field; what is left out is none)',
      params: RuleParams,
      body: RuleBody,
      response: { 200: RuleResponse, ...errorResponses(401, 404, 422) },
    },
    command: async ({ userId, params, body }, now) => {
      const ruleId = ruleIdOf(params.id);
      return { type: 'UpdateRule', data: { ...(await fields(userId, body)), ruleId, userId, now } };
    },
    answer: async ({ history, command }, request, reply) => ({
      success: true as const,
      message: 'Rule updated',
      data: { rule: await answerRule(reply, request.userId, command.data.ruleId, history) },
    }),
  });

  ruleCommand({
    method: 'DELETE',
    url: '/:id',
    schema: {
      tags,
      security,
      summary: 'Delete a rule (what it changed stays)',
      params: RuleParams,
      response: { 200: RuleDeletedResponse, ...errorResponses(401, 404) },
    },
    command: ({ userId, params }, now) => ({
      type: 'DeleteRule',
      data: { ruleId: ruleIdOf(params.id), userId, now },
    }),
    answer: async () => ({ success: true as const, message: 'Rule deleted', data: null }),
  });

  app.post(
    '/:id/apply',
    {
      schema: {
        tags,
        security,
        summary:
          'Apply a rule to existing entries: with dry_run, what would change; without, every change in one event (RuleApplied)',
        params: RuleParams,
        body: RuleApplyBody,
        response: { 200: RuleApplyResponse, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const ruleId = ruleIdOf(request.params.id);
      const dryRun = request.body?.dry_run === true;
      const rule = await getRule(platform.db, request.userId, ruleId);
      if (!rule) throw new NotFoundError(RULE_MESSAGES.notFound);
      // A category merged or deleted since the rule was written is not set on anything.
      if (rule.categoryId && !(await ownsCategory(platform, request.userId, rule.categoryId)))
        throw new ValidationError([{ field: 'category_id', message: RULE_MESSAGES.categoryNotFound }]);
      const matches = ruleMatcher(rule);
      const found = (await ruleCandidates(platform.db, request.userId, rule)).flatMap((transaction) => {
        const change = matches(transaction) ? ruleChangeOf(rule, transaction) : null;
        return change ? [{ change, transaction }] : [];
      });
      const changes = found.map(({ change, transaction }) => changeToWire(change, transaction));
      if (!dryRun) {
        const now = platform.clock().toISOString();
        // The rule's own decider says whether it is still the caller's (a delete since: 404).
        await handleCommand(commandContext(request, { reply }), {
          streamId: ruleStreamId(ruleId),
          decider: ruleDecider,
          command: {
            type: 'ApplyRule',
            data: { ruleId, userId: request.userId, now, changes: found.map((f) => f.change) },
          },
          waitFor: ['transactions', 'rules', 'history'],
        });
      }
      return {
        success: true as const,
        ...(!dryRun && {
          message: `${changes.length} transaction${changes.length === 1 ? '' : 's'} changed`,
        }),
        data: { dry_run: dryRun, changed: changes.length, changes },
      };
    },
  );
}
