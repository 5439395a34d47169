import type { Decider } from '../shared/decider';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '../shared/errors';
import { changedKeys, pickFields } from '../shared/field-table';
import { assertNever, type Command } from '../shared/messages';
import type { EmailReservationEvent, IssuedToken, UserEvent } from './events';
import { PROFILE_FIELDS, type ProfileNames } from './fields';
import {
  decideUserSecurity,
  TWO_FACTOR_MESSAGES,
  USER_SECURITY_COMMAND_TYPES,
  type UserSecurityCommand,
} from './security';
import {
  type EmailReservationState,
  evolveEmailReservation,
  evolveUser,
  initialEmailReservationState,
  initialUserState,
  type PendingToken,
  type RegisteredUser,
  type UserState,
} from './state';

export const USER_MESSAGES = {
  emailTaken: 'An account with this email already exists',
  invalidCredentials: 'Invalid email or password',
  emailNotVerified: 'Please verify your email address before logging in',
  invalidVerificationLink: 'Invalid or expired verification link',
  invalidResetLink: 'Invalid or expired password reset link',
  currentPasswordIncorrect: 'Current password is incorrect',
  userNotFound: 'User not found',
} as const;

/** Every command carries `now` (ISO-8601 UTC): the domain has no clock. */
export type RegisterUser = Command<
  'RegisterUser',
  Readonly<{
    userId: string;
    firstName: string;
    lastName: string;
    email: string;
    passwordHash: string;
    verification: IssuedToken;
    now: string;
  }>
>;
export type RequestEmailVerification = Command<
  'RequestEmailVerification',
  Readonly<{ verification: IssuedToken; now: string }>
>;
export type VerifyEmail = Command<'VerifyEmail', Readonly<{ tokenHash: string; now: string }>>;
export type RequestPasswordReset = Command<
  'RequestPasswordReset',
  Readonly<{ reset: IssuedToken; now: string }>
>;
export type ResetPassword = Command<
  'ResetPassword',
  Readonly<{ tokenHash: string; passwordHash: string; now: string }>
>;
/** The API checks the current password against the stored hash (argon2 is I/O-bound work). */
export type ChangePassword = Command<
  'ChangePassword',
  Readonly<{
    currentPasswordMatches: boolean;
    passwordHash: string;
    now: string;
    /** The session that changes it stays signed in (issue 32); every other one ends. */
    keptSessionId?: string | null;
  }>
>;
/** Ends the session: every token issued before `now` stops working (spec section 4, Logout). */
export type SignOut = Command<'SignOut', Readonly<{ now: string }>>;
export type UpdateProfile = Command<'UpdateProfile', ProfileNames & Readonly<{ now: string }>>;
/**
 * Moving the account to another address is not applied at once: a link to confirm it
 * (`verification`) is mailed to that address, and opening it applies the change (`VerifyEmail`).
 * The API sends this only for an address no other account uses; for a used one it tells that
 * address's owner instead (`NoteEmailClaimAttempt`), and the caller cannot tell the two apart.
 */
export type RequestEmailChange = Command<
  'RequestEmailChange',
  Readonly<{ email: string; verification: IssuedToken; now: string }>
>;
/** Tells the owner of `email` that someone tried to claim it (no-op if it is no longer theirs). */
export type NoteEmailClaimAttempt = Command<
  'NoteEmailClaimAttempt',
  Readonly<{ email: string; via: 'register' | 'profile'; now: string }>
>;
export type SetProfilePicture = Command<'SetProfilePicture', Readonly<{ fileName: string; now: string }>>;
export type RemoveProfilePicture = Command<'RemoveProfilePicture', Readonly<{ now: string }>>;

export type UserCommand =
  | RegisterUser
  | RequestEmailVerification
  | VerifyEmail
  | RequestPasswordReset
  | ResetPassword
  | ChangePassword
  | SignOut
  | UpdateProfile
  | RequestEmailChange
  | NoteEmailClaimAttempt
  | SetProfilePicture
  | RemoveProfilePicture
  | UserSecurityCommand;

const isLive = <T extends PendingToken>(token: T | null, tokenHash: string, now: string): token is T =>
  token !== null && token.tokenHash === tokenHash && Date.parse(now) < Date.parse(token.expiresAt);

function registered(state: UserState): RegisteredUser {
  if (state.status !== 'registered') throw new NotFoundError(USER_MESSAGES.userNotFound);
  return state;
}

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  if (command.type === 'RegisterUser') {
    if (state.status === 'registered') throw new ConflictError(USER_MESSAGES.emailTaken, 'EMAIL_TAKEN');
    const { userId, firstName, lastName, email, passwordHash, verification, now } = command.data;
    return [
      {
        type: 'UserRegistered',
        data: { userId, firstName, lastName, email, passwordHash, registeredAt: now },
      },
      { type: 'EmailVerificationRequested', data: { userId, email, ...verification, requestedAt: now } },
    ];
  }
  const user = registered(state);
  const { userId } = user;
  if (isSecurityCommand(command)) {
    // No session starts without the second factor while it is on.
    if (command.type === 'StartSession' && user.security.twoFactor) {
      throw new UnauthorizedError(TWO_FACTOR_MESSAGES.signInExpired);
    }
    return decideUserSecurity(command, user);
  }
  switch (command.type) {
    case 'RequestEmailVerification': {
      if (user.emailVerified) return [];
      const { verification, now } = command.data;
      return [
        {
          type: 'EmailVerificationRequested',
          data: { userId, email: user.email, ...verification, requestedAt: now },
        },
      ];
    }
    case 'VerifyEmail': {
      const { tokenHash, now } = command.data;
      const link = user.verification;
      if (!isLive(link, tokenHash, now) || (link.email === user.email && user.emailVerified)) {
        throw new BadRequestError(USER_MESSAGES.invalidVerificationLink, 'INVALID_VERIFICATION_TOKEN');
      }
      const verified: UserEvent = {
        type: 'EmailVerified',
        data: { userId, email: link.email, verifiedAt: now },
      };
      if (link.email === user.email) return [verified];
      // A confirmed change of address; the API has reserved the new address first.
      return [
        {
          type: 'EmailChanged',
          data: { userId, previousEmail: user.email, email: link.email, changedAt: now },
        },
        verified,
      ];
    }
    case 'RequestPasswordReset': {
      const { reset, now } = command.data;
      return [
        { type: 'PasswordResetRequested', data: { userId, email: user.email, ...reset, requestedAt: now } },
      ];
    }
    case 'ResetPassword': {
      const { tokenHash, passwordHash, now } = command.data;
      if (!isLive(user.passwordReset, tokenHash, now)) {
        throw new BadRequestError(USER_MESSAGES.invalidResetLink, 'INVALID_RESET_TOKEN');
      }
      return [{ type: 'PasswordResetCompleted', data: { userId, passwordHash, completedAt: now } }];
    }
    case 'ChangePassword': {
      const { currentPasswordMatches, passwordHash, now, keptSessionId } = command.data;
      if (!currentPasswordMatches) {
        throw new ValidationError([
          { field: 'currentPassword', message: USER_MESSAGES.currentPasswordIncorrect },
        ]);
      }
      return [
        {
          type: 'PasswordChanged',
          data: { userId, passwordHash, changedAt: now, ...(keptSessionId ? { keptSessionId } : {}) },
        },
      ];
    }
    case 'SignOut':
      return [{ type: 'SignedOut', data: { userId, signedOutAt: command.data.now } }];
    case 'UpdateProfile': {
      // Every declared profile field is compared: an edit that changes none records nothing.
      if (changedKeys(PROFILE_FIELDS, user, command.data).length === 0) return [];
      const names = pickFields(PROFILE_FIELDS, command.data);
      return [{ type: 'ProfileUpdated', data: { userId, ...names, updatedAt: command.data.now } }];
    }
    case 'RequestEmailChange': {
      const { email, verification, now } = command.data;
      if (email === user.email) return [];
      return [{ type: 'EmailChangeRequested', data: { userId, email, ...verification, requestedAt: now } }];
    }
    case 'NoteEmailClaimAttempt': {
      const { email, via, now } = command.data;
      if (email !== user.email) return [];
      return [{ type: 'EmailClaimAttempted', data: { userId, email, via, attemptedAt: now } }];
    }
    case 'SetProfilePicture': {
      const { fileName, now } = command.data;
      return [
        {
          type: 'ProfilePictureSet',
          data: { userId, fileName, previousFileName: user.profilePicture, setAt: now },
        },
      ];
    }
    case 'RemoveProfilePicture': {
      if (user.profilePicture === null) return [];
      return [
        {
          type: 'ProfilePictureRemoved',
          data: { userId, fileName: user.profilePicture, removedAt: command.data.now },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

const SECURITY_COMMANDS = new Set<string>(USER_SECURITY_COMMAND_TYPES);
const isSecurityCommand = (command: UserCommand): command is UserSecurityCommand =>
  SECURITY_COMMANDS.has(command.type);

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: initialUserState,
  evolve: evolveUser,
  decide: decideUser,
};

/**
 * Sign-in rule. The API verifies the password with argon2 (also for unknown addresses, so timing
 * does not tell) and passes the outcome. A wrong address or password gives one message; the
 * unverified state is revealed only to someone who knows the password.
 */
export function checkSignIn(state: UserState, passwordMatches: boolean): RegisteredUser {
  if (state.status !== 'registered' || !passwordMatches) {
    throw new UnauthorizedError(USER_MESSAGES.invalidCredentials);
  }
  if (!state.emailVerified) throw new ForbiddenError(USER_MESSAGES.emailNotVerified, 'EMAIL_NOT_VERIFIED');
  return state;
}

/**
 * A reservation whose holder does not use the address (its registration or e-mail change never
 * completed, e.g. the process died between the two appends) is taken over after this long.
 */
export const STALE_RESERVATION_MS = 10 * 60 * 1000;

/**
 * Commands of an e-mail reservation stream; `email` is trimmed and lower-cased.
 * `holderUsesAddress`: whether the current holder (if another user) is registered with this
 * address; the API reads it from the holder's stream.
 */
export type ReserveEmail = Command<
  'ReserveEmail',
  Readonly<{ email: string; userId: string; now: string; holderUsesAddress: boolean }>
>;
export type ReleaseEmail = Command<'ReleaseEmail', Readonly<{ email: string; userId: string; now: string }>>;
export type EmailReservationCommand = ReserveEmail | ReleaseEmail;

export function decideEmailReservation(
  command: EmailReservationCommand,
  state: EmailReservationState,
): EmailReservationEvent[] {
  const { email, userId, now } = command.data;
  switch (command.type) {
    case 'ReserveEmail': {
      const { heldBy, reservedAt } = state;
      const reserved: EmailReservationEvent = {
        type: 'EmailReserved',
        data: { email, userId, reservedAt: now },
      };
      if (heldBy === userId) return [];
      if (heldBy === null) return [reserved];
      const stale =
        !command.data.holderUsesAddress &&
        reservedAt !== null &&
        Date.parse(now) - Date.parse(reservedAt) >= STALE_RESERVATION_MS;
      if (!stale) throw new ConflictError(USER_MESSAGES.emailTaken, 'EMAIL_TAKEN');
      return [{ type: 'EmailReleased', data: { email, userId: heldBy, releasedAt: now } }, reserved];
    }
    case 'ReleaseEmail':
      if (state.heldBy !== userId) return [];
      return [{ type: 'EmailReleased', data: { email, userId, releasedAt: now } }];
    default:
      return assertNever(command);
  }
}

export const emailReservationDecider: Decider<
  EmailReservationState,
  EmailReservationCommand,
  EmailReservationEvent
> = {
  initialState: initialEmailReservationState,
  evolve: evolveEmailReservation,
  decide: decideEmailReservation,
};
