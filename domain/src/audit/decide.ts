import type { Decider } from '../shared/decider';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../shared/errors';
import { assertNever, type Command } from '../shared/messages';
import { type AuditGrantInput, validateAuditGrant } from '../validation/audit-grant';
import type { AuditEvent } from './events';
import { type AuditGrantState, evolveAuditGrant, initialAuditGrantState, isGrantActive } from './state';

export const AUDIT_MESSAGES = {
  grantNotFound: 'Audit grant not found',
  /** One answer for no grant, an expired or revoked one, and an account that does not exist. */
  noAccess: 'You do not have access to this account',
  readOnly: 'Auditor access is read-only',
} as const;

/** `now` (ISO-8601 UTC) and the new id come in with the command: the domain has no clock. */
export type GrantAuditAccess = Command<
  'GrantAuditAccess',
  AuditGrantInput & { grantId: string; userId: string; ownerName: string; ownerEmail: string; now: string }
>;
export type RevokeAuditAccess = Command<
  'RevokeAuditAccess',
  { grantId: string; userId: string; now: string }
>;
export type RecordAuditRead = Command<
  'RecordAuditRead',
  { grantId: string; auditorUserId: string; auditorEmail: string; request: string; now: string }
>;

export type AuditCommand = GrantAuditAccess | RevokeAuditAccess | RecordAuditRead;

export function decideAudit(command: AuditCommand, state: AuditGrantState): AuditEvent[] {
  const { type, data } = command;
  switch (type) {
    case 'GrantAuditAccess': {
      if (state.status !== 'none') throw new ConflictError('Audit grant already exists');
      const errors = validateAuditGrant(data, data.ownerEmail, data.now);
      if (errors.length > 0) throw new ValidationError(errors);
      return [
        {
          type: 'AuditAccessGranted',
          data: {
            grantId: data.grantId,
            userId: data.userId,
            ownerName: data.ownerName,
            email: data.email,
            expiresAt: data.expiresAt,
            asOfLimit: data.asOfLimit,
            grantedAt: data.now,
          },
        },
      ];
    }
    case 'RevokeAuditAccess': {
      if (state.status === 'none' || state.ownerUserId !== data.userId) {
        throw new NotFoundError(AUDIT_MESSAGES.grantNotFound);
      }
      if (state.status === 'revoked') return [];
      return [
        {
          type: 'AuditAccessRevoked',
          data: { grantId: data.grantId, userId: data.userId, revokedAt: data.now },
        },
      ];
    }
    case 'RecordAuditRead': {
      if (!isGrantActive(state, data.now) || state.email !== data.auditorEmail) {
        throw new ForbiddenError(AUDIT_MESSAGES.noAccess, 'NO_ACCOUNT_ACCESS');
      }
      return [
        {
          type: 'AuditReadRecorded',
          data: {
            grantId: data.grantId,
            userId: state.ownerUserId,
            auditorUserId: data.auditorUserId,
            auditorEmail: data.auditorEmail,
            request: data.request,
            readAt: data.now,
          },
        },
      ];
    }
    default:
      return assertNever(type);
  }
}

export const auditGrantDecider: Decider<AuditGrantState, AuditCommand, AuditEvent> = {
  initialState: initialAuditGrantState,
  evolve: evolveAuditGrant,
  decide: decideAudit,
};
