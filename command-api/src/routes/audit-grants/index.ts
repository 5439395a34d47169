import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AUDIT_MESSAGES,
  auditGrantDecider,
  auditGrantStreamId,
  NotFoundError,
  normalizeEmail,
  userDecider,
  userStreamId,
} from '@kosh/domain';
import { type AuditGrantRow, selectAuditGrants } from '@kosh/projections/audit-grants/projector';
import { selectUserRow } from '@kosh/projections/users/projector';
import type { FastifyInstance } from 'fastify';
import { handleCommand, loadAggregate } from '../../commands/handle';
import { parseInstant } from '../../history/read-at';
import {
  AuditGrantBody,
  AuditGrantListResponse,
  AuditGrantParams,
  AuditGrantResponse,
  AuditGrantRevokedResponse,
} from '../../schemas/audit-grants';
import { errorResponses } from '../../schemas/auth';
import { auditGrantRateLimit } from '../auth/limits';

const READ_MODELS = ['audit-grants'] as const;
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

  app.post(
    '/',
    {
      schema: {
        tags,
        security,
        summary:
          'Grant read-only access to whoever signs in with an address, until an instant; mails them a link',
        body: AuditGrantBody,
        response: { 201: AuditGrantResponse, ...errorResponses(401, 422, 429) },
      },
      preHandler: auditGrantRateLimit(app),
    },
    async (request, reply) => {
      const { userId } = request;
      const { state: owner } = await loadAggregate(platform, userStreamId(userId), userDecider);
      if (owner.status !== 'registered') throw new NotFoundError(AUDIT_MESSAGES.grantNotFound);
      const grantId = randomUUID();
      const email = request.body.email ?? '';
      const limit = instantOf(request.body.as_of_limit);
      const now = platform.clock();
      const result = await handleCommand(
        { platform, userId, reply },
        {
          streamId: auditGrantStreamId(grantId),
          decider: auditGrantDecider,
          command: {
            type: 'GrantAuditAccess',
            data: {
              grantId,
              userId,
              ownerName: `${owner.firstName} ${owner.lastName}`,
              ownerEmail: owner.email,
              email: normalizeEmail(email),
              expiresAt: instantOf(request.body.expires_at),
              asOfLimit: limit === '' ? null : limit,
              now: now.toISOString(),
            },
          },
          waitFor: READ_MODELS,
        },
      );
      if (result.state.status === 'none') throw new NotFoundError(AUDIT_MESSAGES.grantNotFound);
      const s = result.state;
      const row: AuditGrantRow = { ...s, revokedAt: null, version: result.nextVersion };
      // The same answer whether or not the address has an account (no enumeration).
      return reply.status(201).send({
        success: true as const,
        message: `Access granted. We sent a link to ${s.email}.`,
        data: { grant: toWire(row, now) },
      });
    },
  );

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

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Revoke a grant you gave: the auditor loses access at once',
        params: AuditGrantParams,
        response: { 200: AuditGrantRevokedResponse, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!UUID.test(id)) throw new NotFoundError(AUDIT_MESSAGES.grantNotFound);
      await handleCommand(
        { platform, userId: request.userId, reply },
        {
          streamId: auditGrantStreamId(id),
          decider: auditGrantDecider,
          command: {
            type: 'RevokeAuditAccess',
            data: { grantId: id, userId: request.userId, now: platform.clock().toISOString() },
          },
          waitFor: READ_MODELS,
        },
      );
      return { success: true as const, message: 'Access revoked' };
    },
  );
}
