import {
  assertNever,
  PROFILE_FIELDS,
  pickFields,
  type RecordedEvent,
  USER_EVENT_TYPES,
  type UserEvent,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { rowProjection, splitChanges } from '../runner/row-projection';

/** One row of `users`. Instants are ISO-8601 UTC strings. */
export type UserRow = Readonly<{
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  emailVerified: boolean;
  profilePicture: string | null;
  createdAt: string;
  updatedAt: string;
  verificationTokenHash: string | null;
  resetTokenHash: string | null;
  tokensValidAfter: string | null;
  /** Stream version of the last event folded in. */
  version: number;
}>;

type Versioned = Pick<RecordedEvent, 'streamVersion'>;

/** Pure fold of one user's events into their row (null until registered). */
export function evolveUserRow(row: UserRow | null, event: UserEvent & Versioned): UserRow | null {
  if (row && event.streamVersion <= row.version) return row;
  if (event.type === 'UserRegistered') {
    const d = event.data;
    return {
      userId: d.userId,
      firstName: d.firstName,
      lastName: d.lastName,
      email: d.email,
      emailVerified: false,
      profilePicture: null,
      createdAt: d.registeredAt,
      updatedAt: d.registeredAt,
      verificationTokenHash: null,
      resetTokenHash: null,
      tokensValidAfter: null,
      version: event.streamVersion,
    };
  }
  if (!row) return null;
  const version = event.streamVersion;
  switch (event.type) {
    case 'EmailVerificationRequested':
    case 'EmailChangeRequested':
      return { ...row, verificationTokenHash: event.data.tokenHash, version };
    case 'EmailClaimAttempted':
    // Two-factor and sessions (issue 32) have their own read model (sessions).
    case 'TwoFactorSetupStarted':
    case 'TwoFactorEnabled':
    case 'TwoFactorDisabled':
    case 'TwoFactorReset':
    case 'RecoveryCodesRegenerated':
    case 'TwoFactorCodeUsed':
    case 'SessionStarted':
    case 'SessionEnded':
      return { ...row, version };
    case 'EmailVerified':
      return {
        ...row,
        emailVerified: true,
        verificationTokenHash: null,
        updatedAt: event.data.verifiedAt,
        version,
      };
    case 'PasswordResetRequested':
      return { ...row, resetTokenHash: event.data.tokenHash, version };
    case 'PasswordResetCompleted':
      return {
        ...row,
        resetTokenHash: null,
        tokensValidAfter: event.data.completedAt,
        updatedAt: event.data.completedAt,
        version,
      };
    case 'PasswordChanged':
      return {
        ...row,
        resetTokenHash: null,
        tokensValidAfter: event.data.changedAt,
        updatedAt: event.data.changedAt,
        version,
      };
    case 'SignedOut':
      return { ...row, tokensValidAfter: event.data.signedOutAt, version };
    case 'ProfileUpdated':
      return {
        ...row,
        ...pickFields(PROFILE_FIELDS, event.data),
        updatedAt: event.data.updatedAt,
        version,
      };
    case 'EmailChanged':
      return {
        ...row,
        email: event.data.email,
        emailVerified: false,
        verificationTokenHash: null,
        resetTokenHash: null,
        updatedAt: event.data.changedAt,
        version,
      };
    case 'ProfilePictureSet':
      return { ...row, profilePicture: event.data.fileName, updatedAt: event.data.setAt, version };
    case 'ProfilePictureRemoved':
      return { ...row, profilePicture: null, updatedAt: event.data.removedAt, version };
    default:
      return assertNever(event);
  }
}

const COLUMNS = `user_id, first_name, last_name, email, email_verified, profile_picture, created_at, updated_at,
  verification_token_hash, reset_token_hash, tokens_valid_after, version`;

type DbUserRow = {
  user_id: string;
  first_name: string;
  last_name: string;
  email: string;
  email_verified: boolean;
  profile_picture: string | null;
  created_at: string | Date;
  updated_at: string | Date;
  verification_token_hash: string | null;
  reset_token_hash: string | null;
  tokens_valid_after: string | Date | null;
  version: number | string;
};

const iso = (value: string | Date) => new Date(value).toISOString();

export function fromDb(r: DbUserRow): UserRow {
  return {
    userId: r.user_id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    emailVerified: r.email_verified,
    profilePicture: r.profile_picture,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    verificationTokenHash: r.verification_token_hash,
    resetTokenHash: r.reset_token_hash,
    tokensValidAfter: r.tokens_valid_after === null ? null : iso(r.tokens_valid_after),
    version: Number(r.version),
  };
}

export async function selectUserRow(db: Queryable, userId: string): Promise<UserRow | null> {
  const { rows } = await db.query<DbUserRow>(`SELECT ${COLUMNS} FROM users WHERE user_id = $1`, [userId]);
  return rows[0] ? fromDb(rows[0]) : null;
}

async function saveUserRow(tx: Queryable, row: UserRow): Promise<void> {
  await tx.query(
    `INSERT INTO users (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (user_id) DO UPDATE SET
       first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, email = EXCLUDED.email,
       email_verified = EXCLUDED.email_verified, profile_picture = EXCLUDED.profile_picture,
       updated_at = EXCLUDED.updated_at, verification_token_hash = EXCLUDED.verification_token_hash,
       reset_token_hash = EXCLUDED.reset_token_hash, tokens_valid_after = EXCLUDED.tokens_valid_after,
       version = EXCLUDED.version`,
    [
      row.userId,
      row.firstName,
      row.lastName,
      row.email,
      row.emailVerified,
      row.profilePicture,
      row.createdAt,
      row.updatedAt,
      row.verificationTokenHash,
      row.resetTokenHash,
      row.tokensValidAfter,
      row.version,
    ],
  );
}

async function loadUserRows(tx: Queryable, userIds: readonly string[]): Promise<Map<string, UserRow>> {
  const { rows } = await tx.query<DbUserRow>(`SELECT ${COLUMNS} FROM users WHERE user_id = ANY($1)`, [
    userIds,
  ]);
  return new Map(rows.map((r) => [r.user_id, fromDb(r)]));
}

/** Folds each user's events of the batch into their row: one read per batch, one write per user. */
export const usersProjection = rowProjection({
  name: 'users',
  handles: USER_EVENT_TYPES,
  tables: ['users'],
  migrations: new URL('./migrations', import.meta.url),
  // Sign-in and token checks read it (a password change ends older sessions): its batches wait
  // for the WAL flush, so a crash never brings back a moment in which an ended session works.
  asyncCommit: false,
  keyOf: (event) => event.data.userId,
  evolve: evolveUserRow,
  load: loadUserRows,
  async write(tx, changes) {
    for (const row of splitChanges(changes).saved) await saveUserRow(tx, row);
  },
});
