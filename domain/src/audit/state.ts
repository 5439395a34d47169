import { assertNever } from '../shared/messages';
import type { AuditEvent } from './events';

export type AuditGrant = Readonly<{
  status: 'granted' | 'revoked';
  grantId: string;
  ownerUserId: string;
  ownerName: string;
  email: string;
  expiresAt: string;
  asOfLimit: string | null;
  grantedAt: string;
  revokedAt: string | null;
}>;

export type AuditGrantState = Readonly<{ status: 'none' }> | AuditGrant;

export const initialAuditGrantState = (): AuditGrantState => ({ status: 'none' });

export function evolveAuditGrant(state: AuditGrantState, event: AuditEvent): AuditGrantState {
  switch (event.type) {
    case 'AuditAccessGranted': {
      const d = event.data;
      return {
        status: 'granted',
        grantId: d.grantId,
        ownerUserId: d.userId,
        ownerName: d.ownerName,
        email: d.email,
        expiresAt: d.expiresAt,
        asOfLimit: d.asOfLimit,
        grantedAt: d.grantedAt,
        revokedAt: null,
      };
    }
    case 'AuditAccessRevoked':
      return state.status === 'granted'
        ? { ...state, status: 'revoked', revokedAt: event.data.revokedAt }
        : state;
    case 'AuditReadRecorded':
      return state;
    default:
      return assertNever(event);
  }
}

/** A grant the auditor may use at `now`: granted, not revoked, not expired. */
export function isGrantActive(state: AuditGrantState, now: string): state is AuditGrant {
  return state.status === 'granted' && Date.parse(state.expiresAt) > Date.parse(now);
}
