import {
  type AuditAccessGranted,
  type AuditAccessRevoked,
  type AuditGrant,
  evolveAuditGrant,
  initialAuditGrantState,
  type RecordedEvent,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { rowProjection, splitChanges } from '../runner/row-projection';

/** One row of `audit_grants`: the domain's grant (revoked when `revokedAt` is set) and its version. */
export type AuditGrantRow = Omit<AuditGrant, 'status'> & Readonly<{ version: number }>;

type Versioned = Pick<RecordedEvent, 'streamVersion'>;
/** The grant's own stream; the reads under it live on another and are not folded here. */
type GrantEvent = AuditAccessGranted | AuditAccessRevoked;
const GRANT_EVENT_TYPES = ['AuditAccessGranted', 'AuditAccessRevoked'] as const;

/** Pure fold of one grant's events into its row (null until granted): the domain's own fold. */
export function evolveAuditGrantRow(
  row: AuditGrantRow | null,
  event: GrantEvent & Versioned,
): AuditGrantRow | null {
  if (row && event.streamVersion <= row.version) return row;
  const state = evolveAuditGrant(
    row ? { ...row, status: row.revokedAt ? 'revoked' : 'granted' } : initialAuditGrantState(),
    event,
  );
  if (state.status === 'none') return null;
  const { status: _status, ...grant } = state;
  return { ...grant, version: event.streamVersion };
}

const COLUMNS = `grant_id, owner_user_id, owner_name, email, expires_at, as_of_limit, granted_at, revoked_at,
  version`;

type DbRow = {
  grant_id: string;
  owner_user_id: string;
  owner_name: string;
  email: string;
  expires_at: string | Date;
  as_of_limit: string | Date | null;
  granted_at: string | Date;
  revoked_at: string | Date | null;
  version: number | string;
};

const iso = (value: string | Date) => new Date(value).toISOString();
const isoOrNull = (value: string | Date | null) => (value === null ? null : iso(value));

function fromDb(r: DbRow): AuditGrantRow {
  return {
    grantId: r.grant_id,
    ownerUserId: r.owner_user_id,
    ownerName: r.owner_name,
    email: r.email,
    expiresAt: iso(r.expires_at),
    asOfLimit: isoOrNull(r.as_of_limit),
    grantedAt: iso(r.granted_at),
    revokedAt: isoOrNull(r.revoked_at),
    version: Number(r.version),
  };
}

/** Grants matching `where` (SQL over the row's columns), newest first. */
export async function selectAuditGrants(
  db: Queryable,
  where: string,
  params: unknown[],
): Promise<AuditGrantRow[]> {
  const { rows } = await db.query<DbRow>(
    `SELECT ${COLUMNS} FROM audit_grants WHERE ${where} ORDER BY granted_at DESC, grant_id`,
    params,
  );
  return rows.map(fromDb);
}

async function saveRow(tx: Queryable, row: AuditGrantRow): Promise<void> {
  await tx.query(
    `INSERT INTO audit_grants (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (grant_id) DO UPDATE SET revoked_at = EXCLUDED.revoked_at, version = EXCLUDED.version`,
    [
      row.grantId,
      row.ownerUserId,
      row.ownerName,
      row.email,
      row.expiresAt,
      row.asOfLimit,
      row.grantedAt,
      row.revokedAt,
      row.version,
    ],
  );
}

async function loadRows(tx: Queryable, grantIds: readonly string[]): Promise<Map<string, AuditGrantRow>> {
  const rows = await selectAuditGrants(tx, 'grant_id = ANY($1)', [grantIds]);
  return new Map(rows.map((row) => [row.grantId, row]));
}

/** Folds each grant's events of the batch into its row: one read per batch, one write per grant. */
export const auditGrantsProjection = rowProjection({
  name: 'audit-grants',
  handles: GRANT_EVENT_TYPES,
  tables: ['audit_grants'],
  migrations: new URL('./migrations', import.meta.url),
  keyOf: (event) => event.data.grantId,
  evolve: evolveAuditGrantRow,
  load: loadRows,
  async write(tx, changes) {
    for (const row of splitChanges(changes).saved) await saveRow(tx, row);
  },
});
