/** The account an auditor is reading (issue 14): a grant received, as GET /api/audit-grants gives it. */
export type AuditAccount = Readonly<{
  grantId: string;
  ownerUserId: string;
  ownerName: string;
  expiresAt: string;
  asOfLimit: string | null;
}>;

const STORAGE_KEY = 'kosh.auditAccount';

/** The audit mode a reload keeps (sessionStorage), or null. Light: boot.ts reads it first. */
export function storedAuditAccount(): AuditAccount | null {
  try {
    const text = window.sessionStorage.getItem(STORAGE_KEY);
    const value = text ? (JSON.parse(text) as Partial<AuditAccount>) : null;
    return value && typeof value.ownerUserId === 'string' && typeof value.grantId === 'string'
      ? (value as AuditAccount)
      : null;
  } catch {
    return null;
  }
}

/** Keeps (or clears) the audit mode for reloads of this tab. */
export function storeAuditAccount(account: AuditAccount | null): void {
  try {
    if (account) window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(account));
    else window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage off (private mode): the mode lasts until the next reload.
  }
}
