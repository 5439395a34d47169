import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  errorResponses,
  IdParams,
  TransferBody,
  TransferDeletedResponse,
  TransferListQuery,
  TransferListResponse,
  TransferResponse,
} from '@kosh/contract';
import {
  ACCOUNT_MESSAGES,
  type FieldError,
  isUuid,
  NotFoundError,
  parseTransfer,
  TRANSFER_NOT_FOUND,
  type TransferInput,
  transferDecider,
  transferStreamId,
  ValidationError,
} from '@kosh/domain';
import { evolveTransferRow, getTransfer, listTransfers } from '@kosh/projections';
import type { FastifyInstance } from 'fastify';
import { etagOf } from '../../commands/handle';
import { commandRoutes } from '../../commands/route';
import { cachedReadAt, createAnswerCache } from '../../reads/answer-cache';
import { ownsOpenAccount } from '../accounts/own-account';
import { parsePaging, transferToWire } from '../accounts/wire';

const tags = ['Transfers'];
const security = [{ bearerAuth: [] }];

/**
 * Issue 30: money moved between two of the user's own accounts, one event with two legs (one in
 * each register). Never income or expense: the transaction book and the ledger do not read it.
 */
export async function transferRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  const readCache = createAnswerCache(platform);
  app.addHook('onRequest', app.authenticate);

  /** The fields; both accounts must be the user's own open accounts (else 422 on that field). */
  async function fields(userId: string, body: TransferInput) {
    const parsed = parseTransfer(body);
    if (!parsed.ok) throw new ValidationError(parsed.errors);
    const { fromAccountId, toAccountId } = parsed.value;
    const [fromOwn, toOwn] = await Promise.all([
      ownsOpenAccount(platform, userId, fromAccountId),
      ownsOpenAccount(platform, userId, toAccountId),
    ]);
    const errors: FieldError[] = [
      ...(fromOwn ? [] : [{ field: 'from_account_id', message: ACCOUNT_MESSAGES.accountNotFound }]),
      ...(toOwn ? [] : [{ field: 'to_account_id', message: ACCOUNT_MESSAGES.accountNotFound }]),
    ];
    if (errors.length > 0) throw new ValidationError(errors);
    return parsed.value;
  }

  const transferCommand = commandRoutes(app, {
    decider: transferDecider,
    streamId: (command) => transferStreamId(command.data.transferId),
    waitFor: ['accounts'],
  });

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'One page of the transfers, newest first',
        querystring: TransferListQuery,
        response: { 200: TransferListResponse, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) =>
      cachedReadAt(platform, readCache, request, reply, {
        models: ['accounts'],
        body: async ({ db }) => {
          const paging = parsePaging(request.query);
          if (!paging.ok) throw new ValidationError(paging.errors);
          const { page, limit } = paging.value;
          const { rows, totalItems } = await listTransfers(db, request.userId, { page, limit });
          return {
            success: true as const,
            data: {
              transfers: rows.map(transferToWire),
              pagination: {
                current_page: page,
                total_pages: Math.ceil(totalItems / limit),
                total_items: totalItems,
              },
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
        summary: 'One transfer',
        params: IdParams,
        response: { 200: TransferResponse, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const row = isUuid(request.params.id)
        ? await getTransfer(platform.db, request.userId, request.params.id)
        : null;
      if (!row) throw new NotFoundError(TRANSFER_NOT_FOUND);
      reply.header('ETag', etagOf(row.version));
      return { success: true as const, data: { transfer: transferToWire(row) } };
    },
  );

  transferCommand({
    method: 'POST',
    url: '/',
    status: 201,
    idempotent: true,
    schema: {
      tags,
      security,
      summary: 'Move money between two of your accounts',
      body: TransferBody,
      response: { 201: TransferResponse, ...errorResponses(401, 422) },
    },
    newStream: true,
    command: async ({ userId, body }, now) => ({
      type: 'RecordTransfer',
      data: { ...(await fields(userId, body)), transferId: randomUUID(), userId, now },
    }),
    answer: (result, _request, reply) => {
      const row = result.history.reduce(evolveTransferRow, null);
      if (!row) throw new NotFoundError(TRANSFER_NOT_FOUND);
      reply.header('ETag', etagOf(row.version));
      return {
        success: true as const,
        message: 'Transfer recorded successfully!',
        data: { transfer: transferToWire(row) },
      };
    },
  });

  transferCommand({
    method: 'DELETE',
    url: '/:id',
    ifMatch: true,
    schema: {
      tags,
      security,
      summary: 'Delete a transfer (both legs)',
      params: IdParams,
      response: { 200: TransferDeletedResponse, ...errorResponses(401, 404, 409) },
    },
    // Unread: whether the transfer is the caller's is the decider's 404, from the command's one
    // read of the stream. A malformed id is simply not found.
    command: ({ userId, params }, now) => {
      const id = params.id.toLowerCase();
      if (!isUuid(id)) throw new NotFoundError(TRANSFER_NOT_FOUND);
      return { type: 'DeleteTransfer', data: { transferId: id, userId, now } };
    },
    answer: async () => ({ success: true as const, message: 'Transfer deleted successfully!', data: null }),
  });
}
