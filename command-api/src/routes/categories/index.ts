import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  CategoryBody,
  CategoryDeletedResponse,
  CategoryDeleteQuery,
  CategoryListResponse,
  CategoryMergeBody,
  CategoryParams,
  CategoryResponse,
  CategoryUpdateBody,
  errorResponses,
  type WireCategory,
} from '@kosh/contract';
import {
  CATEGORY_KINDS,
  CATEGORY_MESSAGES,
  type CategoryKind,
  type CategoryNode,
  categoryDecider,
  categoryStreamId,
  isUuid,
  NotFoundError,
  SYSTEM_CATEGORY_KEYS,
  ValidationError,
} from '@kosh/domain';
import { type CategoryWithCount, listCategories } from '@kosh/projections';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { handleCommand } from '../../commands/handle';
import { commandContext, commandRoutes } from '../../commands/route';
import { freshSeedIds } from './own-category';

const tags = ['Categories'];
const security = [{ bearerAuth: [] }];

/** The read models a category's change shows in next: the tree, and the book (merge, delete). */
const WAIT_FOR = ['categories', 'transactions', 'history'] as const;

export function categoryToWire(row: CategoryWithCount): WireCategory {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    parent_id: row.parentId,
    system_key: row.systemKey,
    system: row.systemKey !== null && SYSTEM_CATEGORY_KEYS.has(row.systemKey),
    position: row.position,
    transaction_count: row.transactionCount,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** A node of the decided tree as the list shows it, while the read model has not caught up. */
function nodeToWire(node: CategoryNode, now: string): WireCategory {
  return categoryToWire({
    id: node.categoryId,
    userId: '',
    name: node.name,
    kind: node.kind,
    parentId: node.parentId,
    systemKey: node.systemKey,
    position: node.position,
    createdAt: now,
    updatedAt: now,
    deleted: false,
    movedTo: null,
    version: 0,
    transactionCount: 0,
  });
}

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** An id of the body: blank is null; anything else as text (the decider says whether it is one). */
const idOf = (value: unknown): string | null =>
  isBlank(value) ? null : typeof value === 'string' ? value.trim().toLowerCase() : String(value);

/** The category a route names: a malformed id is simply not found. */
function categoryIdOf(id: string): string {
  if (!isUuid(id)) throw new NotFoundError(CATEGORY_MESSAGES.notFound);
  return id.toLowerCase();
}

/**
 * Issue 31: the user's category tree (`categories-{userId}`), seeded with the household set on
 * first use. Another user's category is a 404 (it is not in the caller's tree).
 */
export async function categoryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.addHook('onRequest', app.authenticate);

  /** The user's categories, the tree seeded first when it never was (every user before issue 31). */
  async function categoriesOf(request: FastifyRequest): Promise<WireCategory[]> {
    const rows = await listCategories(platform.db, request.userId);
    // An auditor's read records nothing in the owner's account: an unseeded tree reads as empty.
    if (rows.length > 0 || request.audit) return rows.map(categoryToWire);
    const now = platform.clock().toISOString();
    const { state } = await handleCommand(commandContext(request), {
      streamId: categoryStreamId(request.userId),
      decider: categoryDecider,
      command: { type: 'SeedCategories', data: { userId: request.userId, seedIds: freshSeedIds(), now } },
      waitFor: ['categories'],
    });
    const seeded = await listCategories(platform.db, request.userId);
    if (seeded.length > 0 || state.status !== 'seeded') return seeded.map(categoryToWire);
    return [...state.categories.values()].map((node) => nodeToWire(node, now));
  }

  /** The category's answer after a command: the read model's row, else the decided tree's node. */
  async function answerOf(
    request: FastifyRequest,
    categoryId: string,
    nodes: ReadonlyMap<string, CategoryNode>,
  ) {
    const rows = await listCategories(platform.db, request.userId);
    const row = rows.find((r) => r.id === categoryId);
    if (row) return categoryToWire(row);
    const node = nodes.get(categoryId);
    if (!node) throw new NotFoundError(CATEGORY_MESSAGES.notFound);
    return nodeToWire(node, platform.clock().toISOString());
  }

  const categoryCommand = commandRoutes(app, {
    decider: categoryDecider,
    streamId: (command) => categoryStreamId(command.data.userId),
    waitFor: WAIT_FOR,
  });

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'The user’s categories: top level first, each followed by its subcategories',
        response: { 200: CategoryListResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ success: true as const, data: { categories: await categoriesOf(request) } }),
  );

  categoryCommand({
    method: 'POST',
    url: '/',
    status: 201,
    idempotent: true,
    schema: {
      tags,
      security,
      summary: 'Add a category (a subcategory takes its parent’s kind)',
      body: CategoryBody,
      response: { 201: CategoryResponse, ...errorResponses(401, 422) },
    },
    command: ({ userId, body }, now) => {
      const kind = isBlank(body.kind) ? null : body.kind;
      if (kind !== null && !CATEGORY_KINDS.includes(kind as CategoryKind))
        throw new ValidationError([{ field: 'kind', message: CATEGORY_MESSAGES.kindInvalid }]);
      return {
        type: 'CreateCategory',
        data: {
          userId,
          seedIds: freshSeedIds(),
          now,
          categoryId: randomUUID(),
          name: typeof body.name === 'string' ? body.name : '',
          kind: kind as CategoryKind | null,
          parentId: idOf(body.parent_id),
        },
      };
    },
    answer: async ({ state, command }, request) => ({
      success: true as const,
      message: 'Category added',
      data: {
        category: await answerOf(
          request,
          command.type === 'CreateCategory' ? command.data.categoryId : '',
          state.status === 'seeded' ? state.categories : new Map(),
        ),
      },
    }),
  });

  categoryCommand({
    method: 'PUT',
    url: '/:id',
    schema: {
      tags,
      security,
      summary: 'Rename and/or move a category (a field left out is unchanged)',
      params: CategoryParams,
      body: CategoryUpdateBody,
      response: { 200: CategoryResponse, ...errorResponses(401, 404, 422) },
    },
    command: ({ userId, params, body }, now) => ({
      type: 'UpdateCategory',
      data: {
        userId,
        seedIds: freshSeedIds(),
        now,
        categoryId: categoryIdOf(params.id),
        ...(body.name !== undefined && { name: typeof body.name === 'string' ? body.name : '' }),
        ...(body.parent_id !== undefined && { parentId: idOf(body.parent_id) }),
      },
    }),
    answer: async ({ state, command }, request) => ({
      success: true as const,
      message: 'Category updated',
      data: {
        category: await answerOf(
          request,
          command.type === 'UpdateCategory' ? command.data.categoryId : '',
          state.status === 'seeded' ? state.categories : new Map(),
        ),
      },
    }),
  });

  categoryCommand({
    method: 'POST',
    url: '/:id/merge',
    schema: {
      tags,
      security,
      summary: 'Merge a category into another: its transactions move there in one event',
      params: CategoryParams,
      body: CategoryMergeBody,
      response: { 200: CategoryResponse, ...errorResponses(401, 404, 422) },
    },
    command: ({ userId, params, body }, now) => {
      const intoId = idOf(body.into_id);
      if (intoId === null)
        throw new ValidationError([{ field: 'into_id', message: CATEGORY_MESSAGES.targetNotFound }]);
      return {
        type: 'MergeCategory',
        data: { userId, seedIds: freshSeedIds(), now, categoryId: categoryIdOf(params.id), intoId },
      };
    },
    answer: async ({ state, command }, request) => ({
      success: true as const,
      message: 'Categories merged',
      data: {
        category: await answerOf(
          request,
          command.type === 'MergeCategory' ? command.data.intoId : '',
          state.status === 'seeded' ? state.categories : new Map(),
        ),
      },
    }),
  });

  categoryCommand({
    method: 'DELETE',
    url: '/:id',
    schema: {
      tags,
      security,
      summary: 'Delete a category; its transactions move to `move_to` (or to none) in one event',
      params: CategoryParams,
      querystring: CategoryDeleteQuery,
      response: { 200: CategoryDeletedResponse, ...errorResponses(401, 404, 422) },
    },
    command: (request, now) => {
      const fromBody = (request.body as { move_to?: unknown } | null | undefined)?.move_to;
      return {
        type: 'DeleteCategory',
        data: {
          userId: request.userId,
          seedIds: freshSeedIds(),
          now,
          categoryId: categoryIdOf(request.params.id),
          moveTo: idOf(request.query.move_to ?? fromBody),
        },
      };
    },
    answer: async () => ({ success: true as const, message: 'Category deleted', data: null }),
  });
}
