import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AccountBody,
  AccountDeletedResponse,
  AccountListResponse,
  AccountParams,
  AccountQuery,
  AccountResponse,
  errorResponses,
  RegisterQuery,
  RegisterResponse,
} from '@kosh/contract';
import {
  ACCOUNT_MESSAGES,
  type AccountCommand,
  type AccountEvent,
  type AccountInput,
  type AccountState,
  accountDecider,
  accountStreamId,
  fromPaise,
  isUuid,
  NotFoundError,
  parseAccount,
  ValidationError,
} from '@kosh/domain';
import {
  type AccountWithBalance,
  accountRegister,
  evolveAccountRow,
  getAccount,
  getBank,
  listAccounts,
} from '@kosh/projections';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { etagOf } from '../../commands/handle';
import { type CommandOutcome, commandRoutes, readOrFold } from '../../commands/route';
import { fileNamePart, sendCsv } from '../../csv';
import { cachedReadAt, createAnswerCache } from '../../reads/answer-cache';
import { readAt } from '../../reads/read-at';
import { ownsOpenAccount } from './own-account';
import { accountToWire, entryToWire, parseBalanceDate, parsePaging } from './wire';

const tags = ['Accounts'];

const REGISTER_KINDS = {
  opening: 'Opening balance',
  transaction: 'Transaction',
  transfer_in: 'Transfer in',
  transfer_out: 'Transfer out',
} as const;
const security = [{ bearerAuth: [] }];

const ok = <T>(
  parsed: { ok: true; value: T } | { ok: false; errors: { field: string; message: string }[] },
): T => {
  if (!parsed.ok) throw new ValidationError(parsed.errors);
  return parsed.value;
};

/** Issue 30: the user's accounts, each with its register and balance. Another user's account is a 404. */
export async function accountRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  const readCache = createAnswerCache(platform);
  app.addHook('onRequest', app.authenticate);

  const notFound = () => new NotFoundError(ACCOUNT_MESSAGES.accountNotFound);

  async function ownAccount(userId: string, id: string, date: string | null = null) {
    const row = isUuid(id) ? await getAccount(platform.db, userId, id, date) : null;
    if (!row) throw notFound();
    return row;
  }

  /** The details of the body; a catalog bank must be one the user can see (else 422 on bank_id). */
  async function details(userId: string, body: AccountInput) {
    const value = ok(parseAccount(body));
    if (value.bankId !== null && !(await getBank(platform.db, userId, value.bankId))) {
      throw new ValidationError([{ field: 'bank_id', message: ACCOUNT_MESSAGES.bankInvalid }]);
    }
    return value;
  }

  const accountCommand = commandRoutes(app, {
    decider: accountDecider,
    streamId: (command) => accountStreamId(command.data.accountId),
    waitFor: ['accounts'],
  });

  /** The account as the list shows it: the read model's row once it has the events, else the fold. */
  const answerAccount =
    (message: string) =>
    async (
      result: CommandOutcome<AccountState, AccountCommand, AccountEvent>,
      request: { userId: string },
      reply: FastifyReply,
    ) => {
      const id = result.command.data.accountId;
      const stale = await getAccount(platform.db, request.userId, id).catch(() => null);
      const row = await readOrFold<AccountWithBalance>(reply, {
        read: async () => stale,
        current: (r) => r.version >= result.nextVersion,
        fold: () => {
          const folded = result.history.reduce(evolveAccountRow, null);
          if (!folded || folded.deleted) return null;
          // The entries are the read model's; only the account's own fields are newer.
          const entries = stale ? stale.balance - stale.openingBalance : 0;
          return {
            ...folded,
            balance: folded.openingBalance + entries,
            entryCount: stale?.entryCount ?? 0,
            shownBankName: folded.bankId === null ? folded.bankName : (stale?.shownBankName ?? null),
          };
        },
      });
      if (!row) throw notFound();
      reply.header('ETag', etagOf(row.version));
      return { success: true as const, message, data: { account: accountToWire(row) } };
    };

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'The accounts, each with its balance (on `date`, default every entry)',
        querystring: AccountQuery,
        response: { 200: AccountListResponse, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) =>
      cachedReadAt(platform, readCache, request, reply, {
        models: ['accounts'],
        alsoReads: ['catalog'],
        body: async ({ db }) => {
          const date = ok(parseBalanceDate(request.query.date));
          const rows = await listAccounts(db, request.userId, date);
          return { success: true as const, data: { accounts: rows.map(accountToWire) } };
        },
      }),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One account with its balance (on `date`; ETag: its version)',
        params: AccountParams,
        querystring: AccountQuery,
        response: { 200: AccountResponse, ...errorResponses(401, 404, 422) },
      },
    },
    async (request, reply) =>
      readAt(platform, request, ['accounts'], async ({ db }) => {
        const date = ok(parseBalanceDate(request.query.date));
        const row = isUuid(request.params.id)
          ? await getAccount(db, request.userId, request.params.id, date)
          : null;
        if (!row) throw notFound();
        reply.header('ETag', etagOf(row.version));
        return { success: true as const, data: { account: accountToWire(row) } };
      }),
  );

  app.get(
    '/:id/register',
    {
      schema: {
        tags,
        security,
        summary: "One page of the account's register with the running balance",
        params: AccountParams,
        querystring: RegisterQuery,
        response: { 200: RegisterResponse, ...errorResponses(401, 404, 422) },
      },
    },
    async (request, reply) =>
      cachedReadAt(platform, readCache, request, reply, {
        models: ['accounts'],
        alsoReads: ['catalog'],
        body: async ({ db }) => {
          const paging = ok(parsePaging(request.query));
          const { id } = request.params;
          const account = isUuid(id) ? await getAccount(db, request.userId, id) : null;
          const register = account && (await accountRegister(db, request.userId, id, paging));
          if (!account || !register) throw notFound();
          const totalPages = Math.ceil(register.totalItems / paging.limit);
          return {
            success: true as const,
            data: {
              account: accountToWire(account),
              entries: register.entries.map(entryToWire),
              pagination: {
                current_page: paging.page,
                total_pages: totalPages,
                total_items: register.totalItems,
                has_prev: paging.page > 1,
                has_next: paging.page < totalPages,
              },
            },
          };
        },
      }),
  );

  app.get(
    '/:id/register.csv',
    {
      schema: {
        tags,
        security,
        summary: 'The whole register as CSV (UTF-8 with BOM, dates YYYY-MM-DD, amounts in rupees)',
        params: AccountParams,
        querystring: AccountQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { account, entries } = await readAt(platform, request, ['accounts'], async ({ db }) => {
        const { id } = request.params;
        const row = isUuid(id) ? await getAccount(db, request.userId, id) : null;
        const register =
          row && (await accountRegister(db, request.userId, id, { page: 1, limit: null, sortOrder: 'ASC' }));
        if (!row || !register) throw notFound();
        return { account: row, entries: register.entries };
      });
      return sendCsv(
        reply,
        `${fileNamePart(account.name)}-register.csv`,
        ['Date', 'Details', 'Kind', 'Withdrawal', 'Deposit', 'Balance'],
        entries.map((e) => [
          e.date,
          e.counterpartAccountName
            ? `${e.notes ? `${e.notes} · ` : ''}${e.kind === 'transfer_in' ? 'from' : 'to'} ${e.counterpartAccountName}`
            : e.notes,
          REGISTER_KINDS[e.kind],
          e.kind !== 'opening' && e.amount < 0 ? fromPaise(-e.amount) : null,
          e.kind === 'opening' || e.amount < 0 ? null : fromPaise(e.amount),
          fromPaise(e.balance),
        ]),
      );
    },
  );

  accountCommand({
    method: 'POST',
    url: '/',
    status: 201,
    idempotent: true,
    schema: {
      tags,
      security,
      summary: 'Open an account',
      body: AccountBody,
      response: { 201: AccountResponse, ...errorResponses(401, 422) },
    },
    newStream: true,
    command: async ({ userId, body }, now) => ({
      type: 'OpenAccount',
      data: { ...(await details(userId, body)), accountId: randomUUID(), userId, now },
    }),
    answer: answerAccount('Account created successfully!'),
  });

  accountCommand({
    method: 'PUT',
    url: '/:id',
    ifMatch: true,
    schema: {
      tags,
      security,
      summary: 'Change an account (only what changed is recorded; If-Match honoured)',
      params: AccountParams,
      body: AccountBody,
      response: { 200: AccountResponse, ...errorResponses(401, 404, 409, 422) },
    },
    command: async ({ userId, params, body }, now) => {
      if (!(await ownsOpenAccount(platform, userId, params.id))) throw notFound();
      const values = await details(userId, body);
      return { type: 'UpdateAccount', data: { ...values, accountId: params.id.toLowerCase(), userId, now } };
    },
    answer: answerAccount('Account updated successfully!'),
  });

  accountCommand({
    method: 'DELETE',
    url: '/:id',
    ifMatch: true,
    schema: {
      tags,
      security,
      summary: 'Delete an account that holds no transactions or transfers (else 409)',
      params: AccountParams,
      response: { 200: AccountDeletedResponse, ...errorResponses(401, 404, 409) },
    },
    command: async ({ userId, params }, now) => {
      if (!(await ownsOpenAccount(platform, userId, params.id))) throw notFound();
      // The register is the read model's: the account's stream does not see its entries.
      const row = await ownAccount(userId, params.id).catch(() => null);
      return {
        type: 'DeleteAccount',
        data: { accountId: params.id.toLowerCase(), userId, now, entryCount: row?.entryCount ?? 0 },
      };
    },
    answer: async () => ({ success: true as const, message: 'Account deleted successfully!', data: null }),
  });
}
