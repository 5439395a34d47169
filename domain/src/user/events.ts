import type { DomainEvent } from '../shared/messages';

/**
 * Events of a `user-{id}` stream. Instants are ISO-8601 UTC strings. Verification and reset
 * tokens appear only as their SHA-256 (hex): the raw token never enters the log.
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

/** A verification link was issued for `email`; it supersedes earlier ones. */
export type EmailVerificationRequested = DomainEvent<
  'EmailVerificationRequested',
  Readonly<{ userId: string; email: string; tokenHash: string; requestedAt: string; expiresAt: string }>
>;

export type EmailVerified = DomainEvent<
  'EmailVerified',
  Readonly<{ userId: string; email: string; verifiedAt: string }>
>;

/** A reset link was issued; it supersedes earlier ones. */
export type PasswordResetRequested = DomainEvent<
  'PasswordResetRequested',
  Readonly<{ userId: string; email: string; tokenHash: string; requestedAt: string; expiresAt: string }>
>;

/** Tokens issued before `completedAt` stop working. */
export type PasswordResetCompleted = DomainEvent<
  'PasswordResetCompleted',
  Readonly<{ userId: string; passwordHash: string; completedAt: string }>
>;

/** Tokens issued before `changedAt` stop working. */
export type PasswordChanged = DomainEvent<
  'PasswordChanged',
  Readonly<{ userId: string; passwordHash: string; changedAt: string }>
>;

export type ProfileUpdated = DomainEvent<
  'ProfileUpdated',
  Readonly<{ userId: string; firstName: string; lastName: string; updatedAt: string }>
>;

/** The address is unverified from now on; an `EmailVerificationRequested` for it follows. */
export type EmailChanged = DomainEvent<
  'EmailChanged',
  Readonly<{ userId: string; previousEmail: string; email: string; changedAt: string }>
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
  | ProfileUpdated
  | EmailChanged
  | ProfilePictureSet
  | ProfilePictureRemoved;

export const USER_EVENT_TYPES = [
  'UserRegistered',
  'EmailVerificationRequested',
  'EmailVerified',
  'PasswordResetRequested',
  'PasswordResetCompleted',
  'PasswordChanged',
  'ProfileUpdated',
  'EmailChanged',
  'ProfilePictureSet',
  'ProfilePictureRemoved',
] as const satisfies readonly UserEvent['type'][];

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
