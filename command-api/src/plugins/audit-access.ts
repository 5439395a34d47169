import {
  AUDIT_MESSAGES,
  auditGrantDecider,
  auditGrantStreamId,
  auditReadsStreamId,
  decideAudit,
  ForbiddenError,
} from '@kosh/domain';
import { selectAuditGrants, selectUserRow } from '@kosh/projections';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { appendEvents, loadAggregate } from '../commands/handle';
import { commandContext } from '../commands/route';

/** The header an auditor names the account with (the owner's user id); absent: their own. */
export const ACCOUNT_HEADER = 'x-kosh-account';

/** The grant a request is answered under. */
export type AuditContext = Readonly<{
  grantId: string;
  auditorUserId: string;
  ownerUserId: string;
  /** Reads are answered as of this instant at the latest (null: live). */
  asOfLimit: Date | null;
}>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when an auditor reads another user's account; `userId` is then the owner's. */
    audit: AuditContext | null;
  }
}

/** Reads answered through the as-of machinery: an as-of limit caps them. */
const AS_OF_ROUTES = new Set([
  '/api/ledger',
  '/api/ledger/periods',
  '/api/loans',
  '/api/loans/stats',
  '/api/loans/:id',
  '/api/loans/:id/amortization',
  '/api/transactions',
  '/api/transactions/stats',
  '/api/transactions.csv',
  '/api/ledger.csv',
  '/api/loans/:id/amortization.csv',
  '/api/accounts',
  '/api/accounts/:id',
  '/api/accounts/:id/register',
  '/api/accounts/:id/register.csv',
  '/api/transfers',
]);
/** Timelines: an as-of limit hides what was recorded after it. */
const TIMELINE_ROUTES = new Set(['/api/history', '/api/loans/:id/history', '/api/transactions/:id/history']);
/** Reads of the present only: open to grants without an as-of limit. */
const LIVE_ROUTES = new Set([
  '/api/transactions/:id',
  '/api/loans/:id/amortization/versions',
  '/api/loans/:id/amortization/diff',
  '/api/loans/:id/certificate',
  '/api/export/history',
  '/api/banks',
  '/api/banks/loan-types',
  '/api/transfers/:id',
  '/api/imports',
  '/api/imports/:id',
  // Issue 31: the names of the book's categories (never seeded by an auditor's read).
  '/api/categories',
]);

/** The route's path without a trailing slash (`/api/loans/` is `/api/loans`). */
const routeOf = (request: FastifyRequest) => (request.routeOptions.url ?? '').replace(/\/+$/, '');

function readable(route: string, limited: boolean): boolean {
  return AS_OF_ROUTES.has(route) || TIMELINE_ROUTES.has(route) || (!limited && LIVE_ROUTES.has(route));
}

const refuse = (): never => {
  throw new ForbiddenError(AUDIT_MESSAGES.noAccess, 'NO_ACCOUNT_ACCESS');
};

/**
 * Auditor access (issue 14): a signed-in user who sends `X-Kosh-Account: <owner id>` reads that
 * owner's account through the very same routes, if a live grant names the user's address. Each
 * such read is recorded on the grant's reads stream (the owner's timeline) before it is answered;
 * anything but a read is 403. No grant, an expired or revoked one, an unknown account: one answer.
 */
export const auditAccessPlugin = fp(
  async (app: FastifyInstance) => {
    const { platform } = app;
    app.decorateRequest('audit', null);
    app.addAccountResolver(async (request) => {
      const header = request.headers[ACCOUNT_HEADER];
      if (header === undefined) return;
      const ownerUserId = (Array.isArray(header) ? header.join(',') : header).trim();
      if (ownerUserId === request.userId) return;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        throw new ForbiddenError(AUDIT_MESSAGES.readOnly, 'READ_ONLY');
      }
      const auditor = await selectUserRow(platform.db, request.userId);
      if (!auditor || ownerUserId.length === 0 || ownerUserId.length > 64) return refuse();
      const now = platform.clock().toISOString();
      const candidates = await selectAuditGrants(
        platform.db,
        'owner_user_id = $1 AND email = $2 AND revoked_at IS NULL AND expires_at > $3',
        [ownerUserId, auditor.email, now],
      );
      // The read model finds the grants; the grant's own stream decides (a revoke counts at once).
      for (const candidate of candidates) {
        const streamId = auditGrantStreamId(candidate.grantId);
        const { state } = await loadAggregate(platform, streamId, auditGrantDecider);
        if (state.status !== 'granted') continue;
        const limited = state.asOfLimit !== null;
        if (!readable(routeOf(request), limited)) return refuse();
        let events: ReturnType<typeof decideAudit>;
        try {
          events = decideAudit(
            {
              type: 'RecordAuditRead',
              data: {
                grantId: candidate.grantId,
                auditorUserId: request.userId,
                auditorEmail: auditor.email,
                request: `${request.method} ${request.url}`.slice(0, 500),
                now,
              },
            },
            state,
          );
        } catch (error) {
          if (error instanceof ForbiddenError) continue;
          throw error;
        }
        const context = commandContext(request, { userId: ownerUserId });
        await appendEvents(context, auditReadsStreamId(candidate.grantId), events, {
          expectedVersion: 'any',
        });
        request.audit = {
          grantId: candidate.grantId,
          auditorUserId: request.userId,
          ownerUserId,
          asOfLimit: state.asOfLimit === null ? null : new Date(state.asOfLimit),
        };
        request.userId = ownerUserId;
        return;
      }
      refuse();
    });
  },
  { name: 'audit-access', dependencies: ['auth'] },
);
