import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AsOfQuery,
  errorResponses,
  TransactionBody,
  TransactionDeletedResponse,
  TransactionListQuery,
  TransactionListResponse,
  TransactionParams,
  TransactionResponse,
  TransactionStatsResponse,
  type WireTransaction,
} from '@kosh/contract';
import type {
  Decider,
  DeleteImportedTransaction,
  ImportEvent,
  ImportState,
  RecordedEvent,
  TransactionEvent,
  TransactionState,
  UpdateImportedTransaction,
} from '@kosh/domain';
import {
  fromPaise,
  IMPORT_EVENT_TYPES,
  importDecider,
  importedTransactionEvents,
  importStreamId,
  NotFoundError,
  parseTransaction,
  TRANSACTION_ACCOUNT_NOT_FOUND,
  TRANSACTION_CATEGORY_NOT_FOUND,
  TRANSACTION_FIELDS,
  TRANSACTION_NOT_FOUND,
  type TransactionCommand,
  type TransactionInput,
  transactionDecider,
  transactionStreamId,
  ValidationError,
  wireOf,
} from '@kosh/domain';
import {
  evolveTransactionRow,
  getTransaction,
  getTransactionStats,
  listAccounts,
  listTransactions,
  type TransactionRow,
} from '@kosh/projections';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagOf, parseIfMatch } from '../../commands/handle';
import { type CommandOutcome, commandRoutes } from '../../commands/route';
import { sendCsv } from '../../csv';
import { EARLY_ANSWER_READ_MODELS } from '../../plugins/own-writes';
import { cachedReadAt, createAnswerCache } from '../../reads/answer-cache';
import { readAt, readEach } from '../../reads/read-at';
import { ownsOpenAccount } from '../accounts/own-account';
import { ownsCategory } from '../categories/own-category';
import { releaseMatchesOfDeletedDebit } from '../loans/release-matches';
import { parseTransactionListQuery } from './list-query';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toWire(row: TransactionRow): WireTransaction {
  // `wireOf`'s object is fresh: completed in place, not spread into another (every row of a page).
  const wire = wireOf(TRANSACTION_FIELDS, row) as WireTransaction;
  wire.id = row.id;
  wire.created_at = row.createdAt;
  wire.updated_at = row.updatedAt;
  return wire;
}

/**
 * A transaction's commands: a typed transaction's on its own stream (`txn-{id}`); an imported
 * row's edit and delete on its import's stream (`import-{id}`, issue 30), which holds the row
 * since the commit and whose undo then removes it with the rest of the batch.
 */
type RowCommand = TransactionCommand | UpdateImportedTransaction | DeleteImportedTransaction;
type RowEvent = TransactionEvent | ImportEvent;
type RowState = { transaction: TransactionState; imported: ImportState };
const IMPORT_TYPES = new Set<string>(IMPORT_EVENT_TYPES);
const isImportedCommand = (
  command: RowCommand,
): command is UpdateImportedTransaction | DeleteImportedTransaction =>
  command.type === 'UpdateImportedTransaction' || command.type === 'DeleteImportedTransaction';

const rowDecider: Decider<RowState, RowCommand, RowEvent> = {
  initialState: () => ({
    transaction: transactionDecider.initialState(),
    imported: importDecider.initialState(),
  }),
  evolve: (state, event) =>
    IMPORT_TYPES.has(event.type)
      ? { ...state, imported: importDecider.evolve(state.imported, event as ImportEvent) }
      : { ...state, transaction: transactionDecider.evolve(state.transaction, event as TransactionEvent) },
  decide: (command, state) =>
    isImportedCommand(command)
      ? importDecider.decide(command, state.imported)
      : transactionDecider.decide(command, state.transaction),
};

/** The transaction's row as the read model folds the stream's events (an import's: that row's only). */
function rowOf(history: readonly RowEvent[], transactionId: string): TransactionRow | null {
  const events = history.flatMap((event) =>
    IMPORT_TYPES.has(event.type)
      ? importedTransactionEvents(event as RecordedEvent<ImportEvent>, undefined, transactionId)
      : [event as RecordedEvent<TransactionEvent>],
  );
  return events.reduce(evolveTransactionRow, null);
}

const tags = ['Transactions'];
const security = [{ bearerAuth: [] }];

/** Spec section 7, Transactions. Every read filters by the caller; another user's id is a 404. */
export async function transactionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  // The page and the totals are served again while the transactions read model has not moved.
  const readCache = createAnswerCache(platform);
  app.addHook('onRequest', app.authenticate);

  /** The caller's transaction or 404 (a malformed id is simply not found). */
  async function ownTransaction(userId: string, id: string): Promise<TransactionRow> {
    const row = UUID.test(id) ? await getTransaction(platform.db, userId, id) : null;
    if (!row) throw new NotFoundError(TRANSACTION_NOT_FOUND);
    return row;
  }

  /**
   * The transaction a command names, unread: whether it is the caller's is the decider's to say
   * (its 404) from the one read of the stream the command makes, so a transaction just recorded
   * can be changed before the transaction book has caught up. A malformed id is simply not found.
   */
  function transactionIdOf(id: string): string {
    if (!UUID.test(id)) throw new NotFoundError(TRANSACTION_NOT_FOUND);
    return id;
  }

  /**
   * The validated fields; an account or category named must be one of the caller's own (else
   * 422 on account_id, category_id).
   */
  async function fields(userId: string, body: TransactionInput) {
    const parsed = parseTransaction(body);
    if (!parsed.ok) throw new ValidationError(parsed.errors);
    const { accountId, categoryId } = parsed.value;
    const [accountOk, categoryOk] = await Promise.all([
      !accountId || ownsOpenAccount(platform, userId, accountId),
      !categoryId || ownsCategory(platform, userId, categoryId),
    ]);
    const errors = [
      ...(accountOk ? [] : [{ field: 'account_id', message: TRANSACTION_ACCOUNT_NOT_FOUND }]),
      ...(categoryOk ? [] : [{ field: 'category_id', message: TRANSACTION_CATEGORY_NOT_FOUND }]),
    ];
    if (errors.length > 0) throw new ValidationError(errors);
    return parsed.value;
  }

  /**
   * The import of the caller's transaction `id`, when it is an imported row (the transaction
   * book's row says; a row just typed and not in the book yet is a typed one).
   */
  async function importOf(userId: string, id: string): Promise<string | null> {
    const { rows } = await platform.db.query<{ import_id: string | null }>(
      'SELECT import_id::text AS import_id FROM transactions WHERE id = $1::uuid AND user_id = $2',
      [id, userId],
    );
    return rows[0]?.import_id ?? null;
  }

  const transactionCommand = commandRoutes(app, {
    decider: rowDecider,
    streamId: (command) =>
      isImportedCommand(command)
        ? importStreamId(command.data.importId)
        : transactionStreamId(command.data.transactionId),
    // The transaction book (list, stats), the ledger and the account registers show a change next:
    // the commands answer before those hold it (their answers are folded from the stream), and the
    // user's next request waits for them (`answerEarly`, ARCHITECTURE.md "Read your own writes").
    waitFor: EARLY_ANSWER_READ_MODELS,
  });

  /** The answer of a command that keeps the transaction: the row as the list shows it. */
  const answerTransaction =
    (message: string) =>
    (
      result: CommandOutcome<RowState, RowCommand, RowEvent>,
      _request: FastifyRequest,
      reply: FastifyReply,
    ) => {
      // The projection's own fold over the stream: the row the read model holds once it has these
      // events (lagging-answers.int.spec compares the two), without reading it back (one statement
      // of every write). When the read model lags, appendEvents has said so (X-Read-Model-Lag).
      const row = rowOf(result.history, result.command.data.transactionId);
      if (!row) throw new NotFoundError(TRANSACTION_NOT_FOUND);
      reply.header('ETag', etagOf(row.version));
      return { success: true as const, message, data: { transaction: toWire(row) } };
    };

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'One page of the transaction book, filtered and sorted',
        querystring: TransactionListQuery,
        response: { 200: TransactionListResponse, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) =>
      cachedReadAt(platform, readCache, request, reply, {
        models: ['transactions'],
        body: async ({ db }) => {
          const parsed = parseTransactionListQuery(request.query);
          if (!parsed.ok) throw new ValidationError(parsed.errors);
          const query = parsed.value;
          const { rows, totalItems } = await listTransactions(db, request.userId, query);
          const totalPages = Math.ceil(totalItems / query.limit);
          return {
            success: true as const,
            data: {
              transactions: rows.map(toWire),
              pagination: {
                current_page: query.page,
                total_pages: totalPages,
                total_items: totalItems,
                has_prev: query.page > 1,
                has_next: query.page < totalPages,
              },
              filters: {
                search: query.search,
                transaction_type: query.transactionType,
                date_from: query.dateFrom,
                date_to: query.dateTo,
                // Echoed only when asked for: the spec's answer has no account filter.
                ...(query.accountId ? { account_id: query.accountId } : {}),
                ...(query.categoryId ? { category_id: query.categoryId } : {}),
                sort_by: query.sortBy,
                sort_order: query.sortOrder,
              },
            },
          };
        },
      }),
  );

  app.get(
    '.csv',
    {
      schema: {
        tags,
        security,
        summary:
          "Every transaction the book shows with these filters and sort (GET /api/transactions's query; page and limit ignored), as CSV: UTF-8 with BOM, dates YYYY-MM-DD, amounts in rupees",
        querystring: TransactionListQuery,
        produces: ['text/csv'],
        response: errorResponses(401, 422),
      },
    },
    async (request, reply) => {
      const { rows, accountNames } = await readAt(
        platform,
        request,
        ['transactions', 'accounts'],
        async ({ db, asOf }) => {
          const parsed = parseTransactionListQuery({ ...request.query, page: undefined, limit: undefined });
          if (!parsed.ok) throw new ValidationError(parsed.errors);
          const [page, accounts] = await readEach({ asOf }, [
            () =>
              listTransactions(db, request.userId, {
                ...parsed.value,
                page: 1,
                limit: platform.config.EXPORT_MAX_ROWS + 1,
              }),
            () => listAccounts(db, request.userId, null),
          ]);
          // A cut export would look complete in a spreadsheet: refuse it and say how to narrow it.
          if (page.totalItems > platform.config.EXPORT_MAX_ROWS) {
            throw new ValidationError([
              {
                field: 'request',
                message: `This export would hold ${page.totalItems.toLocaleString('en-IN')} transactions, more than ${platform.config.EXPORT_MAX_ROWS.toLocaleString('en-IN')}: choose a shorter date range or more filters.`,
              },
            ]);
          }
          return { rows: page.rows, accountNames: new Map(accounts.map((a) => [a.id, a.name])) };
        },
      );
      return sendCsv(
        reply,
        'transactions.csv',
        ['Date', 'Type', 'Credit', 'Debit', 'Notes', 'Account', 'Bank narration'],
        rows.map((row) => [
          row.transactionDate,
          row.transactionType === 'C' ? 'Credit' : 'Debit',
          row.transactionType === 'C' ? fromPaise(row.amount) : null,
          row.transactionType === 'D' ? fromPaise(row.amount) : null,
          row.notes,
          row.accountId ? (accountNames.get(row.accountId) ?? null) : null,
          row.rawNarration,
        ]),
      );
    },
  );

  app.get(
    '/stats',
    {
      schema: {
        tags,
        security,
        summary: "Totals over all the user's transactions",
        querystring: AsOfQuery,
        response: { 200: TransactionStatsResponse, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) =>
      cachedReadAt(platform, readCache, request, reply, {
        models: ['transactions'],
        body: async ({ db }) => {
          const stats = await getTransactionStats(db, request.userId);
          return {
            success: true as const,
            data: {
              stats: {
                total_transactions: stats.totalTransactions,
                credit_amount: fromPaise(stats.creditAmount),
                debit_amount: fromPaise(stats.debitAmount),
                net_amount: fromPaise(stats.creditAmount - stats.debitAmount),
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
        summary: 'One transaction (ETag: its version, for If-Match)',
        params: TransactionParams,
        response: { 200: TransactionResponse, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const row = await ownTransaction(request.userId, request.params.id);
      reply.header('ETag', etagOf(row.version));
      return { success: true as const, data: { transaction: toWire(row) } };
    },
  );

  transactionCommand({
    method: 'POST',
    url: '/',
    status: 201,
    idempotent: true,
    schema: {
      tags,
      security,
      summary: 'Record a credit or a debit',
      body: TransactionBody,
      response: { 201: TransactionResponse, ...errorResponses(401, 422) },
    },
    newStream: true,
    answerEarly: true,
    command: async ({ userId, body }, now) => ({
      type: 'RecordTransaction',
      data: { ...(await fields(userId, body)), transactionId: randomUUID(), userId, now },
    }),
    answer: answerTransaction('Transaction created successfully!'),
  });

  transactionCommand({
    method: 'PUT',
    url: '/:id',
    schema: {
      tags,
      security,
      summary: 'Change a transaction (If-Match: the version from GET, else 409 when stale)',
      params: TransactionParams,
      body: TransactionBody,
      response: { 200: TransactionResponse, ...errorResponses(401, 404, 409, 422) },
    },
    ifMatch: (command) => !isImportedCommand(command),
    answerEarly: true,
    command: async ({ userId, params, body, headers }, now) => {
      const transactionId = transactionIdOf(params.id);
      const values = await fields(userId, body);
      const importId = await importOf(userId, transactionId);
      if (!importId) return { type: 'UpdateTransaction', data: { ...values, transactionId, userId, now } };
      const expectedVersion = parseIfMatch(headers['if-match']);
      return {
        type: 'UpdateImportedTransaction',
        data: { ...values, importId, transactionId, userId, now, expectedVersion },
      };
    },
    answer: answerTransaction('Transaction updated successfully!'),
  });

  transactionCommand({
    method: 'DELETE',
    url: '/:id',
    schema: {
      tags,
      security,
      summary: 'Delete a transaction (If-Match honoured)',
      params: TransactionParams,
      response: { 200: TransactionDeletedResponse, ...errorResponses(401, 404, 409) },
    },
    ifMatch: (command) => !isImportedCommand(command),
    answerEarly: true,
    command: async ({ userId, params, headers }, now) => {
      const transactionId = transactionIdOf(params.id);
      const importId = await importOf(userId, transactionId);
      if (!importId) return { type: 'DeleteTransaction', data: { transactionId, userId, now } };
      const expectedVersion = parseIfMatch(headers['if-match']);
      return {
        type: 'DeleteImportedTransaction',
        data: { importId, transactionId, userId, now, expectedVersion },
      };
    },
    // Once the delete is decided (the caller's, not stale), and before it is stored: a failure
    // between the two leaves a debit that is no longer matched, never an EMI or a ledger row built
    // from a debit that is gone. The loans it is matched to are other streams, each read once.
    beforeAppend: ({ command }, request) => releaseMatchesOfDeletedDebit(request, command.data.transactionId),
    answer: async () => ({
      success: true as const,
      message: 'Transaction deleted successfully!',
      data: null,
    }),
  });
}
