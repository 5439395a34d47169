import { pickFields } from '../shared/field-table';
import { assertNever } from '../shared/messages';
import type { EmailReservationEvent, UserEvent } from './events';
import { PROFILE_FIELDS } from './fields';
import {
  endSessionsBut,
  evolveUserSecurity,
  initialUserSecurity,
  USER_SECURITY_EVENT_TYPES,
  type UserSecurity,
  type UserSecurityEvent,
} from './security';

/** An outstanding single-use link (verification or reset), known only by its token's hash. */
export type PendingToken = Readonly<{ tokenHash: string; expiresAt: string }>;
/** A verification link confirms one address: the current one, or the one a change moves to. */
export type PendingVerification = PendingToken & Readonly<{ email: string }>;

export type RegisteredUser = Readonly<{
  status: 'registered';
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  emailVerified: boolean;
  passwordHash: string;
  profilePicture: string | null;
  createdAt: string;
  /** The latest verification link (for the current address or a requested new one), until used. */
  verification: PendingVerification | null;
  /** The latest reset link, until used. */
  passwordReset: PendingToken | null;
  /** Tokens issued before this instant are rejected (last password change, reset or sign-out). */
  tokensValidAfter: string | null;
  /** Two-factor sign-in and sessions (issue 32, security.ts). */
  security: UserSecurity;
}>;

export type UserState = Readonly<{ status: 'unregistered' }> | RegisteredUser;

export const initialUserState = (): UserState => ({ status: 'unregistered' });

export function evolveUser(state: UserState, event: UserEvent): UserState {
  if (event.type === 'UserRegistered') {
    const { userId, firstName, lastName, email, passwordHash, registeredAt } = event.data;
    return {
      status: 'registered',
      userId,
      firstName,
      lastName,
      email,
      emailVerified: false,
      passwordHash,
      profilePicture: null,
      createdAt: registeredAt,
      verification: null,
      passwordReset: null,
      tokensValidAfter: null,
      security: initialUserSecurity(),
    };
  }
  if (state.status !== 'registered') return state;
  if (isSecurityEvent(event)) return { ...state, security: evolveUserSecurity(state.security, event) };
  switch (event.type) {
    case 'EmailVerificationRequested':
    case 'EmailChangeRequested': {
      const { tokenHash, expiresAt, email } = event.data;
      return { ...state, verification: { tokenHash, expiresAt, email } };
    }
    case 'EmailVerified':
      return { ...state, emailVerified: true, verification: null };
    case 'PasswordResetRequested':
      return {
        ...state,
        passwordReset: { tokenHash: event.data.tokenHash, expiresAt: event.data.expiresAt },
      };
    case 'PasswordResetCompleted':
      return {
        ...state,
        passwordHash: event.data.passwordHash,
        passwordReset: null,
        tokensValidAfter: event.data.completedAt,
        security: endSessionsBut(state.security, null),
      };
    case 'PasswordChanged':
      return {
        ...state,
        passwordHash: event.data.passwordHash,
        passwordReset: null,
        tokensValidAfter: event.data.changedAt,
        security: endSessionsBut(state.security, event.data.keptSessionId ?? null),
      };
    case 'SignedOut':
      return {
        ...state,
        tokensValidAfter: event.data.signedOutAt,
        security: endSessionsBut(state.security, null),
      };
    case 'ProfileUpdated':
      return { ...state, ...pickFields(PROFILE_FIELDS, event.data) };
    case 'EmailChanged':
      return {
        ...state,
        email: event.data.email,
        emailVerified: false,
        verification: null,
        passwordReset: null,
      };
    case 'EmailClaimAttempted':
      return state;
    case 'ProfilePictureSet':
      return { ...state, profilePicture: event.data.fileName };
    case 'ProfilePictureRemoved':
      return { ...state, profilePicture: null };
    default:
      return assertNever(event);
  }
}

const SECURITY_EVENTS = new Set<string>(USER_SECURITY_EVENT_TYPES);
const isSecurityEvent = (event: UserEvent): event is UserSecurityEvent => SECURITY_EVENTS.has(event.type);

/** Who holds an e-mail address, since when (both null when free or released). */
export type EmailReservationState = Readonly<{ heldBy: string | null; reservedAt: string | null }>;

export const initialEmailReservationState = (): EmailReservationState => ({ heldBy: null, reservedAt: null });

export function evolveEmailReservation(
  state: EmailReservationState,
  event: EmailReservationEvent,
): EmailReservationState {
  switch (event.type) {
    case 'EmailReserved':
      return { heldBy: event.data.userId, reservedAt: event.data.reservedAt };
    case 'EmailReleased':
      return state.heldBy === event.data.userId ? initialEmailReservationState() : state;
    default:
      return assertNever(event);
  }
}
