import type { DomainEvent } from '../shared/messages';
import { normalizeEmail } from '../validation/auth';
import type { ProfileNames } from './fields';
import { USER_SECURITY_EVENT_TYPES, type UserSecurityEvent } from './security';

/**
 * Events of a `user-{id}` stream. Instants are ISO-8601 UTC strings. A verification or reset
 * token never enters the log in clear: `tokenHash` is its SHA-256 (hex), used to check it, and
 * `sealedToken` is the token encrypted by the API with a key from configuration, so that only the
 * mail worker can put it in the link it mails.
 */
export type UserRegistered = DomainEvent<
  'UserRegistered',
  Readonly<{
    userId: string;
    firstName: string;
    lastName: string;
    /** Trimmed and lower-cased. */
    email: string;
    /** argon2id encoded hash. */
    passwordHash: string;
    registeredAt: string;
  }>
>;

/** The hash and the sealed form of a freshly issued single-use token, and when it stops working. */
export type IssuedToken = Readonly<{ tokenHash: string; sealedToken: string; expiresAt: string }>;

/** A verification link was issued for `email`; it supersedes earlier ones. */
export type EmailVerificationRequested = DomainEvent<
  'EmailVerificationRequested',
  IssuedToken & Readonly<{ userId: string; email: string; requestedAt: string }>
>;

export type EmailVerified = DomainEvent<
  'EmailVerified',
  Readonly<{ userId: string; email: string; verifiedAt: string }>
>;

/** A reset link was issued; it supersedes earlier ones. */
export type PasswordResetRequested = DomainEvent<
  'PasswordResetRequested',
  IssuedToken & Readonly<{ userId: string; email: string; requestedAt: string }>
>;

/** Tokens issued before `completedAt` stop working. */
export type PasswordResetCompleted = DomainEvent<
  'PasswordResetCompleted',
  Readonly<{ userId: string; passwordHash: string; completedAt: string }>
>;

/**
 * Tokens issued before `changedAt` stop working; every session but `keptSessionId` (the one that
 * changed it, issue 32; absent before) ends.
 */
export type PasswordChanged = DomainEvent<
  'PasswordChanged',
  Readonly<{ userId: string; passwordHash: string; changedAt: string; keptSessionId?: string | null }>
>;

/** The user signed out: tokens issued before `signedOutAt` stop working, as after a password change. */
export type SignedOut = DomainEvent<'SignedOut', Readonly<{ userId: string; signedOutAt: string }>>;

export type ProfileUpdated = DomainEvent<
  'ProfileUpdated',
  ProfileNames & Readonly<{ userId: string; updatedAt: string }>
>;

/**
 * The account's address is now `email`; links issued for the previous address (verification and
 * password reset) die. Recorded with `EmailVerified` when a requested change is confirmed; older
 * logs have it followed by an `EmailVerificationRequested` for the new address.
 */
export type EmailChanged = DomainEvent<
  'EmailChanged',
  Readonly<{ userId: string; previousEmail: string; email: string; changedAt: string }>
>;

/**
 * The user asked to move their account to `email`. Nothing changes until the link mailed to that
 * address is opened (then `EmailChanged` and `EmailVerified` follow), so an address can be
 * neither taken over nor probed through the profile form. Supersedes earlier verification links.
 */
export type EmailChangeRequested = DomainEvent<
  'EmailChangeRequested',
  IssuedToken & Readonly<{ userId: string; email: string; requestedAt: string }>
>;

/**
 * Someone tried to register with this user's address, or to move another account to it. The
 * owner is told by mail; the one who tried got the same answer as for a free address.
 */
export type EmailClaimAttempted = DomainEvent<
  'EmailClaimAttempted',
  Readonly<{ userId: string; email: string; via: 'register' | 'profile'; attemptedAt: string }>
>;

/** `fileName` is the stored file under `profile-pictures/`. */
export type ProfilePictureSet = DomainEvent<
  'ProfilePictureSet',
  Readonly<{ userId: string; fileName: string; previousFileName: string | null; setAt: string }>
>;

export type ProfilePictureRemoved = DomainEvent<
  'ProfilePictureRemoved',
  Readonly<{ userId: string; fileName: string; removedAt: string }>
>;

export type UserEvent =
  | UserRegistered
  | EmailVerificationRequested
  | EmailVerified
  | PasswordResetRequested
  | PasswordResetCompleted
  | PasswordChanged
  | SignedOut
  | ProfileUpdated
  | EmailChanged
  | EmailChangeRequested
  | EmailClaimAttempted
  | ProfilePictureSet
  | ProfilePictureRemoved
  | UserSecurityEvent;

export const USER_EVENT_TYPES = [
  'UserRegistered',
  'EmailVerificationRequested',
  'EmailVerified',
  'PasswordResetRequested',
  'PasswordResetCompleted',
  'PasswordChanged',
  'SignedOut',
  'ProfileUpdated',
  'EmailChanged',
  'EmailChangeRequested',
  'EmailClaimAttempted',
  'ProfilePictureSet',
  'ProfilePictureRemoved',
  ...USER_SECURITY_EVENT_TYPES,
] as const satisfies readonly UserEvent['type'][];

export const userStreamId = (userId: string): string => `user-${userId}`;

/** Events of an `email-{sha256(lower-cased e-mail)}` reservation stream. */
export type EmailReserved = DomainEvent<
  'EmailReserved',
  Readonly<{ email: string; userId: string; reservedAt: string }>
>;
export type EmailReleased = DomainEvent<
  'EmailReleased',
  Readonly<{ email: string; userId: string; releasedAt: string }>
>;
export type EmailReservationEvent = EmailReserved | EmailReleased;

/**
 * The reservation stream of an address, appended with "no stream" so that an address is held
 * once without a read model. The hash comes in (node:crypto on the server): the domain does no
 * crypto of its own, so the web app can import it.
 */
export const emailStreamId = (email: string, sha256Hex: (text: string) => string): string =>
  `email-${sha256Hex(normalizeEmail(email))}`;
