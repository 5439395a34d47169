import { describe, it } from 'vitest';
import { ForbiddenError, NotFoundError, ValidationError } from '../shared/errors';
import { DeciderSpecification } from '../testing/decider-specification';
import { auditGrantDecider } from './decide';
import type { AuditAccessGranted, AuditAccessRevoked } from './events';

const given = DeciderSpecification.for(auditGrantDecider);
const grantId = 'g-1';
const userId = 'owner-1';
const granted: AuditAccessGranted = {
  type: 'AuditAccessGranted',
  data: {
    grantId,
    userId,
    ownerName: 'Asha Rao',
    email: 'ca@example.in',
    expiresAt: '2026-03-31T18:29:59.999Z',
    asOfLimit: null,
    grantedAt: '2026-03-01T06:00:00.000Z',
  },
};
const revoked: AuditAccessRevoked = {
  type: 'AuditAccessRevoked',
  data: { grantId, userId, revokedAt: '2026-03-02T06:00:00.000Z' },
};
const grantCommand = (
  over: Partial<{ email: string; expiresAt: string; asOfLimit: string | null }> = {},
) => ({
  type: 'GrantAuditAccess' as const,
  data: {
    grantId,
    userId,
    ownerName: 'Asha Rao',
    ownerEmail: 'asha@example.in',
    email: 'ca@example.in',
    expiresAt: '2026-03-31T18:29:59.999Z',
    asOfLimit: null,
    now: '2026-03-01T06:00:00.000Z',
    ...over,
  },
});
const read = (now: string, auditorEmail = 'ca@example.in') => ({
  type: 'RecordAuditRead' as const,
  data: { grantId, auditorUserId: 'auditor-1', auditorEmail, request: 'GET /api/ledger', now },
});

describe('GrantAuditAccess', () => {
  it('records the grant', () => {
    given([]).when(grantCommand()).then([granted]);
  });
  it('refuses the owner’s own address, a past expiry and a bad limit, field by field', () => {
    given([])
      .when(
        grantCommand({ email: 'ASHA@example.in', expiresAt: '2026-02-01T00:00:00Z', asOfLimit: 'invalid' }),
      )
      .thenThrows(ValidationError, (e) => {
        if (e.errors.map((x) => x.field).join() !== 'email,expires_at,as_of_limit') throw new Error('fields');
      });
  });
});

describe('RecordAuditRead', () => {
  it('records a read under a live grant by its address', () => {
    given([granted])
      .when(read('2026-03-10T00:00:00.000Z'))
      .then([
        {
          type: 'AuditReadRecorded',
          data: {
            grantId,
            userId,
            auditorUserId: 'auditor-1',
            auditorEmail: 'ca@example.in',
            request: 'GET /api/ledger',
            readAt: '2026-03-10T00:00:00.000Z',
          },
        },
      ]);
  });
  it('refuses after expiry, after revocation, and to another address', () => {
    given([granted]).when(read('2026-03-31T18:30:00.000Z')).thenThrows(ForbiddenError);
    given([granted, revoked]).when(read('2026-03-10T00:00:00.000Z')).thenThrows(ForbiddenError);
    given([granted]).when(read('2026-03-10T00:00:00.000Z', 'other@example.in')).thenThrows(ForbiddenError);
  });
});

describe('RevokeAuditAccess', () => {
  const revoke = (by: string) => ({
    type: 'RevokeAuditAccess' as const,
    data: { grantId, userId: by, now: '2026-03-02T06:00:00.000Z' },
  });
  it('revokes once; a second revoke records nothing', () => {
    given([granted]).when(revoke(userId)).then([revoked]);
    given([granted, revoked]).when(revoke(userId)).then([]);
  });
  it('is not found for anyone but the owner', () => {
    given([granted]).when(revoke('auditor-1')).thenThrows(NotFoundError);
    given([]).when(revoke(userId)).thenThrows(NotFoundError);
  });
});
