import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  BankBody,
  BankListQuery,
  BankListResponse,
  BankResponse,
  CatalogParams,
  errorResponses,
  LoanTypeBody,
  LoanTypeResponse,
  paginationOf,
} from '@kosh/contract';
import {
  type AddBank,
  type AddLoanType,
  bankStreamId,
  CATALOG_MESSAGES,
  catalogDecider,
  loanTypeStreamId,
  NotFoundError,
  ValidationError,
  validateBank,
  validateLoanType,
} from '@kosh/domain';
import {
  evolveBankRow,
  evolveLoanTypeRow,
  getBank,
  getLoanType,
  listBanks,
  nextCatalogId,
} from '@kosh/projections';
import type { FastifyInstance } from 'fastify';
import { commandRoutes, readOrFold } from '../../commands/route';
import { parseBankListQuery } from '../loans/list-query';
import { registerLoanTypeList } from './loan-type-list';
import { toWireBank, toWireLoanType } from './wire';

const tags = ['Banks'];
const security = [{ bearerAuth: [] }];

/** A positive integer id from the path, or null (answered as not found). */
const idOf = (text: string): number | null =>
  /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : null;

/** Spec section 7, Banks: the shared catalog plus entries only their owner sees. */
export async function bankRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'Banks the user can choose from (default 50 per page by bank name)',
        querystring: BankListQuery,
        response: { 200: BankListResponse, ...errorResponses(401, 422) },
      },
    },
    async (request) => {
      const parsed = parseBankListQuery(request.query);
      if (!parsed.ok) throw new ValidationError(parsed.errors);
      const query = parsed.value;
      const { rows, totalItems } = await listBanks(platform.db, request.userId, query);
      return {
        success: true as const,
        data: rows.map(toWireBank),
        meta: { pagination: paginationOf(query.page, query.limit, totalItems) },
      };
    },
  );

  // A new entry shows next in the bank and loan type pickers.
  const bankCommand = commandRoutes(app, {
    decider: catalogDecider,
    streamId: (command: AddBank) => bankStreamId(command.data.bankId),
    waitFor: ['catalog'],
  });
  const loanTypeCommand = commandRoutes(app, {
    decider: catalogDecider,
    streamId: (command: AddLoanType) => loanTypeStreamId(command.data.loanTypeId),
    waitFor: ['catalog'],
  });

  bankCommand({
    method: 'POST',
    url: '/',
    status: 201,
    idempotent: true,
    schema: {
      tags,
      security,
      summary: 'Add a bank visible only to the caller',
      body: BankBody,
      response: { 201: BankResponse, ...errorResponses(401, 422) },
    },
    command: async ({ userId, body }, now) => {
      const { bank_name: bankName, branch_name: branchName } = body;
      const errors = validateBank({ bankName, branchName });
      if (errors.length > 0) throw new ValidationError(errors);
      return {
        type: 'AddBank',
        data: {
          bankId: await nextCatalogId(platform.db, 'bank'),
          bankName: String(bankName),
          branchName: branchName == null ? null : String(branchName),
          ownerUserId: userId,
          now,
        },
      };
    },
    answer: async ({ command, history }, { userId }, reply) => {
      const bank = await readOrFold(reply, {
        read: () => getBank(platform.db, userId, command.data.bankId),
        // An entry is added once and never changes: found is current.
        current: () => true,
        fold: () => history.reduce(evolveBankRow, null),
      });
      if (!bank) throw new NotFoundError(CATALOG_MESSAGES.bankNotFound);
      return { success: true as const, message: 'Bank added successfully', data: { bank: toWireBank(bank) } };
    },
  });

  registerLoanTypeList(app, '/loan-types', tags);

  loanTypeCommand({
    method: 'POST',
    url: '/loan-types',
    status: 201,
    idempotent: true,
    schema: {
      tags,
      security,
      summary: 'Add a loan type visible only to the caller',
      body: LoanTypeBody,
      response: { 201: LoanTypeResponse, ...errorResponses(401, 422) },
    },
    command: async ({ userId, body }, now) => {
      const { type_name: typeName } = body;
      const errors = validateLoanType({ typeName });
      if (errors.length > 0) throw new ValidationError(errors);
      return {
        type: 'AddLoanType',
        data: {
          loanTypeId: await nextCatalogId(platform.db, 'loan_type'),
          typeName: String(typeName),
          ownerUserId: userId,
          now,
        },
      };
    },
    answer: async ({ command, history }, { userId }, reply) => {
      const loanType = await readOrFold(reply, {
        read: () => getLoanType(platform.db, userId, command.data.loanTypeId),
        current: () => true,
        fold: () => history.reduce(evolveLoanTypeRow, null),
      });
      if (!loanType) throw new NotFoundError(CATALOG_MESSAGES.loanTypeNotFound);
      return {
        success: true as const,
        message: 'Loan type added successfully',
        data: { loanType: toWireLoanType(loanType) },
      };
    },
  });

  app.get(
    '/loan-types/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One loan type',
        params: CatalogParams,
        response: { 200: LoanTypeResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const id = idOf(request.params.id);
      const loanType = id === null ? null : await getLoanType(platform.db, request.userId, id);
      if (!loanType) throw new NotFoundError(CATALOG_MESSAGES.loanTypeNotFound);
      return { success: true as const, data: { loanType: toWireLoanType(loanType) } };
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One bank',
        params: CatalogParams,
        response: { 200: BankResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const id = idOf(request.params.id);
      const bank = id === null ? null : await getBank(platform.db, request.userId, id);
      if (!bank) throw new NotFoundError(CATALOG_MESSAGES.bankNotFound);
      return { success: true as const, data: { bank: toWireBank(bank) } };
    },
  );
}
