import type { DomainEvent } from '../shared/messages';

/**
 * Events of an `audit-{grantId}` stream: one owner's grant of read-only access to whoever signs in
 * with `email`. `userId` is the owner (the timeline and the export are theirs). Instants are
 * ISO-8601 UTC strings.
 */
export type AuditAccessGranted = DomainEvent<
  'AuditAccessGranted',
  Readonly<{
    grantId: string;
    userId: string;
    /** The owner's name as the auditor's mail and banner show it. */
    ownerName: string;
    /** Trimmed and lower-cased: the auditor is whoever signs in with this address. */
    email: string;
    expiresAt: string;
    /** The auditor sees the account as it stood at this instant at the latest (null: up to now). */
    asOfLimit: string | null;
    grantedAt: string;
  }>
>;

export type AuditAccessRevoked = DomainEvent<
  'AuditAccessRevoked',
  Readonly<{ grantId: string; userId: string; revokedAt: string }>
>;

/** The auditor read something of the owner's (recorded before it is answered). */
export type AuditReadRecorded = DomainEvent<
  'AuditReadRecorded',
  Readonly<{
    grantId: string;
    userId: string;
    auditorUserId: string;
    auditorEmail: string;
    /** Method and path with the query, as asked. */
    request: string;
    readAt: string;
  }>
>;

export type AuditEvent = AuditAccessGranted | AuditAccessRevoked | AuditReadRecorded;

export const AUDIT_EVENT_TYPES = [
  'AuditAccessGranted',
  'AuditAccessRevoked',
  'AuditReadRecorded',
] as const satisfies readonly AuditEvent['type'][];

export const auditGrantStreamId = (grantId: string): string => `audit-${grantId}`;
/**
 * The reads made under a grant, apart from the grant's own stream: that one stays two events long
 * (every read folds it), and reads append without contending with each other or with a revoke.
 */
export const auditReadsStreamId = (grantId: string): string => `audit-${grantId}-reads`;
