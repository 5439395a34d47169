import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses, LoanTypeListResponse } from '@kosh/contract';
import { listLoanTypes } from '@kosh/projections';
import type { FastifyInstance } from 'fastify';
import { toWireLoanType } from './wire';

/**
 * The loan types a user can choose from (seeded plus their own), as `data.loanTypes`. The spec
 * names two paths for it, `/api/loans/types` and `/api/banks/loan-types`; both register this
 * inside their plugin, whose `onRequest` hook authenticates.
 */
export function registerLoanTypeList(fastify: FastifyInstance, path: string, tags: string[]) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    path,
    {
      schema: {
        tags,
        security: [{ bearerAuth: [] }],
        summary: 'Loan types the user can choose from (data.loanTypes)',
        response: { 200: LoanTypeListResponse, ...errorResponses(401) },
      },
    },
    async (request) => {
      const loanTypes = await listLoanTypes(app.platform.db, request.userId);
      return { success: true as const, data: { loanTypes: loanTypes.map(toWireLoanType) } };
    },
  );
}
