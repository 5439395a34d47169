import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AuditGrantBody,
  AuditGrantListResponse,
  AuditGrantParams,
  AuditGrantResponse,
  AuditGrantRevokedResponse,
  errorResponses,
} from '@kosh/contract';
import {
  AUDIT_MESSAGES,
  auditGrantDecider,
  auditGrantStreamId,
  NotFoundError,
  normalizeEmail,
  userDecider,
  userStreamId,
} from '@kosh/domain';
import { type AuditGrantRow, selectAuditGrants, selectUserRow } from '@kosh/projections';
import type { FastifyInstance } from 'fastify';
import { loadAggregate } from '../../commands/handle';
import { commandRoutes } from '../../commands/route';
import { parseInstant } from '../../reads/read-at';
import { auditGrantRateLimit } from '../auth/limits';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const tags = ['Audit grants'];
const security = [{ bearerAuth: [] }];

/** A date is the end of that day in India; '' when absent, 'invalid' when not a date. */
function instantOf(value: string | null | undefined): string {
  const text = value?.trim() ?? '';
  if (text === '') return '';
  const instant = parseInstant(text, true);
  return instant === 'invalid' ? 'invalid' : instant.toISOString();
}

function statusOf(row: AuditGrantRow, now: Date): 'active' | 'expired' | 'revoked' {
  if (row.revokedAt) return 'revoked';
  return Date.parse(row.expiresAt) > now.getTime() ? 'active' : 'expired';
}

const toWire = (row: AuditGrantRow, now: Date) => ({
  id: row.grantId,
  email: row.email,
  expires_at: row.expiresAt,
  as_of_limit: row.asOfLimit,
  granted_at: row.grantedAt,
  revoked_at: row.revokedAt,
  status: statusOf(row, now),
});

/**
 * Issue 14: an owner grants, lists and revokes read-only access to their account; an auditor
 * lists what was granted to their address. Reading under a grant: plugins/audit-access.ts.
 */
export async function auditGrantRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.addHook('onRequest', app.authenticate);

  const grantCommand = commandRoutes(app, {
    decider: auditGrantDecider,
    streamId: (command) => auditGrantStreamId(command.data.grantId),
    // The grant section lists it next, and reading under a grant looks it up there.
    waitFor: ['audit-grants'],
  });

  grantCommand({
    method: 'POST',
    url: '/',
    status: 201,
    schema: {
      tags,
      security,
      summary:
        'Grant read-only access to whoever signs in with an address, until an instant; mails them a link',
      body: AuditGrantBody,
      response: { 201: AuditGrantResponse, ...errorResponses(401, 422, 429) },
    },
    options: { preHandler: auditGrantRateLimit(app) },
    command: async ({ userId, body }, now) => {
      const { state: owner } = await loadAggregate(platform, userStreamId(userId), userDecider);
      if (owner.status !== 'registered') throw new NotFoundError(AUDIT_MESSAGES.grantNotFound);
      const limit = instantOf(body.as_of_limit);
      return {
        type: 'GrantAuditAccess',
        data: {
          grantId: randomUUID(),
          userId,
          ownerName: `${owner.firstName} ${owner.lastName}`,
          ownerEmail: owner.email,
          email: normalizeEmail(body.email ?? ''),
          expiresAt: instantOf(body.expires_at),
          asOfLimit: limit === '' ? null : limit,
          now,
        },
      };
    },
    answer: ({ state, nextVersion, command }) => {
      if (state.status === 'none') throw new NotFoundError(AUDIT_MESSAGES.grantNotFound);
      const row: AuditGrantRow = { ...state, revokedAt: null, version: nextVersion };
      // The same answer whether or not the address has an account (no enumeration).
      return {
        success: true as const,
        message: `Access granted. We sent a link to ${state.email}.`,
        data: { grant: toWire(row, new Date(command.data.now)) },
      };
    },
  });

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'The grants you gave, and the live grants given to your address',
        response: { 200: AuditGrantListResponse, ...errorResponses(401) },
      },
    },
    async (request) => {
      const now = platform.clock();
      const me = await selectUserRow(platform.db, request.userId);
      const granted = await selectAuditGrants(platform.db, 'owner_user_id = $1', [request.userId]);
      const received = me
        ? await selectAuditGrants(
            platform.db,
            'email = $1 AND owner_user_id <> $2 AND revoked_at IS NULL AND expires_at > $3',
            [me.email, request.userId, now.toISOString()],
          )
        : [];
      return {
        success: true as const,
        data: {
          granted: granted.map((row) => toWire(row, now)),
          received: received.map((row) => ({
            id: row.grantId,
            owner_user_id: row.ownerUserId,
            owner_name: row.ownerName,
            expires_at: row.expiresAt,
            as_of_limit: row.asOfLimit,
            granted_at: row.grantedAt,
          })),
        },
      };
    },
  );

  grantCommand({
    method: 'DELETE',
    url: '/:id',
    schema: {
      tags,
      security,
      summary: 'Revoke a grant you gave: the auditor loses access at once',
      params: AuditGrantParams,
      response: { 200: AuditGrantRevokedResponse, ...errorResponses(401, 404) },
    },
    command: ({ userId, params }, now) => {
      if (!UUID.test(params.id)) throw new NotFoundError(AUDIT_MESSAGES.grantNotFound);
      return { type: 'RevokeAuditAccess', data: { grantId: params.id, userId, now } };
    },
    answer: () => ({ success: true as const, message: 'Access revoked' }),
  });
}
